// From a measurement's per-sample timings to its cells and -v lines (pure; unit-tested).
#pragma once

#include <string>
#include <vector>

#include "core/statistics.h"
#include "engine/results.h"
#include "plans/plan.h"

namespace nvbw {

// Per-sample values of one measurement, as the executor measured them.
struct MeasurementSamples {
  std::vector<std::vector<double>> copies;  // [copy][sample]: GB/s, or ns for a latency chase
  std::vector<double> total;                // [sample]: aggregate GB/s; empty unless read
};

// "Host", "Device 1"
std::string endpointName(const BufferSpec& b);
// "Host -> Device 0"
std::string copyLabel(const CopySpec& c);

// Stores the cells that `m`'s outputs name into `matrices`, each the `stat` of its samples:
// Copy: that copy's samples; Total: the aggregate's; SumOfCopies: per sample, the sum of every
// copy's value in that sample. Returns the measurement's -v record: each reported copy (and the
// aggregate, when measured) with its samples.
MeasurementRecord recordMeasurement(const Measurement& m, const MeasurementSamples& samples,
                                    Statistic stat, std::vector<MatrixResult>& matrices);

}  // namespace nvbw
