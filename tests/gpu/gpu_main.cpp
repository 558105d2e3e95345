// Entry point of the GPU tests: exit 77 (CTest "skipped") with the reason when this machine has
// no driver or no GPU; any other start-up failure (a stub library, a broken driver) fails.
#include <sys/wait.h>

#include <cstdio>
#include <cstring>
#include <iostream>

#include "gpu_environment.h"
#include "plans/registry.h"
#include "platform/cuda_raii.h"
#include "platform/driver_topology.h"

namespace nvbw::test {

GpuEnvironment& GpuEnvironment::instance() {
  static GpuEnvironment env;
  return env;
}

void CorruptFirstCopy::beforeVerification(const std::vector<CopiedBuffer>& copies) {
  if (seen_++ < from_) return;
  const CopiedBuffer& c = copies.at(0);
  const std::size_t len = std::min<std::size_t>(4096, c.checkedBytes);
  const auto wanted = static_cast<std::size_t>(at_ * static_cast<double>(c.checkedBytes));
  const std::size_t offset = std::min(wanted, c.checkedBytes - len) / 4 * 4;
  lastOffset_ = offset;
  if (c.hostDestination) {
    std::memset(static_cast<char*>(c.hostDestination) + offset, 0x5a, len);
    return;
  }
  ContextScope scope(gpu(), c.copy->dst.device);
  NVBW_CU(gpu().api(), cuMemsetD8, c.destination + offset, 0x5a, len);
}

std::unique_ptr<PlanExecutor> makeCorruptingExecutor(RunSettings settings) {
  return makeCorruptingExecutor(std::make_shared<CorruptFirstCopy>(), settings);
}

std::unique_ptr<PlanExecutor> makeCorruptingExecutor(std::shared_ptr<CorruptFirstCopy> faults,
                                                     RunSettings settings) {
  ExecHooks hooks;
  hooks.faults = std::move(faults);
  return makeGpuPlanExecutor(gpu(), settings, hooks);
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

LoopSummary runKeys(const std::vector<std::string>& keys, std::size_t bufferMiB,
                    PlanExecutor& runner, RecordingOutput& out) {
  const auto reg = makeRegistry();
  const DriverTopology topo(gpu());
  const std::vector<Selection> selection = selectKeys(reg, keys);
  return runTestcaseLoop({reg, selection, topo, bufferMiB << 20}, runner, out);
}

std::vector<TestcaseResult> expectAllPassed(const std::vector<std::string>& keys,
                                            std::size_t bufferMiB, unsigned samples,
                                            unsigned long long loops) {
  RunSettings s = quickSettings();
  s.samples = samples;
  s.loopCount = loops;
  auto runner = makeGpuPlanExecutor(gpu(), s);
  RecordingOutput out;
  const LoopSummary summary = runKeys(keys, bufferMiB, *runner, out);
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
        EXPECT_GT(cell->value(), 0.0);
        EXPECT_EQ(cell->samples().size(), samples);
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
  } catch (const nvbw::DriverUnavailable& e) {
    if (e.reason() == nvbw::DriverUnavailable::Reason::Unusable) {
      std::cout << "FAILED: the driver is present but unusable: " << e.what() << std::endl;
      return 1;
    }
    std::cout << "SKIPPED: the GPU tests need an NVIDIA GPU and driver: " << e.what() << std::endl;
    return 77;
  } catch (const std::exception& e) {
    std::cout << "FAILED: cannot open the GPUs: " << e.what() << std::endl;
    return 1;
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
