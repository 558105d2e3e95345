// Shared set-up of the GPU tests: one driver and one Gpu for the whole binary.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>

#include "app/selection.h"
#include "app/testcase_loop.h"
#include "engine/executor.h"
#include "engine/fault_injection.h"
#include "plans/registry.h"
#include "platform/driver.h"
#include "platform/gpu.h"
#include "report/output.h"

namespace nvbw::test {

// Created by main() before the tests run; the tests only run when it succeeded.
struct GpuEnvironment {
  std::optional<DriverLibrary> driver;
  std::unique_ptr<Gpu> gpu;
  static GpuEnvironment& instance();
};

inline const Gpu& gpu() { return *GpuEnvironment::instance().gpu; }

// Settings for fast test runs: few samples and loops.
inline RunSettings quickSettings() {
  RunSettings s;
  s.samples = 2;
  s.loopCount = 4;
  return s;
}

// Records what the runner reports.
class RecordingOutput final : public Output {
 public:
  void header(const RunHeader&) override {}
  void testcaseStarted(const std::string& key) override { started.push_back(key); }
  void testcaseFinished(const TestcaseResult& r) override { results.push_back(r); }
  void globalError(const std::string& m, const std::string&) override { errors.push_back(m); }
  void finish(const RunEnd&) override {}
  std::vector<std::string> started;
  std::vector<TestcaseResult> results;
  std::vector<std::string> errors;
};

// Overwrites 4 KiB of copy 0's destination after every sample from the `from`-th one this
// injector sees on, before verification, from `at` times the checked bytes (the middle by
// default; clamped so the 4 KiB end where the region does): verification must catch it.
class CorruptFirstCopy final : public FaultInjector {
 public:
  explicit CorruptFirstCopy(double at = 0.5, unsigned from = 0) : at_(at), from_(from) {}
  void beforeVerification(const std::vector<CopiedBuffer>& copies) override;
  // The byte the last corruption began at.
  std::size_t lastOffset() const { return lastOffset_; }

 private:
  double at_;
  unsigned from_;
  unsigned seen_ = 0;
  std::size_t lastOffset_ = 0;
};

// A GPU plan runner whose copies are corrupted by CorruptFirstCopy.
std::unique_ptr<PlanExecutor> makeCorruptingExecutor(RunSettings settings = quickSettings());
std::unique_ptr<PlanExecutor> makeCorruptingExecutor(std::shared_ptr<CorruptFirstCopy> faults,
                                                     RunSettings settings = quickSettings());

// Runs `cmd` and returns its stdout; *status gets the exit status.
std::string runCommand(const std::string& cmd, int* status);

// Selections for `keys`, looked up in `registry`.
std::vector<Selection> selectKeys(const std::vector<TestcaseDef>& registry,
                                  const std::vector<std::string>& keys);

// Runs the testcases `keys` of the real registry at `bufferMiB` with `runner`.
LoopSummary runKeys(const std::vector<std::string>& keys, std::size_t bufferMiB,
                    PlanExecutor& runner, RecordingOutput& out);

// Runs `keys` at `bufferMiB` and expects each to pass with a positive value in every cell of
// every matrix and `samples` samples per cell. Returns the results for further checks.
std::vector<TestcaseResult> expectAllPassed(const std::vector<std::string>& keys,
                                            std::size_t bufferMiB, unsigned samples = 2,
                                            unsigned long long loops = 4);

}  // namespace nvbw::test
