// The fleet summary's result (`--summarize`, fleet/summary/fleet_summary.h says how it is made):
// nodes by matrix keys, the groups they are judged in and what stood out. A section of the report
// model: the summary makes it, its text and HTML views and the JSON writer (report_writer.h) take
// it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nvbw {

enum class FleetStatus { Passed, Failed, Waived, Missing };

// A report's own verdicts of one matrix, where the run judged itself (--baseline: its
// comparison's SLOWER and UNSTABLE cells; --expect, --min-percent-of-peak: its BELOW cells).
struct ReportVerdicts {
  std::size_t slower = 0;
  std::size_t unstable = 0;
  std::size_t below = 0;
  bool failed() const { return slower + unstable + below > 0; }
};

// One node's result for one column.
struct FleetCell {
  FleetStatus status = FleetStatus::Missing;
  std::string entryStatus;  // the report's status ("ERROR", "Running", ...); empty when missing
  std::string message;      // ERROR text or waive reason
  // Passed only:
  bool hasValues = false;  // at least one cell is not N/A (else nothing below is set)
  double sum = 0.0;
  double worst = 0.0;
  std::uint32_t worstRow = 0;
  std::uint32_t worstCol = 0;
  std::string worstCell;  // "GPU 3 -> GPU 0", "CPU <- GPU 2", "GPU 5", as the entry's title reads
  std::optional<double> percentOfPeak;       // SUM / summed peaks of the cells that have one
  std::optional<double> worstPercentOfPeak;  // the worst cell's
  std::optional<double> sumPercentOfMedian;  // x / group median x 100 (latency too)
  std::optional<double> worstPercentOfMedian;
  bool sumFlagged = false;
  bool worstFlagged = false;
  bool judged = false;      // its group had enough passed nodes for this column
  ReportVerdicts verdicts;  // the node's report's own failing verdicts of this matrix
  bool flagged() const { return sumFlagged || worstFlagged; }
};

struct FleetColumn {
  std::string key;       // the matrix key
  std::string testcase;  // the testcase it is a matrix of (the key itself for one-matrix ones)
  std::string unit;      // "GB/s" or "ns" (ns: higher is worse)
  bool latency() const { return unit == "ns"; }
};

struct FleetNode {
  std::string name;        // unique: the host, "host#2" for its second report
  std::string host;        // as the report records it (or the file name's stem)
  std::string hostSource;  // "hostname", "GPU Device list", "processes" or "file name"
  std::string file;
  std::string gpuModel;  // "NVIDIA H200"; "unknown" without a device list
  std::size_t gpuCount = 0;
  std::optional<std::uint64_t> logicalGpus;  // the report's GPUs are logical (a testing aid)
  std::size_t group = 0;                     // index into FleetSummary::groups
  bool upstream = false;                     // no schema_version: upstream v0.8's layout
  std::vector<std::string> notes;            // the run's error, its interruption
  std::vector<FleetCell> cells;              // one per column
  bool failed() const;
  bool slow() const;
  bool failedItsVerdicts() const;  // its own report has SLOWER, UNSTABLE or BELOW cells
  bool flagged() const { return failed() || slow() || failedItsVerdicts(); }
};

// A group's median of one value of a column (SUM or worst cell), its MAD and the band around it.
struct FleetSpread {
  double median = 0.0;
  double mad = 0.0;
  double bandPercent = 0.0;
};

// A group's statistics for one column.
struct FleetColumnStats {
  std::size_t nodes = 0;  // passed nodes of the group in this column
  bool judged = false;    // nodes >= kFleetMinGroupNodes and both medians above 0
  FleetSpread sum;
  FleetSpread worst;
};

struct FleetGroup {
  std::string name;  // "8 x NVIDIA H200"
  std::string gpuModel;
  std::size_t gpuCount = 0;
  std::size_t nodes = 0;
  std::vector<FleetColumnStats> columns;  // one per column
};

struct UnreadableReport {
  std::string file;
  std::string reason;  // one line, as --compare would say it without the option
};

// The rule the nodes were judged by, as the summary's JSON states it.
struct SummaryRule {
  double madFactor = 0.0;
  double madToSigma = 0.0;
  double floorPercent = 0.0;
  double priorFactor = 0.0;
  std::size_t minGroupNodes = 0;
  std::string description;
};

struct FleetSummary {
  SummaryRule rule;
  std::vector<FleetColumn> columns;
  std::vector<FleetNode> nodes;    // in reading order
  std::vector<FleetGroup> groups;  // by first appearance
  std::vector<UnreadableReport> unreadable;
  std::vector<std::string> notes;  // e.g. a selected testcase that no report has
  std::size_t reports = 0;         // files read (the nodes and the unreadable files among them)
  std::size_t flaggedNodes() const;
};

// The testcases of `node` with `status`, a testcase named once when all its columns share it.
std::vector<std::string> testcasesWithStatus(const FleetSummary& summary, const FleetNode& node,
                                             FleetStatus status);

// 3 (kExitSlower) when a node is flagged or a report was unreadable, else 0.
int fleetSummaryExitStatus(const FleetSummary& summary);

}  // namespace nvbw
