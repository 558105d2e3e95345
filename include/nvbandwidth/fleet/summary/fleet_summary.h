// `--summarize REPORT...`: many nodes' saved reports reduced to one table of nodes by testcases,
// with the nodes that stand out from their peers flagged. No GPU.
//
// Rows. One per report, named by the host it ran on: the report's "hostname" key; for reports
// without it (upstream's, and this tool's before the key) the host in parentheses at the end of
// the "GPU Device list" entries ("0: NVIDIA H200 (00000000:19:00): (gpu-node-01)"), then the
// first "processes" entry's host; failing all, the file name without ".json". Two reports of one
// host are both kept, both judged and both counted in their group: the later one (in reading
// order) is named "host#2", the next "host#3", and each row names its file.
//
// Groups. Nodes are compared only with nodes of the same GPU model and GPU count, taken from the
// "GPU Device list" ("8 x NVIDIA H200"; a node of mixed models: "2 x NVIDIA A100 + NVIDIA H100").
//
// Columns. One per matrix key (an entry's "name": `device_to_device_bidirectional_memcpy_read_ce`
// has three, `..._read1`, `..._read2`, `..._total`; upstream's stacked matrices are split the way
// --compare splits them), in the order they first appear. Per node and column: the status (Passed,
// failed: ERROR or Running, Waived, missing), SUM (the report's SUM, or the sum of the cells of a
// split upstream matrix), the worst cell (lowest bandwidth, highest latency) and where it is,
// both as percent of the group's median, and percent of peak where the report carries peaks (SUM
// against the summed peaks of the cells that have one; the worst cell's own).
//
// Flags. For each group and column with at least kFleetMinGroupNodes passed nodes, the median m
// and the median absolute deviation MAD of the nodes' SUMs, and the same of their worst cells.
// A node's value x is flagged when it is worse than m by more than the band
//     max(kFleetMadFactor x kMadToSigma x MAD / m, kFleetFloorPercent / 100,
//         kBandFactor x the testcase's prior run-to-run spread / 100)
// (bandwidth: (m - x) / m; latency: (x - m) / m; the prior as the comparison's healthy band has
// it, fleet/comparison/healthy_band.h: healthy nodes differ at least as much as one node's runs,
// and a group of three or four cannot show it: unchanged 1 x and 2 x H200 reports put host
// bidirectional copies 8-11% apart, which the 5% floor flagged). kMadToSigma x MAD estimates the
// standard deviation of normal data without letting the outliers being looked for widen it. k is 5,
// not the textbook 3: a fleet of 1,000 nodes is tens of thousands of comparisons, and the worst
// cell, the lowest of up to 56, has a long lower tail that its MAD understates; on 50 generated
// healthy nodes with noisy host cells (2.5% per cell) k = 3 flagged one or two healthy nodes per
// fleet, k = 5 none in ten seeds, while every doctored fault (a link at 60-75%, PCIe at 50%,
// latency +40%, a node 15% slow) is still caught. The floor keeps a fleet whose nodes agree to 0.1%
// from flagging a node 1% off (an unchanged machine moves 1-7% from run to run). Both the
// SUM and the worst cell are judged because they catch different faults: SUM a node that is slow
// everywhere (clocks held down), the worst cell one bad link or GPU, which moves a 56-cell SUM by
// less than the floor.
// A node is flagged when any selected testcase of it is flagged or failed (ERROR, or Running: cut
// short by a run-level error), or when its own report failed its verdicts for one (a run with
// --baseline that found SLOWER or UNSTABLE cells, or with --expect BELOW ones: that run exited 3,
// and the fleet's view must not say otherwise). Waived and missing testcases are listed but flag
// nothing: fleets mixing upstream's reports with this tool's, or runs of different -t, would
// otherwise be all flagged. A file that is not a usable report stops nothing: it is listed with the
// reason and counted as unreadable; fleetSummaryExitStatus gives 3 for it as for a flagged node,
// since a node whose report cannot be read is not known to be good.
//
// Reading. Every file is read like --compare's (report_files.h: a regular file, at most 256 MiB,
// never blocking) by the report reader with ReadScope::Matrices (report_reader.h: its checks and
// messages; samples, environment and timing only checked to be JSON), one file per core at a time
// (at most 8). Memory: those files' texts and Reports, and the summary (a few hundred bytes per
// node and column).
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
