// The NVML wrapper against a fake libnvidia-ml (tests/fakenvml): two H200s joined by 18 NVLink 4
// links, with FAKE_NVML_MODE choosing which queries fail.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "facts/environment.h"
#include "facts/nvml.h"

namespace nvbw {
namespace test_nvml {

const std::string kGpuA = "GPU-aaaaaaaa-1111-2222-3333-444444444444";
const std::string kGpuB = "GPU-bbbbbbbb-1111-2222-3333-444444444444";
const std::string kBusA = "00000000:19:00.0";
const std::string kBusB = "00000000:3B:00.0";
const std::string kUnknownGpu = "GPU-00000000-0000-0000-0000-000000000000";

// Sets FAKE_NVML_MODE for one test and clears it afterwards.
class FakeMode {
 public:
  explicit FakeMode(const char* mode) { setenv("FAKE_NVML_MODE", mode, 1); }
  ~FakeMode() { unsetenv("FAKE_NVML_MODE"); }
  FakeMode(const FakeMode&) = delete;
  FakeMode& operator=(const FakeMode&) = delete;
};

Nvml openFake(const char* path = NVBW_FAKE_NVML) {
  std::optional<Nvml> nvml = Nvml::open(path);
  if (!nvml) throw std::runtime_error(std::string("cannot open ") + path + ": " + dlerror());
  return std::move(*nvml);
}

TEST(NvlinkVersion, MapsEveryNvmlVersionToMajorMinorTimesTen) {
  const std::vector<int> expected{0, 10, 20, 22, 30, 31, 40, 50, 60};
  for (unsigned v = 0; v < expected.size(); ++v)
    EXPECT_EQ(nvlinkVersionFromNvml(v), expected[v]) << "nvmlNvlinkVersion_t " << v;
  EXPECT_EQ(nvlinkVersionFromNvml(9), 0);
  EXPECT_EQ(nvlinkVersionFromNvml(0xFFFFFFFFu), 0);
}

TEST(ComputeMode, NamesNvmlModesAndNothingElse) {
  EXPECT_EQ(computeModeName(0), "Default");
  EXPECT_EQ(computeModeName(1), "Exclusive_Thread");
  EXPECT_EQ(computeModeName(2), "Prohibited");
  EXPECT_EQ(computeModeName(3), "Exclusive_Process");
  EXPECT_EQ(computeModeName(4), std::nullopt);
  EXPECT_EQ(computeModeName(-1), std::nullopt);
}

TEST(NvmlOpen, MissingLibraryGivesNullopt) {
  EXPECT_FALSE(Nvml::open("/nonexistent/libnvidia-ml.so.1").has_value());
}

TEST(NvmlOpen, FailingInitGivesNullopt) {
  const FakeMode mode("init-fails");
  EXPECT_FALSE(Nvml::open(NVBW_FAKE_NVML).has_value());
}

TEST(NvmlOpen, EverySessionIsShutDownOnce) {
  void* fake = dlopen(NVBW_FAKE_NVML, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(fake, nullptr) << dlerror();
  const auto sessions = reinterpret_cast<int (*)()>(dlsym(fake, "fakeNvmlOpenSessions"));
  ASSERT_NE(sessions, nullptr);
  {
    Nvml first = openFake();
    EXPECT_EQ(sessions(), 1);
    Nvml moved(std::move(first));  // the moved-from one must not shut down again
    EXPECT_EQ(sessions(), 1);
    EXPECT_EQ(moved.driverVersion(), "570.124.06");
  }
  EXPECT_EQ(sessions(), 0);
  dlclose(fake);
}

TEST(NvmlLinks, EighteenNvlink4LinksToThePeer) {
  const Nvml nvml = openFake();
  for (const auto& [self, peerBus] : {std::pair{kGpuA, kBusB}, std::pair{kGpuB, kBusA}}) {
    const auto links = nvml.nvlinks(self);
    ASSERT_TRUE(links.has_value()) << self;
    ASSERT_EQ(links->size(), 18u) << self;
    for (const NvlinkLink& link : *links) {
      EXPECT_EQ(link.version, 40);
      ASSERT_TRUE(link.gbPerSecond.has_value());
      EXPECT_DOUBLE_EQ(*link.gbPerSecond, 26.562);
      EXPECT_EQ(link.remote, NvlinkLink::Remote::Gpu);
      EXPECT_EQ(link.remoteBusId, peerBus);
    }
  }
}

TEST(NvmlLinks, InactiveLinksAreLeftOut) {
  const FakeMode mode("link-down");
  const Nvml nvml = openFake();
  EXPECT_EQ(nvml.nvlinks(kGpuA)->size(), 17u);
  EXPECT_EQ(nvml.nvlinks(kGpuB)->size(), 18u);
}

// Links past the driver's own limit answer INVALID_ARGUMENT: the scan ends there, and the speed
// comes from the field common to all links when the per-link one is unknown.
TEST(NvmlLinks, OlderDriverStopsAtItsLastLinkAndFallsBackToTheCommonSpeed) {
  const FakeMode mode("old-driver");
  const Nvml nvml = openFake();
  const auto links = nvml.nvlinks(kGpuA);
  ASSERT_TRUE(links.has_value());
  ASSERT_EQ(links->size(), 18u);
  EXPECT_DOUBLE_EQ(links->front().gbPerSecond.value_or(0), 26.562);
}

// NOT_SUPPORTED is NVML saying the GPU has no NVLink: an empty list, not "unknown".
TEST(NvmlLinks, NotSupportedMeansNoNvlink) {
  const FakeMode mode("no-nvlink");
  const Nvml nvml = openFake();
  const auto links = nvml.nvlinks(kGpuA);
  ASSERT_TRUE(links.has_value());
  EXPECT_TRUE(links->empty());
}

TEST(NvmlLinks, FailingQueryOrUnknownGpuIsUnknown) {
  const Nvml nvml = openFake();
  EXPECT_EQ(nvml.nvlinks(kUnknownGpu), std::nullopt);
  const FakeMode mode("nvlink-error");
  EXPECT_EQ(nvml.nvlinks(kGpuA), std::nullopt);
}

TEST(NvmlDevice, BusIdAndC2c) {
  const Nvml nvml = openFake();
  EXPECT_EQ(nvml.busId(kGpuA), kBusA);
  EXPECT_EQ(nvml.busId(kGpuB), kBusB);
  EXPECT_EQ(nvml.busId(kUnknownGpu), "");
  EXPECT_EQ(nvml.c2cEnabled(kGpuA), std::nullopt);  // NOT_SUPPORTED on an HGX H200
  const FakeMode mode("c2c");
  EXPECT_EQ(nvml.c2cEnabled(kGpuA), true);
  EXPECT_EQ(nvml.c2cEnabled(kUnknownGpu), std::nullopt);
}

TEST(NvmlEnvironment, EveryFactOfAHealthyGpu) {
  const Nvml nvml = openFake();
  const GpuEnvironment env = nvml.environment(kGpuA);
  EXPECT_EQ(env.smClockMHz, 1980u);
  EXPECT_EQ(env.smClockMaxMHz, 1980u);
  EXPECT_EQ(env.memoryClockMHz, 3201u);
  EXPECT_EQ(env.memoryClockMaxMHz, 3201u);
  EXPECT_EQ(env.clocksLocked, false);
  EXPECT_EQ(env.powerLimitW, 700.0);
  EXPECT_DOUBLE_EQ(env.powerDrawW.value_or(0), 118.765);
  EXPECT_EQ(env.temperatureC, 34);  // from nvmlDeviceGetTemperatureV
  EXPECT_EQ(env.eccEnabled, true);
  EXPECT_EQ(env.persistenceMode, true);
  EXPECT_EQ(env.migEnabled, false);  // pending enable does not count
  EXPECT_EQ(env.computeMode, "Default");
  EXPECT_EQ(env.throttleNs, 1750000u);
  EXPECT_EQ(env.numaNode, std::nullopt);  // a sysfs fact, not NVML's
}

TEST(NvmlEnvironment, ApplicationClocksAwayFromDefaultAreLocked) {
  const Nvml nvml = openFake();
  const GpuEnvironment env = nvml.environment(kGpuB);
  EXPECT_EQ(env.clocksLocked, true);
  EXPECT_EQ(env.computeMode, "Exclusive_Process");
}

TEST(NvmlEnvironment, TemperatureFallsBackToTheOlderCall) {
  const FakeMode mode("old-driver");
  const Nvml nvml = openFake();
  const GpuEnvironment env = nvml.environment(kGpuA);
  EXPECT_EQ(env.temperatureC, 35);
}

TEST(NvmlEnvironment, FailingQueriesLeaveTheirFactsUnknown) {
  const FakeMode mode("env-fail");
  const Nvml nvml = openFake();
  const GpuEnvironment env = nvml.environment(kGpuA);
  EXPECT_EQ(env.smClockMHz, 1980u);
  EXPECT_EQ(env.memoryClockMHz, std::nullopt);
  EXPECT_EQ(env.memoryClockMaxMHz, std::nullopt);
  EXPECT_EQ(env.clocksLocked, std::nullopt);
  EXPECT_EQ(env.powerLimitW, 700.0);
  EXPECT_EQ(env.powerDrawW, std::nullopt);
  EXPECT_EQ(env.temperatureC, std::nullopt);
  EXPECT_EQ(env.eccEnabled, std::nullopt);
  EXPECT_EQ(env.persistenceMode, true);
  EXPECT_EQ(env.migEnabled, std::nullopt);
  EXPECT_EQ(env.computeMode, std::nullopt);
  EXPECT_EQ(env.throttleNs, std::nullopt);  // power alone would understate it
}

TEST(NvmlEnvironment, UnknownGpuLeavesEveryFactUnknown) {
  const Nvml nvml = openFake();
  const GpuEnvironment env = nvml.environment(kUnknownGpu);
  EXPECT_EQ(env.smClockMHz, std::nullopt);
  EXPECT_EQ(env.persistenceMode, std::nullopt);
}

// An NVML with nothing but init, shutdown and the handle look-up: every fact is unknown and
// nothing crashes.
TEST(NvmlMinimal, MissingFunctionsMakeTheirFactsUnknown) {
  const Nvml nvml = openFake(NVBW_FAKE_NVML_MINIMAL);
  EXPECT_EQ(nvml.driverVersion(), "");
  EXPECT_EQ(nvml.confidentialComputing(), std::nullopt);
  EXPECT_EQ(nvml.nvlinks(kGpuA), std::nullopt);
  EXPECT_EQ(nvml.c2cEnabled(kGpuA), std::nullopt);
  EXPECT_EQ(nvml.busId(kGpuA), "");
  const GpuEnvironment env = nvml.environment(kGpuA);
  EXPECT_EQ(env.smClockMHz, std::nullopt);
  EXPECT_EQ(env.clocksLocked, std::nullopt);
  EXPECT_EQ(env.powerDrawW, std::nullopt);
  EXPECT_EQ(env.temperatureC, std::nullopt);
  EXPECT_EQ(env.migEnabled, std::nullopt);
  EXPECT_EQ(env.computeMode, std::nullopt);
  EXPECT_EQ(env.throttleNs, std::nullopt);
}

}  // namespace test_nvml
}  // namespace nvbw
