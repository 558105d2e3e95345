#include <algorithm>
#include <map>
#include <utility>

#include "core/statistics.h"
#include "report/report_builder.h"

namespace nvbw {

std::optional<double> percentOfPeak(const MatrixResult& m, std::size_t row, std::size_t col) {
  if (m.spec.unit != Unit::GBps || m.links.empty()) return std::nullopt;
  const auto& cell = m.at(row, col);
  const std::optional<double>& peak = m.links.at(row * m.spec.cols + col).link.gbPerSecond;
  if (!cell || !peak || *peak <= 0.0) return std::nullopt;
  return cell->value() / *peak * 100.0;
}

namespace {

// A cell is an outlier when it is more than this fraction below the median of its link class.
constexpr double kOutlierFraction = 0.10;

// Cells grouped by link class: the link's name and peak (two cells whose links share a name but
// not a peak, such as PCIe links trained differently, are not compared). Cells whose link is
// unknown are not known to share anything, and are left out.
using LinkClass = std::pair<std::string, std::optional<double>>;

std::map<LinkClass, std::vector<std::size_t>> cellsByClass(const MatrixResult& m) {
  std::map<LinkClass, std::vector<std::size_t>> classes;
  for (std::size_t i = 0; i < m.cells.size(); ++i)
    if (m.cells[i] && m.links[i].link.name != LinkPeak{}.name)
      classes[{m.links[i].link.name, m.links[i].link.gbPerSecond}].push_back(i);
  return classes;
}

}  // namespace

std::vector<OutlierRecord> outliers(const MatrixResult& m) {
  std::vector<OutlierRecord> found;
  if (m.spec.unit != Unit::GBps || m.links.size() != m.cells.size()) return found;
  for (const auto& [linkClass, members] : cellsByClass(m)) {
    if (members.size() < 2) continue;
    std::vector<double> values;
    for (std::size_t i : members) values.push_back(m.cells[i]->value());
    const double med = summarize(values, Statistic::Median);
    if (med <= 0.0) continue;
    for (std::size_t i : members) {
      const double below = 1.0 - m.cells[i]->value() / med;
      if (below > kOutlierFraction)
        found.push_back({i / m.spec.cols, i % m.spec.cols, m.links[i].cell, m.links[i].link.name,
                         below * 100.0, med});
    }
  }
  std::sort(found.begin(), found.end(), [](const OutlierRecord& a, const OutlierRecord& b) {
    return std::make_pair(a.row, a.col) < std::make_pair(b.row, b.col);
  });
  return found;
}

}  // namespace nvbw
