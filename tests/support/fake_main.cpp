// nvbandwidth on the fake platform: the real command line, application core and signal
// handling, with no GPU. NVBW_FAKE_GPUS (default 2) sets the GPU count and NVBW_FAKE_SAMPLE_MS
// (default 0) how long each sample takes, so CLI tests can interrupt a run that is under way.
// NVBW_FAKE_LINKS ("direct", "nvswitch" or "none") gives the GPUs H200 link facts and a healthy
// environment snapshot ("none": NVML missing), so reports carry peaks. NVBW_FAKE_SCALE (percent,
// default 100) and NVBW_FAKE_RAMP_MIB (values rise with the buffer size) shape the values.
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "fake_platform.h"
#include "app/application.h"
#include "platform/signals.h"
#include "fake_topology.h"

namespace {

int envInt(const char* name, int fallback) {
  const char* text = std::getenv(name);
  return text ? std::atoi(text) : fallback;
}

}  // namespace

int main(int argc, char** argv) {
  nvbw::test::FakeBehaviour behaviour;
  behaviour.perSample = std::chrono::milliseconds(envInt("NVBW_FAKE_SAMPLE_MS", 0));
  // Percent of the usual values (NVBW_FAKE_SCALE=80: a machine 20% slower) and a size ramp.
  behaviour.scale = envInt("NVBW_FAKE_SCALE", 100) / 100.0;
  behaviour.rampMiB = envInt("NVBW_FAKE_RAMP_MIB", 0);
  const int gpus = envInt("NVBW_FAKE_GPUS", 2);
  nvbw::FakeTopology topology(gpus);
  if (const char* links = std::getenv("NVBW_FAKE_LINKS")) {
    topology = nvbw::test::withH200Links(topology, links);
    nvbw::EnvironmentSnapshot environment = nvbw::test::h200Environment(gpus);
    if (std::string(links) == "none") environment.nvmlProblem = "libnvidia-ml.so.1 not found";
    behaviour.environments = {environment};
  }
  const nvbw::PlatformFactory platform = nvbw::test::fakePlatform(topology, behaviour);
  nvbw::SignalStop signals;
  nvbw::AppContext context{platform, std::cout, std::cerr,
                           [&signals] { return signals.pending(); }, {}, nullptr,
                           nvbw::RegistryScope::SingleNode};
  return nvbw::runCommandLine(std::vector<std::string>(argv + 1, argv + argc), context);
}
