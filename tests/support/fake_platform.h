// A platform without a GPU for whole-run tests: a faked topology, and a plan runner that
// "measures" values derived from the plan, so each number in a report says which copy landed in
// which cell:
//   copy i of a measurement, src -> dst:   100 + 10*src + dst + 0.25*i   ("Host" counts as 9)
//   Total and SumOfCopies:                 the sum of every copy's value above
//   latency, chase on r through t's memory: 500 + 10*r + t   (through the TMA: 800 + 10*r + t)
// e.g. 110.00 is Device 1 -> Device 0 as copy 0, 101.25 is Device 0 -> Device 1 as copy 1.
// Every sample of a cell has the same value unless `jitter` is set.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "app/application.h"
#include "fake_topology.h"
#include "platform/topology.h"

namespace nvbw::test {

struct FakeBehaviour {
  // The release the facts name; empty: the fixtures' pinned one (the fake binary sets the build's).
  std::string release;
  std::chrono::milliseconds perSample{0};  // wall time one sample takes
  // Plans whose first matrix title contains one of these fail with a verification error.
  std::set<std::string> failingTitles;
  // Copies from GPU .first to GPU .second (-1: host memory) fail their check, as a real check of
  // their destination does, in whichever measurement or round they run.
  std::set<std::pair<int, int>> failingCopies;
  // Not empty: every plan run appends a line of what it did (counts, memory) to this file.
  std::string countsFile;
  // Sample k of every copy is value * (1 + jitter * (k % 3 - 1)): a CV of about `jitter`.
  double jitter = 0.0;
  // Every value times this (a slower or faster machine for comparisons).
  double scale = 1.0;
  // Every copy this fraction worse: bandwidths times (1 - slowdown), latencies times
  // (1 + slowdown) (scale makes latencies lower, which is faster).
  double slowdown = 0.0;
  // Random sample noise: each sample times (1 + noiseCv x z), z standard normal (a CV of
  // noiseCv), and about one sample in kFakeOutlierEvery an outlier kFakeOutlierCvs x noiseCv worse
  // than that; drawn from a generator seeded with noiseSeed, so a run is repeatable.
  double noiseCv = 0.0;
  unsigned noiseSeed = 1;
  // The first measurement of each plan (by its first matrix's title) times this as well, later
  // ones not: a slowdown that passes, which confirmation runs do not see.
  double firstRunScale = 1.0;
  // Copies to or from host memory times this as well: 0.29 brings the host copies (190 GB/s
  // and up) to about 87% of a PCIe Gen5 x16 link, as on real H200s, for runs whose percents of
  // peak must be what hardware can show (at most 100%).
  double hostScale = 1.0;
  // Copies of one measurement into (or out of) the same GPU share it: each at its value divided
  // by how many there are (all-to-one and one-to-all cells stay below one GPU's links' peak).
  bool shareLinks = false;
  // When above 0, bandwidths rise with the buffer size S like S / (S + rampMiB), as real links
  // do (a sweep then has a 90% size to find).
  double rampMiB = 0.0;
  // What environment() returns: the first at the start of a run, the second (else the first) at
  // its end. Empty: a snapshot with no facts and NVML taken to have answered.
  std::vector<EnvironmentSnapshot> environments;
  // Not empty: makePlanExecutor fails with this message (the copies cannot be set up).
  std::string executorFailure;
  // Driver failures, reported through the code that reports them in a real run. Every
  // measurement's buffers come from the real BufferPool over an allocator that fails as
  // cuMemAlloc does when they need more than `gpuMemoryMiB` on one GPU (0: no limit), and as
  // cuMemHostRegister does when `pinFails`.
  std::uint64_t gpuMemoryMiB = 0;
  bool pinFails = false;
  std::set<std::pair<int, int>> peerFails;  // enabling peer access from .first to .second fails
  std::string launchFails;  // a CUDA runtime error name: every SM copy kernel launch fails so
  // NVBW_LOGICAL_GPUS as the environment gives it (nullopt: unset): the platform presents its one
  // GPU as that many logical GPUs, as the real one does (platform/logical_gpus.h), or refuses to
  // start for a value the real one refuses.
  std::optional<std::string> logicalGpus;
  // Confidential computing (set by FakePlatform from its topology): host copies block their
  // thread until their stream is idle, copy kernels read host memory wrong.
  bool confidential = false;
  std::vector<int> computeCapabilities;  // per GPU, for the launch failures (set by FakePlatform)
  std::vector<int> smCounts;             // per GPU, for the SM copies' sizes (set by FakePlatform)
};

// The host scale that keeps the fake's host copies (190 GB/s and up) at about 87% of a PCIe
// Gen5 x16 link, where its link facts give them that peak.
inline constexpr double kFakeH200HostScale = 0.29;
inline constexpr unsigned kFakeOutlierEvery = 30;
inline constexpr double kFakeOutlierCvs = 4.0;

double fakeCopyValue(const BufferSpec& src, const BufferSpec& dst, std::size_t copyIndex);

class FakePlatform final : public Platform {
 public:
  explicit FakePlatform(FakeTopology topology, FakeBehaviour behaviour = {});
  SystemFacts systemFacts() const override;
  const Topology& topology() const override { return topology_; }
  EnvironmentSnapshot environment() const override;
  std::unique_ptr<PlanExecutor> makePlanExecutor(const RunSettings& settings,
                                                 ExecHooks hooks) override;

 private:
  mutable std::size_t environmentCalls_ = 0;
  int logicalGpus_ = 0;
  FakeTopology topology_;
  FakeBehaviour behaviour_;
};

PlatformFactory fakePlatform(FakeTopology topology, FakeBehaviour behaviour = {});

// Link facts of H200s: PCIe Gen5 x16, HBM at 3201 MHz x 6016 bits and NVML's NVLinks. `nvlinks`:
// "direct" (18 NVLink 4 links between GPUs 0 and 1, as on nvidia-h200-x2; only for 2 GPUs),
// "nvswitch" (18 links per GPU to NVSwitches) or "none" (NVML missing: NVLink unknown).
FakeTopology withH200Links(FakeTopology topology, const std::string& nvlinks);

// A healthy H200 snapshot per GPU with every fact set (NVML present).
EnvironmentSnapshot h200Environment(int gpus);

// The fake's plan runner, for platforms of other tests (a faked multi-process world).
std::unique_ptr<PlanExecutor> makeFakeExecutor(const RunSettings& settings, ExecHooks hooks,
                                               FakeBehaviour behaviour);

// A whole run through runCommandLine with a fake platform.
struct AppRun {
  int exitCode = -1;
  std::string out;
  std::string err;
};
AppRun runApp(const std::vector<std::string>& args, const PlatformFactory& platform,
              StopRequest stop = {});

}  // namespace nvbw::test
