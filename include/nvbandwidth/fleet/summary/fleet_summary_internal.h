// The pieces of the fleet summary (internal to it): what one report is reduced to, the
// statistics and flag rule, and helpers the views share.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "fleet/summary/fleet_summary.h"
#include "model/report.h"

namespace nvbw::summary {

// One testcase entry of a report, reduced to what the summary shows: its column (key: the matrix
// key, or the testcase name of an entry without a matrix) and its cell (status, message; passed:
// SUM, worst cell, percents of peak, the report's own verdicts).
struct EntryDigest {
  FleetColumn column;
  FleetCell cell;
};

// One report, reduced: its node (no file, name or cells yet; hostSource empty: no host recorded)
// and its entries.
struct ReportDigest {
  FleetNode node;
  std::vector<EntryDigest> entries;
};

// Reads the text of a report. Throws JsonInputError (not JSON, nested too deeply) or
// ReportShapeError (not a usable report), with messages as readReport's, or Interrupted when
// `stop` reports a signal (asked every entry and matrix row).
ReportDigest digestReport(const std::string& text, const StopRequest& stop = {});

// ---- statistics ----

double medianAbsoluteDeviation(const std::vector<double>& values, double median);
// max(kFleetMadFactor x kMadToSigma x mad / median, kFleetFloorPercent / 100, kBandFactor x
// the testcase's prior run-to-run spread) in percent (healthy_band.h: healthy nodes differ at
// least as much as one node's runs do); 0 when the median is not above 0.
double bandPercent(double median, double mad, const std::string& testcase);
// How much worse than `median` `value` is, in percent of it (bandwidth: below; latency: above);
// negative when better.
double deficitPercent(double value, double median, bool latency);

// Fills the groups, the percents of median and the flags of `summary` (its nodes, columns and
// cells are complete).
void judgeFleet(FleetSummary& summary);

// ---- shared by the views ----

// The flag rule as both views state it: "A node is flagged for a testcase when ... max(5 x 1.4826
// x MAD / median, ...) ..., when the testcase failed, ... are not judged."
std::string flagRuleText();

// "1 node", "3 nodes".
std::string plural(std::size_t n, const char* one, const char* many);

// "20830.00 GB/s": a value of `column` as both views write it.
std::string valueText(double value, const FleetColumn& column);

// "21968.63 GB/s (5.0%)": a group's median of `column` with its band, as both views list it.
std::string spreadText(const FleetSpread& spread, const FleetColumn& column);

// What a cell of the table shows when it has no percent: ERR failed, W waived, - missing, . no
// value; nullptr for a passed cell with a value.
const char* cellMark(const FleetCell& cell, bool latency);

// The worse of the cell's two percents of median (bandwidth: the lower; latency: the higher).
std::optional<double> worsePercentOfMedian(const FleetCell& cell, bool latency);

// "its report's verdicts: 2 SLOWER, 1 UNSTABLE, 1 BELOW" (the counts above 0).
std::string reportVerdictsText(const ReportVerdicts& v);

// How a view shows a string from a report, at most `maxChars` of it: the text view escapes it for
// a terminal (escapeForTerminal); the page takes it as it is (its markup escapes it).
using Shown = std::string (*)(const std::string& text, std::size_t maxChars);

std::string failedText(const FleetCell& cell, Shown shown);  // "failed (ERROR): its message"

// Why node `n` is flagged, "<testcase>: <reason>" per reason: failed, flagged ("worst cell 228.00
// GB/s 5.2% below the median 240.50 (band 5.0%) at [0][1]; SUM ..."), its report's verdicts.
std::vector<std::string> flagReasons(const FleetSummary& s, const FleetNode& n, Shown shown);

}  // namespace nvbw::summary
