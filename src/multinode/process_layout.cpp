#include "multinode/process_layout.h"

#include <map>

namespace nvbw {

std::vector<int> localRanks(const std::vector<RankReport>& reports) {
  std::vector<int> local;
  std::map<std::string, int> seen;
  for (const RankReport& r : reports) local.push_back(seen[r.host]++);
  return local;
}

std::vector<int> chosenDevices(const std::vector<RankReport>& reports) {
  const std::vector<int> local = localRanks(reports);
  std::vector<int> devices;
  for (std::size_t i = 0; i < reports.size(); ++i)
    devices.push_back(reports[i].visibleDevices > 0 ? local[i] % reports[i].visibleDevices : 0);
  return devices;
}

std::optional<std::string> sharedGpuProblem(const std::vector<RankGpu>& gpus) {
  for (std::size_t a = 0; a < gpus.size(); ++a)
    for (std::size_t b = a + 1; b < gpus.size(); ++b)
      if (gpus[a].host == gpus[b].host && gpus[a].uuid == gpus[b].uuid &&
          (gpus[a].logicalDevice < 0 || gpus[a].logicalDevice == gpus[b].logicalDevice))
        return "ranks " + std::to_string(a) + " and " + std::to_string(b) + " would both use GPU " +
               gpus[a].uuid + " on " + gpus[a].host +
               ": run one process per GPU (at most as many processes per host as it has GPUs), "
               "or give each process its own GPU with CUDA_VISIBLE_DEVICES";
  return std::nullopt;
}

const char* sharingName(MemorySharing sharing) {
  constexpr const char* names[] = {"none", "fabric", "posix_fd"};  // in MemorySharing's order
  return names[static_cast<int>(sharing)];
}

std::string sharingDescription(MemorySharing sharing) {
  constexpr const char* descriptions[] = {
      "none", "fabric handles (IMEX)",
      "POSIX file descriptors passed over a Unix-domain socket (no IMEX channel; all ranks on one "
      "host)"};
  return descriptions[static_cast<int>(sharing)];
}

SharingDecision decideSharing(int processes, bool fabricOnAll, const std::string& fabricError,
                              bool sameHost, bool posixOnAll, const std::string& posixError) {
  if (processes < 2) return {MemorySharing::None, std::string("this run has one process")};
  if (fabricOnAll) return {MemorySharing::Fabric, std::nullopt};
  const std::string noFabric =
      "fabric handles are not usable (" + fabricError +
      "; they need the IMEX service and a channel in /dev/nvidia-caps-imex-channels)";
  if (!sameHost)
    return {MemorySharing::None, noFabric + ", and the ranks are on more than one host"};
  if (posixOnAll) return {MemorySharing::PosixFd, std::nullopt};
  return {MemorySharing::None,
          noFabric + ", and POSIX file-descriptor handles failed too (" + posixError + ")"};
}

std::optional<std::string> multicastProblem(bool disabledByEnvironment, bool supportedOnAll,
                                            MemorySharing sharing) {
  if (disabledByEnvironment) return std::string("disabled by NVBANDWIDTH_DISABLE_MULTICAST=1");
  if (!supportedOnAll)
    return std::string(
        "not supported by every rank's GPU (CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED)");
  if (sharing != MemorySharing::Fabric)
    return std::string("multicast objects are shared through fabric handles, which this run "
                       "cannot use");
  return std::nullopt;
}

}  // namespace nvbw
