// Pure statistics over samples. Empty input yields 0 for every function (never NaN).
#pragma once

#include <vector>

#include "nvbandwidth/results.h"

namespace nvbw {

double median(std::vector<double> values);  // mean of the two middle values for even counts
double mean(const std::vector<double>& values);
double minimum(const std::vector<double>& values);
double maximum(const std::vector<double>& values);
double stddev(const std::vector<double>& values);  // sample standard deviation (n-1)
double summarize(const std::vector<double>& values, Statistic stat);

// Decimal GB/s for `bytes` moved `loops` times in `seconds`. Returns 0 for a zero duration.
double bandwidthGBps(double bytes, double loops, double seconds);

}  // namespace nvbw
