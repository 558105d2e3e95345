// Entry point of the GPU tests: exit 77 (CTest "skipped") with the reason when no GPU is usable.
#include <cstdio>
#include <iostream>
#include <sys/wait.h>

#include "gpu_environment.h"

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
