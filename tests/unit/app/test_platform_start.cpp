// What a run lets the machine prepare while its driver starts (app/platform.h): the
// forecast host buffers of the selected testcases, only where their pages cannot be placed
// otherwise than a buffer's own allocation would place them.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "app/options.h"
#include "app/platform.h"
#include "app/selection.h"
#include "plans/host_buffer_forecast.h"
#include "plans/registry.h"

namespace nvbw {
namespace test_platform_start {

std::vector<std::string> keysOf(const std::vector<TestcaseDef>& registry) {
  std::vector<std::string> keys;
  for (const TestcaseDef& def : registry) keys.push_back(def.key);
  return keys;
}

PlatformStart startFor(const std::vector<std::string>& args,
                       const std::optional<std::string>& numaNodes = std::string("0")) {
  const std::vector<TestcaseDef> registry = makeRegistry();
  const Options options = parseOptions(args);
  return platformStart(options, registry,
                       selectTestcases(options, keysOf(registry), indicesOf(registry)), numaNodes);
}

TEST(PlatformStart, OneNumaNodeTouchesTheSelectedTestcasesHostBuffers) {
  const std::vector<TestcaseDef> registry = makeRegistry();
  std::vector<const TestcaseDef*> every;
  for (const TestcaseDef& def : registry) every.push_back(&def);
  EXPECT_EQ(startFor({}).hostBuffers, oneGpuHostBuffers(every, 512u << 20));
  EXPECT_EQ(startFor({"-t", "0", "-b", "64"}).hostBuffers, std::vector<std::size_t>{64u << 20});
  EXPECT_TRUE(startFor({"-t", "device_local_copy"}).hostBuffers.empty());
}

TEST(PlatformStart, NothingIsTouchedWherePlacementCouldDifferOrTheSizesAreNotKnown) {
  EXPECT_TRUE(startFor({}, std::string("0-1")).hostBuffers.empty());
  EXPECT_TRUE(startFor({}, std::string("0,2")).hostBuffers.empty());
  EXPECT_TRUE(startFor({}, std::nullopt).hostBuffers.empty());
  EXPECT_TRUE(startFor({"-H"}).hostBuffers.empty());
  EXPECT_TRUE(startFor({"--sweep", "1:64"}).hostBuffers.empty());
}

TEST(PlatformStart, UnknownTestcasesAddNothing) {
  EXPECT_EQ(startFor({"-t", "no_such_testcase", "0", "-b", "8"}).hostBuffers,
            std::vector<std::size_t>{8u << 20});
}

}  // namespace test_platform_start
}  // namespace nvbw
