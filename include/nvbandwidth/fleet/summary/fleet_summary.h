// `--summarize REPORT...`: many nodes' saved reports reduced to one table of nodes by testcases,
// with the nodes that stand out from their peers flagged. No GPU. What rows, groups and columns
// are, the flag rule (the constants below) and why k is 5, and what flags a node: docs/fleet.md,
// "Summary of a fleet".
//
// Reading. Every file is read like --compare's (report_files.h) by the report reader with
// ReadScope::Matrices (report_reader.h: its checks and messages; samples, environment and timing
// only checked to be JSON), one file per core at a time (at most 8). Memory: those files' texts
// and Reports, and the summary (a few hundred bytes per node and column).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/stop_request.h"
#include "model/report_folders.h"
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

// Every report under `paths` (found as report_folders.h finds them), each read, reduced to its
// row and let go (Reading, above). A path that cannot be read or is not a usable report,
// and a folder that cannot be listed, is listed as unreadable. Throws Interrupted when `stop`
// reports a signal (asked between folders and files, and while a read blocks).
FleetSummary summarizeReports(const std::vector<std::string>& paths, const SummaryOptions& options,
                              const StopRequest& stop);
// The same for reports already found (what the walk could not list is unreadable first).
FleetSummary summarizeReports(const FoundReports& found, const SummaryOptions& options,
                              const StopRequest& stop);

// The table for a terminal: per node and testcase the percent of the group median (the worse of
// SUM and worst cell), flagged cells marked, in blocks of columns that fit 80 characters; the
// medians and bands per testcase; each flagged node's reasons; missing and waived testcases;
// unreadable files; last "Summary: 1000 nodes, 3 flagged, 2 unreadable.". Every line ends in a
// newline; strings from reports are escaped for the terminal.
std::string fleetSummaryText(const FleetSummary& summary);

// One self-contained page (inline CSS, no script, parseable as XML): counts, groups, the flagged
// nodes, and a node-by-testcase heatmap coloured by percent of the group median, flagged cells
// framed, every value in the cell's tooltip.
std::string fleetSummaryHtml(const FleetSummary& summary);

}  // namespace nvbw
