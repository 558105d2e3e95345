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

// What the metrics read of a report's "started_at".
TEST(UtcTime, ParsesIso8601WithAZone) {
  EXPECT_EQ(nvbw::parseUtcTimestamp("1970-01-01T00:00:00Z"), 0.0);
  EXPECT_EQ(nvbw::parseUtcTimestamp("2026-12-01T12:34:56Z"), 1796128496.0);
  EXPECT_EQ(nvbw::parseUtcTimestamp("2026-12-01T12:34:56.25Z"), 1796128496.25);
  EXPECT_EQ(nvbw::parseUtcTimestamp("2026-12-01T14:34:56+02:00"), 1796128496.0);
  EXPECT_EQ(nvbw::parseUtcTimestamp("2026-12-01T07:04:56-0530"), 1796128496.0);
  EXPECT_EQ(nvbw::parseUtcTimestamp("2028-02-29T00:00:00Z"), 1835395200.0);
  EXPECT_EQ(nvbw::parseUtcTimestamp("1969-12-31T23:59:59Z"), -1.0);
  for (const char* bad :
       {"", "2026-12-01T12:34:56", "2026-12-01", "2027-02-29T00:00:00Z", "2026-13-01T00:00:00Z",
        "2026-12-01T24:00:00Z", "2026-12-01T12:34:56Zjunk", "2026-12-01T12:34:56.Z",
        "26-12-01T12:34:56Z", "2026-12-01T12:34:56+2"})
    EXPECT_EQ(nvbw::parseUtcTimestamp(bad), std::nullopt) << bad;
}

}  // namespace test_utc_time
