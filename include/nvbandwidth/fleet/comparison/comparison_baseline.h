// The healthy side of a comparison (comparison.h's Baseline): every baseline report's matrices
// merged into one set, each cell with the values and within-run spreads of the reports that have
// it. Private to the comparison.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/stop_request.h"
#include "fleet/comparison/comparison_report.h"
#include "fleet/comparison/healthy_band.h"

namespace nvbw {

namespace comparison {

// One matrix key (occurrence) over the reports: the n-th matrix named `name` of each report, each
// cell over the reports that have a value for it (no values: N/A everywhere).
struct HealthyMatrix {
  std::string name;
  std::string unit;
  std::vector<std::vector<HealthySide>> cells;
};

// One note per setting that differs between two reports' settings:
// "<prefix>bufferSize_MiB: 512 vs 16".
void noteSettings(const Json& b, const Json& c, const std::string& prefix,
                  std::vector<std::string>& notes);

// The baseline reports merged.
struct BaselineReports {
  std::size_t reports = 0;
  std::vector<HealthyMatrix> matrices;  // in the order they first appear
  // The first report's entries without a matrix, settings, GPU count and layout: the other side
  // is compared with these.
  std::vector<StatusEntry> statuses;
  std::optional<Json> settings;
  std::optional<std::size_t> gpus;
  std::optional<std::uint64_t> logicalGpus;  // every report's (they must agree)
  MachineShape machine;                      // the first report's
  // Every report's run-level notes, and how the later reports differ from the first.
  std::vector<std::string> notes;
};

// Reads one more report into `into` (comparison.h's Baseline::add).
void addBaselineReport(BaselineReports& into, const Report& report, const std::string& label,
                       const StopRequest& stop = {});

}  // namespace comparison

}  // namespace nvbw
