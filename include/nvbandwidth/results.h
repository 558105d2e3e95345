// The results model: every sample of every cell is kept, so each output can choose what to show.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "nvbandwidth/plan.h"

namespace nvbw {

enum class Statistic { Median, Mean };

struct CellResult {
  std::vector<double> samples;  // per-sample value, GB/s or ns, in sample order
  double value = 0.0;           // the reported statistic of `samples`
};

struct MatrixResult {
  MatrixSpec spec;
  std::vector<std::optional<CellResult>> cells;  // row-major, rows*cols; empty = N/A

  explicit MatrixResult(MatrixSpec s = {});
  std::optional<CellResult>& at(std::size_t row, std::size_t col);
  const std::optional<CellResult>& at(std::size_t row, std::size_t col) const;
  double sum() const;                 // sum of present cells
  std::optional<double> min() const;  // over present cells; nullopt when none
  std::optional<double> max() const;
  std::optional<double> average() const;
};

enum class Status { Passed, Waived, Error };

struct TestcaseResult {
  std::string name;  // testcase key, or the raw -t token of an unresolved selection
  Status status = Status::Passed;
  std::string message;  // waive reason or error message
  std::vector<MatrixResult> matrices;
};

const char* statusName(Status s);  // "Passed", "Waived", "ERROR"

}  // namespace nvbw
