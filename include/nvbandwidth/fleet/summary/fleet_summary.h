// `--summarize REPORT...`: many nodes' saved reports reduced to one table of nodes by testcases,
// with the nodes that stand out from their peers flagged. No GPU. What rows, groups and columns
// are, the flag rule (the constants below) and why k is 5, what flags a node, and how the files
// are read: docs/fleet.md, "Summary of a fleet".
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/stop_request.h"
#include "model/report_files.h"
#include "model/summary_section.h"

namespace nvbw {

inline constexpr double kFleetMadFactor = 5.0;         // k
inline constexpr double kMadToSigma = 1.4826;          // MAD of normal data x this = sigma
inline constexpr double kFleetFloorPercent = 5.0;      // the band is never narrower
inline constexpr std::size_t kFleetMinGroupNodes = 3;  // smaller groups are not judged

struct SummaryOptions {
  // Testcase names (a bidirectional testcase selects its three matrices) or matrix keys to
  // include; empty: every one that appears in a report.
  std::vector<std::string> testcases;
};

// Every report `found` (report_files.h: findReports), each read like --compare's (report_files.h,
// ReadScope::Matrices), reduced to its row and let go; one that cannot be read or used, and a
// folder that could not be listed, is unreadable. Throws Interrupted when `stop` reports a signal
// (asked between files, and while a read blocks).
FleetSummary summarizeReports(const FoundReports& found, const SummaryOptions& options,
                              const StopRequest& stop);

// The table for a terminal, in blocks of columns that fit 80 characters, strings from reports
// escaped for the terminal.
std::string fleetSummaryText(const FleetSummary& summary);

// One self-contained page (inline CSS, no script, parseable as XML), every value in a cell's
// tooltip.
std::string fleetSummaryHtml(const FleetSummary& summary);

}  // namespace nvbw
