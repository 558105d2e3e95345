#include "multinode/startup.h"

#include <stdexcept>

#include "core/error.h"
#include "model/json.h"
#include "model/report_writer.h"

namespace nvbw {
namespace {

// A member of another rank's start-up message (each rank sends the same keys).
const Json& member(const Json& message, const char* key) {
  const Json* v = findMember(message, key);
  if (!v) throw std::runtime_error(std::string("a rank's start-up message has no \"") + key + "\"");
  return *v;
}

const std::string& text(const Json& message, const char* key) {
  return member(message, key).get_ref<const std::string&>();
}

unsigned number(const Json& message, const char* key) {
  return static_cast<unsigned>(member(message, key).get<std::uint64_t>());
}

Json rankGpu(const LocalGpus& mine, const GpuAssignment& assignment) {
  const DeviceInfo& gpu = mine.devices.at(static_cast<std::size_t>(assignment.device));
  return {{"host", mine.host}, {"device", assignment.device},
          {"name", gpu.name},  {"domain", gpu.pciDomain},
          {"bus", gpu.pciBus}, {"slot", gpu.pciDevice},
          {"uuid", gpu.uuid},  {"logical", mine.logicalGpus > 0 ? assignment.device : -1}};
}

}  // namespace

void startupStep(Communicator& comm, const std::optional<std::string>& mine) {
  if (const auto agreed = agreeOnProblem(comm, mine)) throw StartupError(*agreed);
}

GpuAssignment assignGpus(Communicator& comm, const LocalGpus& mine) {
  std::vector<RankReport> reports;
  for (const std::string& message :
       comm.allGather(compactJson({{"host", mine.host}, {"devices", mine.devices.size()}}))) {
    const Json j = parseJson(message, kMessageDepth);
    reports.push_back({text(j, "host"), static_cast<int>(number(j, "devices"))});
  }
  GpuAssignment assignment;
  assignment.device = chosenDevices(reports).at(static_cast<std::size_t>(comm.rank()));
  std::optional<std::string> problem;
  if (mine.devices.empty()) problem = "no CUDA-capable GPU is visible to this process";
  startupStep(comm, problem);

  std::vector<RankGpu> gpus;
  for (const std::string& message : comm.allGather(compactJson(rankGpu(mine, assignment)))) {
    const Json j = parseJson(message, kMessageDepth);
    gpus.push_back({text(j, "host"), text(j, "uuid"),
                    static_cast<int>(member(j, "logical").get<std::int64_t>())});
    assignment.processes.push_back(
        {text(j, "host"), static_cast<int>(number(j, "device")),
         DeviceInfo{text(j, "name"), number(j, "domain"), number(j, "bus"), number(j, "slot"),
                    text(j, "uuid")}});
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
