#include "core/statistics.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/error.h"
#include "core/format.h"

namespace nvbw {

const char* statisticName(Statistic stat) { return stat == Statistic::Mean ? "mean" : "median"; }

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  const std::size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + mid, values.end());
  const double upper = values[mid];
  if (values.size() % 2 == 1) return upper;
  // For an even count the lower middle value is the largest of the lower half.
  const double lower = *std::max_element(values.begin(), values.begin() + mid);
  return (lower + upper) / 2.0;
}

double mean(const std::vector<double>& values) {
  if (values.empty()) return 0.0;
  return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

double minimum(const std::vector<double>& values) {
  return values.empty() ? 0.0 : *std::min_element(values.begin(), values.end());
}

double maximum(const std::vector<double>& values) {
  return values.empty() ? 0.0 : *std::max_element(values.begin(), values.end());
}

double stddev(const std::vector<double>& values) {
  // The sample deviation is undefined below two values; 0 keeps outputs free of NaN.
  if (values.size() < 2) return 0.0;
  const double m = mean(values);
  double squares = 0.0;
  for (double v : values) squares += (v - m) * (v - m);
  return std::sqrt(squares / static_cast<double>(values.size() - 1));
}

double summarize(const std::vector<double>& values, Statistic stat) {
  return stat == Statistic::Mean ? mean(values) : median(values);
}

SampleStatistics describeSamples(const std::vector<double>& values) {
  SampleStatistics s;
  s.count = values.size();
  s.min = minimum(values);
  s.max = maximum(values);
  s.mean = mean(values);
  s.median = median(values);
  s.stddev = stddev(values);
  if (!values.empty() && s.mean != 0.0) s.cv = s.stddev / std::fabs(s.mean);
  return s;
}

double checkedSeconds(double milliseconds, const char* what) {
  if (!std::isfinite(milliseconds) || milliseconds <= 0.0)
    throw TimingError("the event timer gave " + significant(milliseconds) + " ms for " + what +
                      "; a time that is zero, negative or not finite cannot be turned into a "
                      "bandwidth");
  return milliseconds / 1000.0;
}

double bandwidthGBps(double bytes, double loops, double seconds) {
  if (!std::isfinite(seconds) || seconds <= 0.0)
    throw TimingError("elapsed time " + significant(seconds) +
                      " s is zero, negative or not finite");
  return bytes * loops / seconds / 1e9;
}

}  // namespace nvbw
