// Pure statistics over samples. Empty input yields 0 for every function (never NaN).
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace nvbw {

enum class Statistic { Median, Mean };

const char* statisticName(Statistic stat);  // "median" or "mean"

double median(std::vector<double> values);  // mean of the two middle values for even counts
double mean(const std::vector<double>& values);
double minimum(const std::vector<double>& values);
double maximum(const std::vector<double>& values);
double stddev(const std::vector<double>& values);  // sample standard deviation (n-1)
double summarize(const std::vector<double>& values, Statistic stat);

// Everything the reports show about one cell's samples.
struct SampleStatistics {
  std::size_t count = 0;
  double min = 0.0;
  double max = 0.0;
  double mean = 0.0;
  double median = 0.0;
  double stddev = 0.0;
  // Coefficient of variation, stddev / mean, as a fraction (0.02 = 2%); nullopt when the mean
  // is zero or there are no samples.
  std::optional<double> cv;
};

SampleStatistics describeSamples(const std::vector<double>& values);

// A cell is noisy when its coefficient of variation exceeds this (2%).
constexpr double kNoisyCv = 0.02;

// Decimal GB/s for `bytes` moved `loops` times in `seconds`. Throws TimingError when `seconds` is
// zero, negative or not finite: a bandwidth derived from such a time would be meaningless.
double bandwidthGBps(double bytes, double loops, double seconds);

// `milliseconds` from the driver's event timer, checked: throws TimingError as above, naming
// `what` (the copy or measurement timed).
double checkedSeconds(double milliseconds, const char* what);

}  // namespace nvbw
