// What a saved report must look like before any view (comparison, HTML) reads it: the keys the
// views use, with their types, value ranges and matrix shapes, for this tool's layout and for
// upstream v0.8's. Keys the views do not use are left alone (their depth is already bounded by
// the reader). Pure.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/error.h"

namespace nvbw {

// A document is not a usable report. The message says where ("nvbandwidth.testcases[3]
// (\"key\").values[0][1]") and what is wrong.
class ReportShapeError : public Error {
 public:
  using Error::Error;
};

enum class ReportKind {
  Run,              // a run's report: needs "testcases" (--compare, --baseline)
  RunOrComparison,  // also the output of `--compare -j` (--from)
};

// The largest values a report may hold: what no GPU measures (a bandwidth above 10^7 GB/s, a
// latency above one second).
inline constexpr double kMaxBandwidthGBps = 1e7;
inline constexpr double kMaxLatencyNs = 1e9;
// Matrices are GPUs by GPUs (upstream stacks a bidirectional testcase's three in one entry:
// 3 x GPUs rows); the GPU count is the longer of "GPU Device list" and "processes".
inline constexpr std::size_t kMaxReportGpus = 4096;
inline constexpr std::size_t kMaxSweepSizes = 64;

// Throws ReportShapeError.
void checkReportShape(const nlohmann::json& document, ReportKind kind);

// A matrix cell as upstream writes it ("55.4859", "1.23457e+06", "N/A"): its value, nullopt for
// N/A. Throws ReportShapeError for anything else (`where` names the cell).
std::optional<double> parseCellText(const std::string& text, const std::string& where);

}  // namespace nvbw
