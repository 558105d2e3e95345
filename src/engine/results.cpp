#include "engine/results.h"

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>

namespace nvbw {

CellResult::CellResult(std::vector<double> samples, Statistic stat)
    : samples_(std::move(samples)), value_(summarize(samples_, stat)) {}

MatrixResult::MatrixResult(MatrixSpec s) : spec(std::move(s)), cells(spec.rows * spec.cols) {}

namespace {

std::size_t cellIndex(const MatrixSpec& spec, std::size_t row, std::size_t col) {
  // A column past the end would silently alias the next row, so check both coordinates.
  if (row >= spec.rows || col >= spec.cols)
    throw std::out_of_range("cell (" + std::to_string(row) + ", " + std::to_string(col) +
                            ") outside the " + std::to_string(spec.rows) + "x" +
                            std::to_string(spec.cols) + " matrix " + spec.key);
  return row * spec.cols + col;
}

// The value of the present cells that `first` puts first. N/A cells are absent, not zero: they
// never pull the minimum to 0 (docs/compatibility.md#c8).
template <typename First>
std::optional<double> extreme(const std::vector<std::optional<CellResult>>& cells, First first) {
  std::optional<double> result;
  for (const auto& cell : cells)
    if (cell && (!result || first(cell->value(), *result))) result = cell->value();
  return result;
}

}  // namespace

std::optional<CellResult>& MatrixResult::at(std::size_t row, std::size_t col) {
  return cells.at(cellIndex(spec, row, col));
}

const std::optional<CellResult>& MatrixResult::at(std::size_t row, std::size_t col) const {
  return cells.at(cellIndex(spec, row, col));
}

double MatrixResult::sum() const {
  double total = 0.0;
  for (const auto& cell : cells)
    if (cell) total += cell->value();
  return total;
}

std::optional<double> MatrixResult::min() const { return extreme(cells, std::less<>()); }

std::optional<double> MatrixResult::max() const { return extreme(cells, std::greater<>()); }

std::optional<double> MatrixResult::average() const {
  const auto present = std::count_if(
      cells.begin(), cells.end(), [](const std::optional<CellResult>& c) { return c.has_value(); });
  if (present == 0) return std::nullopt;
  return sum() / static_cast<double>(present);
}

}  // namespace nvbw
