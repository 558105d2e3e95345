// The progress line on stderr while a run lasts: which testcase of how many, time elapsed and an
// estimate of the time left. Shown only on a terminal (the application decides), rewritten in
// place, and erased before anything else is printed.
#pragma once

#include <chrono>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>

#include "core/progress.h"

namespace nvbw {

// The fraction of the run done when `e` happened: finished testcase runs, plus the finished
// samples of the current one.
double runFraction(const ProgressEvent& e);

// Time left if the rest of the run goes at the pace of what is done: elapsed x (1 - f) / f.
// Nothing before a whole sample has finished (no pace to go by yet).
std::optional<double> remainingSeconds(double elapsedSeconds, double fraction);

std::string formatDuration(double seconds);  // "0:07", "12:34", "1:02:03"

// "[3/42] host_to_device_memcpy_ce  0:12 elapsed, about 0:40 left"
std::string progressLine(const ProgressEvent& e, double elapsedSeconds);

class ProgressDisplay {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;
  explicit ProgressDisplay(std::ostream& err, Clock clock = std::chrono::steady_clock::now);
  void show(const ProgressEvent& e);
  // Erases the line (before other output, and at the end of the run).
  void clear();

 private:
  std::ostream& err_;
  Clock clock_;
  std::chrono::steady_clock::time_point start_;
  std::size_t shownWidth_ = 0;
};

}  // namespace nvbw
