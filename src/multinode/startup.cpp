#include "multinode/startup.h"

#include <nlohmann/json.hpp>

#include "core/error.h"

namespace nvbw {

void startupStep(Communicator& comm, const std::optional<std::string>& mine) {
  if (const auto agreed = agreeOnProblem(comm, mine)) throw StartupError(*agreed);
}

GpuAssignment assignGpus(Communicator& comm, const LocalGpus& mine) {
  std::vector<RankReport> reports;
  const std::string report =
      nlohmann::json{{"host", mine.host}, {"devices", mine.devices.size()}}.dump();
  for (const std::string& text : comm.allGather(report)) {
    const auto j = nlohmann::json::parse(text);
    reports.push_back({j["host"], j["devices"]});
  }
  GpuAssignment assignment;
  assignment.device = chosenDevices(reports).at(static_cast<std::size_t>(comm.rank()));
  std::optional<std::string> problem;
  if (mine.devices.empty()) problem = "no CUDA-capable GPU is visible to this process";
  startupStep(comm, problem);

  const auto device = static_cast<std::size_t>(assignment.device);
  const DeviceInfo& gpu = mine.devices.at(device);
  const nlohmann::json me = {{"host", mine.host},
                             {"device", assignment.device},
                             {"name", gpu.name},
                             {"domain", gpu.pciDomain},
                             {"bus", gpu.pciBus},
                             {"slot", gpu.pciDevice},
                             {"uuid", mine.uuids.at(device)}};
  std::vector<RankGpu> gpus;
  for (const std::string& text : comm.allGather(me.dump())) {
    const auto j = nlohmann::json::parse(text);
    gpus.push_back({j["host"], j["uuid"]});
    assignment.processes.push_back(
        {j["host"], j["device"], DeviceInfo{j["name"], j["domain"], j["bus"], j["slot"], j["uuid"]},
         j["uuid"]});
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
  const bool supported = !disabled && agreeAll(comm, probes.multicastSupported());

  StartupDecision decision;
  decision.sharing = sharing.sharing;
  decision.facts = {size, sharing.problem, multicastProblem(disabled, supported, sharing.sharing)};
  if (size < 2) decision.facts.multicastProblem = std::string("this run has one process");
  decision.description = sharing.sharing == MemorySharing::None
                             ? "none: " + sharing.problem.value_or("")
                             : sharingDescription(sharing.sharing);
  return decision;
}

}  // namespace nvbw
