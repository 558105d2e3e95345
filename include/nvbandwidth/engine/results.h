// The results model: every sample of every cell is kept, and every output (text, JSON, the -v
// sample lines) is rendered from it alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/measurement_record.h"
#include "core/statistics.h"
#include "core/status.h"
#include "facts/link_peaks.h"
#include "plans/plan.h"

namespace nvbw {

// One cell: its samples and the reported statistic of exactly those samples.
class CellResult {
 public:
  CellResult(std::vector<double> samples, Statistic stat);
  const std::vector<double>& samples() const { return samples_; }
  double value() const { return value_; }

 private:
  std::vector<double> samples_;  // per-sample value, GB/s or ns, in sample order
  double value_;                 // summarize(samples_, stat)
};

struct MatrixResult {
  MatrixSpec spec;
  std::vector<std::optional<CellResult>> cells;  // row-major, rows*cols; empty = N/A
  // Row-major like `cells`: the link that bounds each cell and its peak. Empty when the run did
  // not say (results built without a plan).
  std::vector<CellLink> links;

  explicit MatrixResult(MatrixSpec s = {});
  std::optional<CellResult>& at(std::size_t row, std::size_t col);
  const std::optional<CellResult>& at(std::size_t row, std::size_t col) const;
  double sum() const;                 // sum of present cells
  std::optional<double> min() const;  // over present cells; nullopt when none
  std::optional<double> max() const;
  std::optional<double> average() const;
};

struct PlanResult {
  std::vector<MatrixResult> matrices;
  std::vector<MeasurementRecord> measurements;
};

struct TestcaseResult {
  std::string name;  // testcase key, or the raw -t token of an unresolved selection
  Status status = Status::Passed;
  std::string message;  // waive reason or error message (in the user's terms)
  std::vector<MatrixResult> matrices;
  std::vector<MeasurementRecord> measurements;
  // --sweep: the buffer size this result was measured at; nullopt outside a sweep.
  std::optional<std::uint64_t> sweepSizeMiB = std::nullopt;
  // An error's detail: the failing call as the source writes it, and where (core/error.h).
  std::string detail = std::string();
  // A pair testcase's schedule, and its rounds when it ran in rounds; nullopt for the others.
  std::optional<PairSchedule> schedule = std::nullopt;
  std::size_t rounds = 0;
};

}  // namespace nvbw
