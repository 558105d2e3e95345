// Entry point of the GPU tests: exit 77 (CTest "skipped") with the reason when no GPU is usable.
#include <sys/wait.h>

#include <cstdio>
#include <iostream>

#include "gpu_environment.h"
#include "nvbandwidth/runner.h"

namespace nvbw::test {

GpuEnvironment& GpuEnvironment::instance() {
  static GpuEnvironment env;
  return env;
}

std::string runCommand(const std::string& cmd, int* status) {
  std::string out;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) {
    *status = -1;
    return out;
  }
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
  int rc = pclose(pipe);
  *status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  return out;
}

std::vector<Selection> selectKeys(const std::vector<TestcaseDef>& registry,
                                  const std::vector<std::string>& keys) {
  std::vector<Selection> out;
  for (const std::string& k : keys)
    for (std::size_t i = 0; i < registry.size(); ++i)
      if (registry[i].key == k) out.push_back({i, k, ""});
  return out;
}

std::vector<TestcaseResult> expectAllPassed(const std::vector<std::string>& keys,
                                            std::size_t bufferMiB, unsigned samples,
                                            unsigned long long loops) {
  const auto reg = makeRegistry();
  DriverTopology topo(gpu());
  ExecSettings s = quickSettings();
  s.samples = samples;
  s.loopCount = loops;
  auto runner = makeGpuPlanRunner(gpu(), s, nullptr);
  RecordingOutput out;
  RunSummary summary =
      runTestcases(reg, selectKeys(reg, keys), topo, bufferMiB << 20, *runner, out);
  EXPECT_EQ(summary.errors, 0);
  EXPECT_EQ(out.results.size(), keys.size());
  for (const TestcaseResult& r : out.results) {
    SCOPED_TRACE(r.name + " at " + std::to_string(bufferMiB) + " MiB");
    EXPECT_EQ(r.status, Status::Passed) << r.message;
    for (const MatrixResult& m : r.matrices)
      for (std::size_t c = 0; c < m.spec.cols; ++c) {
        const auto& cell = m.at(0, c);
        if (!cell) {
          ADD_FAILURE() << m.spec.key << " column " << c << " is empty";
          continue;
        }
        EXPECT_GT(cell->value, 0.0);
        EXPECT_EQ(cell->samples.size(), samples);
      }
  }
  return out.results;
}

}  // namespace nvbw::test

int main(int argc, char** argv) {
  auto& env = nvbw::test::GpuEnvironment::instance();
  try {
    env.driver.emplace(nvbw::DriverLibrary::load());
    env.gpu = std::make_unique<nvbw::Gpu>(env.driver->api());
  } catch (const std::exception& e) {
    std::cout << "SKIPPED: the GPU tests need an NVIDIA GPU and driver: " << e.what() << std::endl;
    return 77;
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
