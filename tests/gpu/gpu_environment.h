// Shared set-up of the GPU tests: one driver and one Gpu for the whole binary.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>

#include "nvbandwidth/driver.h"
#include "nvbandwidth/executor.h"
#include "nvbandwidth/gpu.h"
#include "nvbandwidth/output.h"
#include "nvbandwidth/registry.h"
#include "nvbandwidth/selection.h"

namespace nvbw::test {

// Created by main() before the tests run; the tests only run when it succeeded.
struct GpuEnvironment {
  std::optional<DriverLibrary> driver;
  std::unique_ptr<Gpu> gpu;
  static GpuEnvironment& instance();
};

inline const Gpu& gpu() { return *GpuEnvironment::instance().gpu; }

// Settings for fast test runs: few samples and loops.
inline ExecSettings quickSettings() {
  ExecSettings s;
  s.samples = 2;
  s.loopCount = 4;
  return s;
}

// Records what the runner reports.
class RecordingOutput final : public Output {
 public:
  void header(const SystemInfo&, const std::vector<std::string>&) override {}
  void testcaseStarted(const std::string& key) override { started.push_back(key); }
  void sample(const SampleEvent& e) override { samples.push_back(e); }
  void testcaseFinished(const TestcaseResult& r) override { results.push_back(r); }
  void globalError(const std::string& m) override { errors.push_back(m); }
  void finish() override {}
  std::vector<std::string> started;
  std::vector<SampleEvent> samples;
  std::vector<TestcaseResult> results;
  std::vector<std::string> errors;
};

// Runs `cmd` and returns its stdout; *status gets the exit status.
std::string runCommand(const std::string& cmd, int* status);

// Selections for `keys`, looked up in `registry`.
std::vector<Selection> selectKeys(const std::vector<TestcaseDef>& registry,
                                  const std::vector<std::string>& keys);

// Runs `keys` at `bufferMiB` and expects each to pass with a positive value in every cell of
// every matrix and `samples` samples per cell. Returns the results for further checks.
std::vector<TestcaseResult> expectAllPassed(const std::vector<std::string>& keys,
                                            std::size_t bufferMiB, unsigned samples = 2,
                                            unsigned long long loops = 4);

}  // namespace nvbw::test
