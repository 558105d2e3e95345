// The host buffers forecast before the machine is opened (plans/host_buffer_forecast.h): what
// one GPU's plans hold, each size as often as one measurement holds it at once, and never more
// than a machine of more GPUs holds too.
#include <gtest/gtest.h>

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "fake_topology.h"
#include "plans/host_buffer_forecast.h"
#include "plans/registry.h"

namespace nvbw {
namespace test_host_buffer_forecast {

constexpr std::size_t kMiB = std::size_t{1} << 20;
constexpr std::size_t kBuffer = 512 * kMiB;

std::vector<const TestcaseDef*> named(const std::vector<TestcaseDef>& registry,
                                      const std::vector<std::string>& keys) {
  std::vector<const TestcaseDef*> found;
  for (const std::string& key : keys)
    for (const TestcaseDef& def : registry)
      if (def.key == key) found.push_back(&def);
  EXPECT_EQ(found.size(), keys.size());
  return found;
}

std::vector<const TestcaseDef*> all(const std::vector<TestcaseDef>& registry) {
  std::vector<const TestcaseDef*> every;
  for (const TestcaseDef& def : registry) every.push_back(&def);
  return every;
}

using Sizes = std::vector<std::size_t>;

TEST(HostBufferForecast, AHostCopyHoldsOneBufferOfTheBufferSize) {
  const auto registry = makeRegistry();
  EXPECT_EQ(oneGpuHostBuffers(named(registry, {"host_to_device_memcpy_ce"}), kBuffer),
            Sizes{kBuffer});
  EXPECT_EQ(oneGpuHostBuffers(named(registry, {"device_to_host_memcpy_sm"}), 8 * kMiB),
            Sizes{8 * kMiB});
}

TEST(HostBufferForecast, TheBidirectionalCopyEngineTestcaseAddsItsTwiceAsLargeInterference) {
  const auto registry = makeRegistry();
  EXPECT_EQ(oneGpuHostBuffers(named(registry, {"host_to_device_bidirectional_memcpy_ce"}), kBuffer),
            (Sizes{kBuffer, 2 * kBuffer}));
}

TEST(HostBufferForecast, ASizeHeldByAnEarlierTestcaseIsNotCountedAgain) {
  const auto registry = makeRegistry();
  const auto keys = named(registry, {"host_to_device_memcpy_ce", "device_to_host_memcpy_ce",
                                     "host_to_device_bidirectional_memcpy_ce"});
  EXPECT_EQ(oneGpuHostBuffers(keys, kBuffer), (Sizes{kBuffer, 2 * kBuffer}));
}

TEST(HostBufferForecast, TestcasesWithoutHostMemoryOrWaivedOnOneGpuAddNothing) {
  const auto registry = makeRegistry();
  EXPECT_TRUE(
      oneGpuHostBuffers(named(registry, {"device_local_copy", "device_to_device_memcpy_read_ce"}),
                        kBuffer)
          .empty());
  EXPECT_TRUE(oneGpuHostBuffers({}, kBuffer).empty());
}

// Host buffers of `plan`'s measurements: for each size, the most that one measurement holds.
std::map<std::size_t, std::size_t> mostHeldAtOnce(const Plan& plan) {
  std::map<std::size_t, std::size_t> most;
  for (const Measurement& m : plan.measurements) {
    std::map<std::size_t, std::size_t> held;
    for (const CopySpec& c : m.copies)
      for (const BufferSpec* b : {&c.src, &c.dst})
        if (b->kind == MemoryKind::Host) ++held[b->bytes];
    for (const auto& [bytes, count] : held) most[bytes] = std::max(most[bytes], count);
  }
  return most;
}

// Nothing reserved is wasted on a bigger machine: every size the forecast names, as often as it
// names it, is held at once by some measurement of a testcase the run selects, for 1 to 8 GPUs.
TEST(HostBufferForecast, EveryForecastBufferIsHeldOnMachinesOfOneToEightGpus) {
  const auto registry = makeRegistry();
  const Sizes forecast = oneGpuHostBuffers(all(registry), kBuffer);
  ASSERT_FALSE(forecast.empty());
  std::map<std::size_t, std::size_t> wanted;
  for (std::size_t bytes : forecast) ++wanted[bytes];
  for (int gpus : {1, 2, 8}) {
    const FakeTopology topology(gpus);
    std::map<std::size_t, std::size_t> held;
    for (const TestcaseDef& def : registry) {
      if (waiveReasonFor(def, topology)) continue;
      for (const auto& [bytes, count] : mostHeldAtOnce(def.plan({topology, kBuffer})))
        held[bytes] = std::max(held[bytes], count);
    }
    for (const auto& [bytes, count] : wanted)
      EXPECT_LE(count, held[bytes]) << gpus << " GPUs, " << bytes << " bytes";
  }
}

// The forecast assumes no GPU model: for every testcase, what one GPU of any compute capability
// and SM count holds in host memory is what the forecast names (nothing where the testcase is
// waived on that GPU).
TEST(HostBufferForecast, TheSameOnEveryGpuModel) {
  const auto registry = makeRegistry();
  for (const TestcaseDef& def : registry) {
    std::map<std::size_t, std::size_t> forecast;
    for (std::size_t bytes : oneGpuHostBuffers({&def}, kBuffer)) ++forecast[bytes];
    for (const int capability : {60, 70, 75, 80, 86, 89, 90, 100, 103, 120})
      for (const int sms : {1, 16, 46, 78, 108, 114, 132, 148, 170}) {
        SCOPED_TRACE(def.key + " on compute capability " + std::to_string(capability) + ", " +
                     std::to_string(sms) + " SMs");
        FakeTopology gpu(1, sms);
        gpu.setComputeCapability(0, capability);
        if (waiveReasonFor(def, gpu)) {
          EXPECT_TRUE(forecast.empty());
          continue;
        }
        EXPECT_EQ(mostHeldAtOnce(def.plan({gpu, kBuffer})), forecast);
      }
  }
}

}  // namespace test_host_buffer_forecast
}  // namespace nvbw
