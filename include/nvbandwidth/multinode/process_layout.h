// The decisions a multi-process run makes at start-up from what every rank reported (pure, so
// they are unit-tested without MPI or GPUs): which GPU each rank uses, whether two ranks would
// share one, how memory can be shared between the ranks, and whether multicast can be used.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace nvbw {

// What one rank reports about itself before its GPU is chosen.
struct RankReport {
  std::string host;
  int visibleDevices = 0;
};

// The node-local rank of each rank (how many lower ranks share its host name), and the GPU it
// takes: node-local rank modulo the GPUs it sees, so a launcher that gives each rank its own GPU
// (CUDA_VISIBLE_DEVICES) works too.
std::vector<int> localRanks(const std::vector<RankReport>& reports);
std::vector<int> chosenDevices(const std::vector<RankReport>& reports);

// The physical GPU a rank ended up with, and which logical GPU of it (-1: a real GPU).
struct RankGpu {
  std::string host;
  std::string uuid;
  int logicalDevice = -1;
};

// "ranks 0 and 2 would both use GPU <uuid> on <host>: ..." for the first pair that would share a
// GPU; nullopt when every rank has its own. Two ranks on different logical GPUs of one physical
// GPU (a testing aid) do not share one.
std::optional<std::string> sharedGpuProblem(const std::vector<RankGpu>& gpus);

// How GPU memory is shared between the processes.
enum class MemorySharing { None, Fabric, PosixFd };
const char* sharingName(MemorySharing sharing);  // "none", "fabric", "posix_fd"
std::string sharingDescription(MemorySharing sharing);

struct SharingDecision {
  MemorySharing sharing = MemorySharing::None;
  std::optional<std::string> problem;  // why there is none
};

// Fabric handles where every rank could create and export a small fabric allocation; else POSIX
// file descriptors where all ranks are on one host and every rank could export one; else none.
// `fabricError`/`posixError`: the first failing rank's error, for the reason.
SharingDecision decideSharing(int processes, bool fabricOnAll, const std::string& fabricError,
                              bool sameHost, bool posixOnAll, const std::string& posixError);

// Why multicast cannot be used, or nullopt. Disabled by NVBANDWIDTH_DISABLE_MULTICAST=1 (checked
// first, so nothing multicast is even asked of the driver), then unsupported on some rank's GPU,
// then no way to share its handle.
std::optional<std::string> multicastProblem(bool disabledByEnvironment, bool supportedOnAll,
                                            MemorySharing sharing);

}  // namespace nvbw
