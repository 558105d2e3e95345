// The -v lines of one measurement: the engine makes them from the timings, a run's Report keeps
// them with the testcase's first entry (model/report.h) and the text prints them.
#pragma once

#include <string>
#include <vector>

#include "core/unit.h"

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
