// --sweep: every selected testcase at a series of buffer sizes. Parsing the sizes, and turning
// one testcase's entries at every size into series (SUM and, for -v, every cell per size) with
// the smallest size that reaches 90% of the bandwidth at the largest size. Pure.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/report.h"

namespace nvbw {

struct SweepSpec {
  std::uint64_t minMiB = 1;
  std::uint64_t maxMiB = 1;
  std::uint64_t factor = 2;
};

// The largest size a sweep may ask for, in MiB (1 TiB: more than any GPU holds). With a factor
// of at least 2 a sweep then has at most 21 sizes.
inline constexpr std::uint64_t kMaxSweepMiB = 1ull << 20;

// "MIN:MAX[:FACTOR]" in MiB: 1 <= MIN <= MAX <= kMaxSweepMiB, FACTOR >= 2. Throws UsageError
// naming the problem.
SweepSpec parseSweep(const std::string& text);

// MIN, MIN*FACTOR, ... while below MAX, then MAX itself (so the last size is always MAX).
std::vector<std::uint64_t> sweepSizes(const SweepSpec& spec);

// The entries of one testcase's sweep, in size order, each with the size it was measured at
// (entries at a size that did not pass have no matrix; a size an interrupted run never reached
// has none).
using SweepEntries = std::vector<const ReportEntry*>;

// Per matrix of the testcase, its SUM at each of `sizesMiB` (null where that size did not pass)
// and the smallest size that reaches 90% of the SUM at the largest (GB/s only).
std::vector<SweepSeriesRecord> sweepSeries(const SweepEntries& entries,
                                           const std::vector<std::uint64_t>& sizesMiB);

// The smallest size (of `sizes`) whose value reaches 90% of the value at the last size.
std::optional<std::uint64_t> sizeReaching(const std::vector<std::uint64_t>& sizes,
                                          const std::vector<std::optional<double>>& values);

// The text of one testcase's sweep: per matrix, a table of size against SUM (with -v one column
// per measured cell). It takes the place of the matrices.
std::string sweepText(const SweepEntries& entries, const std::vector<std::uint64_t>& sizesMiB,
                      bool verbose);
// Per bandwidth matrix, the NOTE naming the 90% size (a note beside the table, as the text
// output prints notes).
std::string sweepNotes(const SweepEntries& entries, const std::vector<std::uint64_t>& sizesMiB);

}  // namespace nvbw
