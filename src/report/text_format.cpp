#include "report/text_format.h"

#include <algorithm>
#include <iomanip>
#include <locale>
#include <sstream>
#include <utility>

#include "core/format.h"
#include "report/peak_assessment.h"

namespace nvbw {

namespace {

constexpr std::size_t kLabelWidth = 2;  // upstream: max(2, longest row label)
constexpr int kCellWidth = 10;

std::string cellName(std::size_t row, std::size_t col) {
  return "[" + std::to_string(row) + "][" + std::to_string(col) + "]";
}

}  // namespace

// Upstream switches std::cout to fixed/2 for good; every number it prints after the first matrix
// has two decimals. We format into local strings instead so no caller's stream state changes.
namespace {

// The matrix layout of upstream for a plan's matrix.
template <typename CellText> std::string formatGrid(const MatrixSpec& spec, CellText cellText) {
  return formatGrid(spec.rows, spec.cols, spec.rowLabels, cellText);
}

}  // namespace

std::string formatGrid(std::size_t rows, std::size_t cols,
                       const std::vector<std::string>& rowLabels,
                       const std::function<std::string(std::size_t, std::size_t)>& cellText) {
  // Row labels: the index, or the plan's labels (bisect pairs), in a column as wide as the widest.
  auto rowLabel = [&rowLabels](std::size_t row) {
    return row < rowLabels.size() ? rowLabels[row] : std::to_string(row);
  };
  std::size_t labelWidth = kLabelWidth;
  for (std::size_t row = 0; row < rows; ++row)
    labelWidth = std::max(labelWidth, rowLabel(row).size());
  const int width = static_cast<int>(labelWidth);
  std::string text(labelWidth, ' ');
  for (std::size_t col = 0; col < cols; ++col)
    text += rightAligned(std::to_string(col), kCellWidth);
  text += '\n';
  for (std::size_t row = 0; row < rows; ++row) {
    text += rightAligned(rowLabel(row), width);
    for (std::size_t col = 0; col < cols; ++col)
      text += rightAligned(cellText(row, col), kCellWidth);
    text += '\n';
  }
  return text;
}

std::string percentOfPeakBlock(const MatrixResult& m) {
  if (m.spec.unit != Unit::GBps || m.links.size() != m.cells.size() || !m.min()) return "";
  const bool anyPeak = std::any_of(m.links.begin(), m.links.end(), [](const CellLink& c) {
    return c.link.gbPerSecond.has_value();
  });
  if (!anyPeak) return "";  // a matrix of N/A says nothing
  const std::vector<CellLink> links = distinctLinks(m);
  std::string text = "Percent of theoretical peak of " + m.spec.key + ":\n";
  text += formatGrid(m.spec, [&m](std::size_t row, std::size_t col) {
    const std::optional<double> pct = percentOfPeak(m, row, col);
    return pct ? fixed(*pct) : std::string("N/A");
  });
  for (const CellLink& c : links)
    text += "Peak of " + c.link.name + ": " +
            (c.link.gbPerSecond ? fixed(*c.link.gbPerSecond) + " GB/s" : std::string("unknown")) +
            " (" + c.convention + ")\n";
  return text;
}

std::string noisyCellsNote(const MatrixResult& m) {
  const std::vector<NoisyCell> noisy = noisyCells(m);
  if (noisy.empty()) return "";
  std::string text = "NOTE: " + m.spec.key + ": samples vary by more than " +
                     fixed(kNoisyCv * 100) + "% (coefficient of variation) in ";
  for (std::size_t i = 0; i < noisy.size(); ++i)
    text += (i ? ", " : "") + cellName(noisy[i].row, noisy[i].col) + " " +
            fixed(noisy[i].cv * 100) + "%";
  return text + "\n";
}

std::string cellStatisticsBlock(const MatrixResult& m, Statistic stat) {
  if (!m.min()) return "";  // no present cell
  std::string text = "Cell statistics of " + m.spec.key + " (" + unitName(m.spec.unit) + ", " +
                     statisticName(stat) + " reported):\n";
  text += rightAligned("cell", 8) + rightAligned("samples", 9);
  for (const char* column : {"min", "max", "mean", "median", "stddev", "CV(%)"})
    text += rightAligned(column, kCellWidth);
  text += '\n';
  for (std::size_t row = 0; row < m.spec.rows; ++row)
    for (std::size_t col = 0; col < m.spec.cols; ++col) {
      const auto& cell = m.at(row, col);
      if (!cell) continue;
      const SampleStatistics s = describeSamples(cell->samples());
      text += rightAligned(cellName(row, col), 8) + rightAligned(std::to_string(s.count), 9);
      for (double v : {s.min, s.max, s.mean, s.median, s.stddev})
        text += rightAligned(fixed(v), kCellWidth);
      text += rightAligned(s.cv ? fixed(*s.cv * 100) : "N/A", kCellWidth) + '\n';
    }
  return text;
}

}  // namespace nvbw
