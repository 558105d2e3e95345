// The progress line: fraction done, the estimate of the time left, the line's text, and the
// display rewriting and erasing it in place.
#include <gtest/gtest.h>

#include <sstream>

#include "report/progress_display.h"

namespace nvbw {
namespace test_progress_display {

ProgressEvent event(std::size_t index, std::size_t total, std::size_t measurement = 0,
                    std::size_t measurements = 0, unsigned sample = 0, unsigned samples = 0) {
  ProgressEvent e;
  e.testcase = "host_to_device_memcpy_ce";
  e.testcaseIndex = index;
  e.testcases = total;
  e.measurement = measurement;
  e.measurements = measurements;
  e.sample = sample;
  e.samples = samples;
  return e;
}

TEST(RunFraction, FinishedTestcasesPlusTheSamplesOfTheCurrentOne) {
  EXPECT_DOUBLE_EQ(runFraction(event(0, 4)), 0.0);
  EXPECT_DOUBLE_EQ(runFraction(event(2, 4)), 0.5);
  // Testcase 2 of 4, measurement 1 of 2 with its last of 3 samples done: (2 + 1) / 4.
  EXPECT_DOUBLE_EQ(runFraction(event(2, 4, 1, 2, 2, 3)), 0.75);
  EXPECT_DOUBLE_EQ(runFraction(event(0, 0)), 0.0);
}

TEST(RemainingSeconds, AtThePaceSoFar) {
  EXPECT_FALSE(remainingSeconds(10.0, 0.0));
  EXPECT_FALSE(remainingSeconds(0.0, 0.5));
  EXPECT_DOUBLE_EQ(*remainingSeconds(10.0, 0.25), 30.0);
  EXPECT_DOUBLE_EQ(*remainingSeconds(10.0, 1.0), 0.0);
}

TEST(FormatDuration, MinutesSecondsAndHours) {
  EXPECT_EQ(formatDuration(0), "0:00");
  EXPECT_EQ(formatDuration(7.4), "0:07");
  EXPECT_EQ(formatDuration(754), "12:34");
  EXPECT_EQ(formatDuration(3723), "1:02:03");
  EXPECT_EQ(formatDuration(-3), "0:00");
}

TEST(ProgressLine, WhichOfHowManyElapsedAndLeft) {
  EXPECT_EQ(progressLine(event(0, 42), 0.0), "[1/42] host_to_device_memcpy_ce  0:00 elapsed");
  EXPECT_EQ(progressLine(event(21, 42), 30.0),
            "[22/42] host_to_device_memcpy_ce  0:30 elapsed, about 0:30 left");
}

TEST(ProgressDisplay, RewritesInPlaceAndErasesCompletely) {
  std::ostringstream err;
  auto now = std::chrono::steady_clock::time_point{};
  ProgressDisplay display(err, [&now] { return now; });
  display.show(event(0, 2));
  now += std::chrono::seconds(5);
  ProgressEvent shorter = event(1, 2);
  shorter.testcase = "x";
  display.show(shorter);
  const std::string first = "[1/2] host_to_device_memcpy_ce  0:00 elapsed";
  const std::string second = "[2/2] x  0:05 elapsed, about 0:05 left";
  EXPECT_EQ(err.str(),
            "\r" + first + "\r" + second + std::string(first.size() - second.size(), ' '));
  err.str("");
  display.clear();
  EXPECT_EQ(err.str(), "\r" + std::string(second.size(), ' ') + "\r");
  err.str("");
  display.clear();  // nothing shown: nothing to erase
  EXPECT_EQ(err.str(), "");
}

}  // namespace test_progress_display
}  // namespace nvbw
