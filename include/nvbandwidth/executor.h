// Runs a Plan on the GPUs and turns timings into results.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "nvbandwidth/gpu.h"
#include "nvbandwidth/output.h"
#include "nvbandwidth/plan.h"
#include "nvbandwidth/results.h"

namespace nvbw {

struct ExecSettings {
  unsigned samples = 3;
  std::uint64_t loopCount = 16;
  Statistic statistic = Statistic::Median;
  bool verify = true;
  bool cpuAffinity = true;
  unsigned spinTimeoutMs = 10000;
  // Test seam: overwrite part of copy 0's destination after each sample, before verification.
  bool corruptForTesting = false;
};

// Raised when data verification finds a mismatch: "<copy>: N of M words differ, first at byte X".
class VerificationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Raised when the spin kernel released itself after its timeout: the measurement included the
// time to enqueue and is not trustworthy.
class SpinTimeoutError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Something that can run a plan. The runner depends on this interface so its logic (waivers,
// errors, ordering) is testable without a GPU.
class PlanRunner {
 public:
  virtual ~PlanRunner() = default;
  // Sample events go to `sampleSink` (may be empty). Throws on CUDA errors, verification failure
  // and spin timeout.
  virtual std::vector<MatrixResult>
  run(const Plan& plan, const std::function<void(const SampleEvent&)>& sampleSink) = 0;
};

std::unique_ptr<PlanRunner> makeGpuPlanRunner(const Gpu& gpu, ExecSettings settings,
                                              std::function<void(const std::string&)> note);

}  // namespace nvbw
