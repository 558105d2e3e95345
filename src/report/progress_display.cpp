#include "report/progress_display.h"

#include <cstdio>
#include <ostream>

namespace nvbw {

double runFraction(const ProgressEvent& e) {
  if (e.testcases == 0) return 0.0;
  double within = 0.0;
  if (e.samples > 0 && e.measurements > 0)
    within = (static_cast<double>(e.measurement) + (e.sample + 1.0) / e.samples) /
             static_cast<double>(e.measurements);
  return (static_cast<double>(e.testcaseIndex) + within) / static_cast<double>(e.testcases);
}

std::optional<double> remainingSeconds(double elapsedSeconds, double fraction) {
  if (fraction <= 0.0 || elapsedSeconds <= 0.0) return std::nullopt;
  if (fraction >= 1.0) return 0.0;
  return elapsedSeconds * (1.0 - fraction) / fraction;
}

std::string formatDuration(double seconds) {
  const long total = seconds > 0 ? static_cast<long>(seconds + 0.5) : 0;
  const long h = total / 3600, m = total / 60 % 60, s = total % 60;
  char text[32];
  if (h > 0)
    std::snprintf(text, sizeof text, "%ld:%02ld:%02ld", h, m, s);
  else
    std::snprintf(text, sizeof text, "%ld:%02ld", m, s);
  return text;
}

std::string progressLine(const ProgressEvent& e, double elapsedSeconds) {
  std::string line = "[" + std::to_string(e.testcaseIndex + 1) + "/" + std::to_string(e.testcases) +
                     "] " + e.testcase + "  " + formatDuration(elapsedSeconds) + " elapsed";
  if (const auto left = remainingSeconds(elapsedSeconds, runFraction(e)))
    line += ", about " + formatDuration(*left) + " left";
  return line;
}

ProgressDisplay::ProgressDisplay(std::ostream& err, Clock clock)
    : err_(err), clock_(std::move(clock)), start_(clock_()) {}

void ProgressDisplay::show(const ProgressEvent& e) {
  const double elapsed = std::chrono::duration<double>(clock_() - start_).count();
  std::string line = progressLine(e, elapsed);
  const std::size_t width = line.size();
  // Spaces over what a longer previous line left behind.
  if (width < shownWidth_) line.append(shownWidth_ - width, ' ');
  err_ << '\r' << line << std::flush;
  shownWidth_ = width;
}

void ProgressDisplay::clear() {
  if (shownWidth_ == 0) return;
  err_ << '\r' << std::string(shownWidth_, ' ') << '\r' << std::flush;
  shownWidth_ = 0;
}

}  // namespace nvbw
