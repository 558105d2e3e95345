// The report's "started_at": ISO 8601 in UTC to the second, whatever the local time zone.
#include <gtest/gtest.h>

#include <chrono>
#include <regex>

#include "core/utc_time.h"

namespace test_utc_time {

TEST(UtcTime, FormatsSecondsSinceTheEpochInUtc) {
  using std::chrono::seconds;
  using std::chrono::system_clock;
  EXPECT_EQ(nvbw::isoUtcSeconds(system_clock::time_point(seconds(0))), "1970-01-01T00:00:00Z");
  // 2026-12-01 12:34:56 UTC, and half a second later: seconds are cut, never rounded up.
  const system_clock::time_point when(seconds(1796128496));
  EXPECT_EQ(nvbw::isoUtcSeconds(when), "2026-12-01T12:34:56Z");
  EXPECT_EQ(nvbw::isoUtcSeconds(when + std::chrono::milliseconds(999)), "2026-12-01T12:34:56Z");
}

TEST(UtcTime, NowMatchesTheSchemaPattern) {
  const std::regex pattern("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$");
  EXPECT_TRUE(std::regex_match(nvbw::isoUtcSeconds(std::chrono::system_clock::now()), pattern));
}

}  // namespace test_utc_time
