// What one measurement reported, sample by sample, as the -v lines show it (sample_recording.h
// makes it from the timings).
#pragma once

#include <string>
#include <vector>

#include "plans/plan.h"

namespace nvbw {

// The samples of one reported copy (or of a measurement's aggregate) as the -v lines show them:
// "\tSample <i>: <label>: <value> <unit>".
struct SampleSeries {
  std::string label;  // "Host -> Device 0", "Total Bandwidth ", "Device 0 reading Host"
  Unit unit = Unit::GBps;
  std::vector<double> samples;
};

// Everything one measurement reported, in the order its lines print: per sample, each series.
struct MeasurementRecord {
  std::vector<SampleSeries> series;
};

}  // namespace nvbw
