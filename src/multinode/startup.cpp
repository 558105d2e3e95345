#include "multinode/startup.h"

#include <stdexcept>

#include "core/error.h"
#include "model/report_reader.h"
#include "model/report_writer.h"
#include "model/value.h"

namespace nvbw {

namespace {

// A member of another rank's start-up message (each rank sends the same keys).
const Value& member(const Value& message, const char* key) {
  const Value* v = message.find(key);
  if (!v) throw std::runtime_error(std::string("a rank's start-up message has no \"") + key + "\"");
  return *v;
}

const std::string& text(const Value& message, const char* key) {
  return member(message, key).asString();
}

unsigned number(const Value& message, const char* key) {
  return static_cast<unsigned>(member(message, key).asUnsigned());
}

Value rankReport(const LocalGpus& mine) {
  Value report = Value::object();
  report.set("host", mine.host);
  report.set("devices", mine.devices.size());
  return report;
}

Value rankGpu(const LocalGpus& mine, const GpuAssignment& assignment) {
  const auto device = static_cast<std::size_t>(assignment.device);
  const DeviceInfo& gpu = mine.devices.at(device);
  Value me = Value::object();
  me.set("host", mine.host);
  me.set("device", assignment.device);
  me.set("name", gpu.name);
  me.set("domain", gpu.pciDomain);
  me.set("bus", gpu.pciBus);
  me.set("slot", gpu.pciDevice);
  me.set("uuid", mine.uuids.at(device));
  me.set("logical", mine.logicalGpus > 0 ? assignment.device : -1);
  return me;
}

}  // namespace

void startupStep(Communicator& comm, const std::optional<std::string>& mine) {
  if (const auto agreed = agreeOnProblem(comm, mine)) throw StartupError(*agreed);
}

GpuAssignment assignGpus(Communicator& comm, const LocalGpus& mine) {
  std::vector<RankReport> reports;
  for (const std::string& message : comm.allGather(compactJson(rankReport(mine)))) {
    const Value j = parseJson(message);
    reports.push_back({text(j, "host"), static_cast<int>(number(j, "devices"))});
  }
  GpuAssignment assignment;
  assignment.device = chosenDevices(reports).at(static_cast<std::size_t>(comm.rank()));
  std::optional<std::string> problem;
  if (mine.devices.empty()) problem = "no CUDA-capable GPU is visible to this process";
  startupStep(comm, problem);

  std::vector<RankGpu> gpus;
  for (const std::string& message : comm.allGather(compactJson(rankGpu(mine, assignment)))) {
    const Value j = parseJson(message);
    gpus.push_back(
        {text(j, "host"), text(j, "uuid"), static_cast<int>(member(j, "logical").asInteger())});
    assignment.processes.push_back(
        {text(j, "host"), static_cast<int>(number(j, "device")),
         DeviceInfo{text(j, "name"), number(j, "domain"), number(j, "bus"), number(j, "slot"),
                    text(j, "uuid")},
         text(j, "uuid")});
  }
  if (const auto shared = sharedGpuProblem(gpus)) throw StartupError(*shared);
  return assignment;
}

StartupDecision decideStartup(Communicator& comm, const std::vector<ProcessInfo>& processes,
                              const SharingProbes& probes) {
  const int size = comm.size();
  bool sameHost = true;
  for (const ProcessInfo& p : processes) sameHost = sameHost && p.host == processes.at(0).host;
  std::string fabricError, posixError;
  if (size > 1)
    fabricError = agreeOnProblem(comm, probes.tryExport(MemorySharing::Fabric)).value_or("");
  if (size > 1 && !fabricError.empty() && sameHost)
    posixError = agreeOnProblem(comm, probes.tryExport(MemorySharing::PosixFd)).value_or("");
  const SharingDecision sharing = decideSharing(size, fabricError.empty(), fabricError, sameHost,
                                                posixError.empty(), posixError);

  // Any rank that disables multicast disables it for all: every rank takes the same path.
  const bool disabled = !agreeAll(comm, !probes.multicastDisabled);
  const bool logical = !agreeAll(comm, !probes.logicalGpus);
  const bool supported = !disabled && !logical && agreeAll(comm, probes.multicastSupported());

  StartupDecision decision;
  decision.sharing = sharing.sharing;
  decision.facts = {size, sharing.problem, multicastProblem(disabled, supported, sharing.sharing)};
  if (logical && !disabled)
    decision.facts.multicastProblem =
        std::string("the GPUs are logical (NVBW_LOGICAL_GPUS): multicast is never tried on them");
  if (size < 2) decision.facts.multicastProblem = std::string("this run has one process");
  decision.description = sharing.sharing == MemorySharing::None
                             ? "none: " + sharing.problem.value_or("")
                             : sharingDescription(sharing.sharing);
  return decision;
}

}  // namespace nvbw
