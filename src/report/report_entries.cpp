// The entries of a testcase's result (report_builder.h: entriesOf), each member as -j has always
// written it (docs/compatibility.md#c3, #c4, #c9, #c16).
#include <algorithm>

#include "core/format.h"
#include "plans/registry.h"
#include "plans/schedule.h"
#include "plans/testcase.h"
#include "report/report_builder.h"

namespace nvbw {

namespace {

// What the testcase declares its rows and columns are; the arrow between them is its title's.
MatrixAxes declaredAxes(const TestcaseFacts& facts, const std::string& title) {
  MatrixAxes axes = axesOfTitle(&title, facts.listing.key);
  axes.rowsNamed = facts.rows != Axis::None;
  axes.colsNamed = facts.columns != Axis::None;
  axes.rowWord = axisName(facts.rows);
  axes.colWord = axisName(facts.columns);
  axes.ranks = facts.multiProcess;
  return axes;
}

CellStatistics cellStatistics(const CellResult& cell) {
  const SampleStatistics s = describeSamples(cell.samples());
  return {cell.samples(), s.min, s.max, s.mean, s.median, s.stddev, s.cv};
}

// A grid of the matrix's shape: cell i (row-major, as the matrix's cells and links) is `cell(i)`.
template <typename T, typename Cell> Grid<T> gridOf(const MatrixResult& m, Cell cell) {
  Grid<T> grid{m.spec.rows, m.spec.cols, {}};
  grid.cells.reserve(grid.rows * grid.cols);
  for (std::size_t i = 0; i < grid.rows * grid.cols; ++i) grid.cells.push_back(cell(i));
  return grid;
}

// Upstream's string matrix, its numeric twin (null for N/A) and the per-cell statistics.
void addMatrices(ReportEntry& e, const MatrixResult& m) {
  e.texts = gridOf<std::string>(
      m, [&m](std::size_t i) { return m.cells[i] ? significant(m.cells[i]->value()) : "N/A"; });
  e.values = gridOf<OrNull>(
      m, [&m](std::size_t i) { return m.cells[i] ? OrNull(m.cells[i]->value()) : std::nullopt; });
  e.cells = gridOf<std::optional<CellStatistics>>(m, [&m](std::size_t i) {
    return m.cells[i] ? std::optional<CellStatistics>(cellStatistics(*m.cells[i])) : std::nullopt;
  });
}

// The cells above 100% of their link's peak, where there are any: physically impossible, so the
// peak is wrong (a link the tool took for another) or the measurement is broken (a timer, a copy
// that did not move what it claims).
void addAbovePeak(ReportEntry& e, const MatrixResult& m) {
  Json cells = Json::array();
  for (std::size_t row = 0; row < m.spec.rows; ++row)
    for (std::size_t col = 0; col < m.spec.cols; ++col) {
      const std::optional<double> percent = percentOfPeak(m, row, col);
      if (!(percent && *percent > 100.0)) continue;
      const CellLink& c = m.links[row * m.spec.cols + col];
      cells.push_back({{"row", row},
                       {"col", col},
                       {"cell", c.cell},
                       {"link", c.link.name},
                       {"peak_GBps", c.link.gbPerSecond ? Json(*c.link.gbPerSecond) : Json()},
                       {"percent_of_peak", *percent}});
    }
  if (!cells.empty()) e.abovePeak = std::move(cells);
}

// A link's peak as the report gives it: none for a latency matrix.
std::optional<double> peakOf(const MatrixResult& m, const CellLink& c) {
  return m.spec.unit == Unit::GBps ? c.link.gbPerSecond : std::nullopt;
}

// The links of the measured cells of `m`, each (name, peak, convention) once, in cell order.
std::vector<LinkPeakRecord> linkPeaks(const MatrixResult& m) {
  std::vector<const CellLink*> seen;
  std::vector<LinkPeakRecord> peaks;
  for (const CellLink& c : m.links) {
    if (c.cell.empty()) continue;  // no output writes this cell
    const bool known = std::any_of(seen.begin(), seen.end(), [&c](const CellLink* l) {
      return l->link.name == c.link.name && l->link.gbPerSecond == c.link.gbPerSecond &&
             l->convention == c.convention;
    });
    if (known) continue;
    seen.push_back(&c);
    peaks.push_back({c.link.name, peakOf(m, c), c.convention});
  }
  return peaks;
}

// Per cell the link that bounds it, its peak and the percent of it reached (null where unknown),
// and the outliers; absent when the run did not know the cells' links.
void addPeaks(ReportEntry& e, const MatrixResult& m) {
  if (m.links.size() != m.cells.size()) return;
  e.linkPeaks = linkPeaks(m);
  e.links = gridOf<std::optional<std::string>>(
      m, [&m](std::size_t i) { return std::optional<std::string>(m.links[i].link.name); });
  e.peaks = gridOf<OrNull>(m, [&m](std::size_t i) { return peakOf(m, m.links[i]); });
  e.percents = gridOf<OrNull>(
      m, [&m](std::size_t i) { return percentOfPeak(m, i / m.spec.cols, i % m.spec.cols); });
  e.outliers = outliers(m);
  addAbovePeak(e, m);
}

ReportEntry matrixEntry(const TestcaseResult& result, const MatrixResult& m, bool verbose,
                        const std::string& statistic) {
  ReportEntry e;
  e.name = m.spec.key;
  e.status = Status::Passed;
  e.description = m.spec.title;
  e.sum = m.sum();
  e.unitText = unitName(m.spec.unit);
  e.statistic = statistic;
  addMatrices(e, m);
  addPeaks(e, m);
  if (!m.spec.rowLabels.empty()) e.rowLabels = m.spec.rowLabels;
  if (verbose) {
    // Over present cells only (docs/compatibility.md#c8); absent when there is none rather than a
    // fake value.
    e.min = m.min();
    e.max = m.max();
    e.average = m.average();
  }
  e.bufferSizeMiB = result.sweepSizeMiB;
  // Entries of multi-matrix testcases are named like their SUM lines (docs/compatibility.md#c9);
  // this lets a script still find them by the key it passed to -t.
  if (m.spec.key != result.name) e.testcase = result.name;
  if (result.schedule) {
    e.schedule = scheduleName(*result.schedule);
    if (*result.schedule == PairSchedule::Rounds) e.rounds = result.rounds;
  }
  shapeEntry(e, result.name, m.spec.unit);
  return e;
}

ReportEntry plainEntry(const TestcaseResult& result, Status status) {
  ReportEntry e;
  e.name = result.name;
  e.status = status;
  return e;
}

}  // namespace

void shapeEntry(ReportEntry& entry, const std::string& testcase, Unit unit) {
  const std::shared_ptr<const Testcase> known = findTestcase(testcase);
  entry.unit = known ? known->facts().unit : unit;
  entry.parts = partsOfEntry(entry);
  if (known && !entry.parts.empty())
    entry.parts.front().axes = declaredAxes(known->facts(), entry.parts.front().title);
}

std::vector<ReportEntry> entriesOf(const TestcaseResult& result, bool verbose,
                                   const std::string& statistic) {
  std::vector<ReportEntry> entries;
  switch (result.status) {
  case Status::Passed:
    if (result.matrices.empty()) entries.push_back(plainEntry(result, Status::Passed));
    for (const MatrixResult& m : result.matrices)
      entries.push_back(matrixEntry(result, m, verbose, statistic));
    break;
  case Status::Waived:
    entries.push_back(plainEntry(result, Status::Waived));
    entries.back().waiveReason = result.message;
    break;
  case Status::Error:
    entries.push_back(plainEntry(result, Status::Error));
    entries.back().error = result.message;
    if (!result.detail.empty()) entries.back().errorDetail = result.detail;
    entries.back().bufferSizeMiB = result.sweepSizeMiB;
    break;
  case Status::Running:  // never a finished testcase's
    break;
  }
  if (!entries.empty()) entries.front().measurements = result.measurements;
  return entries;
}

}  // namespace nvbw
