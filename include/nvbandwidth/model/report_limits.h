// What a report may hold and how it is read: the limits the report reader holds a document to,
// the ranges of its numbers, and the fault it reports.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/error.h"

namespace nvbw {

// A document is not a usable report. The message says where and what is wrong.
class ReportShapeError : public Error {
 public:
  using Error::Error;
};

enum class ReportKind {
  Run,              // a run's report: needs "testcases" (--compare, --baseline)
  RunOrComparison,  // also the output of `--compare -j` (--from)
};

// What of a report is read into the Report. Matrices leaves out what the fleet summary has no
// use for (each cell's samples and statistics, the environment snapshots, the settings, timing
// and memory, the sweep and members the model does not know): those are only checked to be JSON.
enum class ReadScope { Whole, Matrices };

// The largest report read, its nesting, and the memory its document may take:
// kReportMemoryFactor x its size + kReportMemoryBase (docs/report-files.md, "Reading").
inline constexpr std::uint64_t kMaxReportBytes = 256ull * 1024 * 1024;
inline constexpr std::size_t kMaxReportDepth = 64;
inline constexpr std::size_t kReportMemoryFactor = 8;
inline constexpr std::size_t kReportMemoryBase = 16u << 20;

// The largest values a report may hold: what no GPU measures (a bandwidth above 10^7 GB/s, a
// latency above one second).
inline constexpr double kMaxBandwidthGBps = 1e7;
inline constexpr double kMaxLatencyNs = 1e9;
// The smallest value above 0 a bandwidth or latency may have (1 byte/s; a femtosecond): the views
// divide by medians, baselines and peaks, and a divisor of 4.9e-324 gave a percent of infinity.
// With every value 0 or within [1e-9, 1e9], every ratio, sum and product they take is finite.
inline constexpr double kMinPositiveValue = 1e-9;

// The numbers of one kind a report may hold: finite, within [low, high], and none between 0 and
// `lowestPositive` (0 itself allowed). `what` names the range in a message.
struct ValueRange {
  double low;
  double high;
  double lowestPositive;
  const char* what;
};
inline constexpr ValueRange kBandwidthRange{0.0, kMaxBandwidthGBps, kMinPositiveValue,
                                            "a bandwidth (0, or 1e-9 to 1e7 GB/s)"};
inline constexpr ValueRange kLatencyRange{0.0, kMaxLatencyNs, kMinPositiveValue,
                                          "a latency (0, or 1e-9 to 1e9 ns)"};
// A cell's percent of its peak (percent_of_peak): a peak is derived from it, so it is bounded as
// a divisor is. A bandwidth within its range over a peak within its range is within this one.
inline constexpr ValueRange kPercentOfPeakRange{0.0, 1e18, 1e-12,
                                                "a percent of peak (0, or 1e-12 to 1e18)"};
// Statistics that are never divided by (a standard deviation, a coefficient of variation):
// any size down to 0, at most `high`.
inline constexpr ValueRange kSpreadOfBandwidth{0.0, kMaxBandwidthGBps, 0.0,
                                               "a spread of bandwidths (0 to 1e7 GB/s)"};
inline constexpr ValueRange kSpreadOfLatency{0.0, kMaxLatencyNs, 0.0,
                                             "a spread of latencies (0 to 1e9 ns)"};
// Numbers that may be any size of 0 or more, and any finite number.
inline constexpr ValueRange kNonNegative{0.0, 1e300, 0.0, "a number of 0 or more"};
inline constexpr ValueRange kAnyFinite{-1e300, 1e300, 0.0, "a finite number"};
// Matrices are GPUs by GPUs (upstream stacks a bidirectional testcase's three in one entry:
// 3 x GPUs rows); the GPU count is the longer of "GPU Device list" and "processes".
inline constexpr std::size_t kMaxReportGpus = 4096;
inline constexpr std::size_t kMaxSweepSizes = 64;

struct ReadOptions {
  ReportKind kind = ReportKind::Run;
  ReadScope scope = ReadScope::Whole;
};

}  // namespace nvbw
