#include <gtest/gtest.h>

#include "core/text.h"

namespace nvbw {
namespace test_text {

TEST(Text, StartsAndEndsWith) {
  EXPECT_TRUE(startsWith("--pair", "--"));
  EXPECT_TRUE(startsWith("x", ""));
  EXPECT_FALSE(startsWith("-", "--"));
  EXPECT_TRUE(endsWith("run.json", ".json"));
  EXPECT_FALSE(endsWith("json", ".json"));
}

TEST(Text, ContainsFindsAPartAnywhere) {
  EXPECT_TRUE(contains("host_device_latency_sm", "_latency_"));
  EXPECT_TRUE(contains("x", ""));
  EXPECT_FALSE(contains("latency", "_latency_"));
}

TEST(Text, AllDigitsNeedsOneDigitAndNothingElse) {
  EXPECT_TRUE(allDigits("0123456789"));
  EXPECT_FALSE(allDigits(""));
  EXPECT_FALSE(allDigits("+1"));
  EXPECT_FALSE(allDigits("1 "));
}

TEST(Text, TrimmedDropsSpaceAtBothEndsOnly) {
  EXPECT_EQ(trimmed(" \t0-3, 8\r\n"), "0-3, 8");
  EXPECT_EQ(trimmed(" \n"), "");
}

TEST(Text, JoinedSeparatesParts) {
  EXPECT_EQ(joined({"a", "b", "c"}, ", "), "a, b, c");
  EXPECT_EQ(joined({"a"}, " + "), "a");
  EXPECT_EQ(joined({}, ", "), "");
}

}  // namespace test_text
}  // namespace nvbw
