#include "report/text_format.h"

#include <algorithm>

#include "core/format.h"
#include "core/statistics.h"

namespace nvbw {

namespace {

constexpr std::size_t kLabelWidth = 2;  // upstream: max(2, longest row label)
constexpr int kCellWidth = 10;

bool anyValue(const NumberGrid* g) {
  return g && std::any_of(g->cells.begin(), g->cells.end(), [](const OrNull& v) { return v; });
}

}  // namespace

std::string fixedOrNA(const OrNull& value) { return value ? fixed(*value) : "N/A"; }

// Upstream switches std::cout to fixed/2 for good; every number it prints after the first matrix
// has two decimals. We format into local strings instead so no caller's stream state changes.
std::string formatGrid(std::size_t rows, std::size_t cols,
                       const std::optional<std::vector<std::string>>& rowLabels,
                       const std::function<OrNull(std::size_t, std::size_t)>& value) {
  // Row labels: the index, or the plan's labels (bisect pairs), in a column as wide as the widest.
  auto rowLabel = [&rowLabels](std::size_t row) {
    return rowLabels && row < rowLabels->size() ? (*rowLabels)[row] : std::to_string(row);
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
      text += rightAligned(fixedOrNA(value(row, col)), kCellWidth);
    text += '\n';
  }
  return text;
}

std::string verboseSummary(const ReportEntry& e) {
  if (!e.min || !e.max || !e.average) return "";  // no present cell: nothing meaningful to print
  return "MIN " + e.name + " " + fixed(*e.min) + "\nMAX " + e.name + " " + fixed(*e.max) +
         "\nAVG " + e.name + " " + fixed(*e.average) + "\n";
}

std::string percentOfPeakBlock(const ReportEntry& e) {
  if (e.unit != Unit::GBps || !e.percents || !e.peaks || !anyValue(e.matrix()) ||
      !anyValue(&*e.peaks))
    return "";
  const NumberGrid& percents = *e.percents;
  std::string text = "Percent of theoretical peak of " + e.name + ":\n";
  text +=
      formatGrid(percents.rows, percents.cols, e.rowLabels,
                 [&percents](std::size_t row, std::size_t col) { return percents.at(row, col); });
  for (const LinkPeakRecord& l : e.linkPeaks.value_or(std::vector<LinkPeakRecord>{}))
    text += "Peak of " + l.link.value_or("") + ": " +
            (l.peakGBps ? fixed(*l.peakGBps) + " GB/s" : std::string("unknown")) + " (" +
            l.convention.value_or("") + ")\n";
  return text;
}

std::string cellStatisticsBlock(const ReportEntry& e) {
  if (!anyValue(e.matrix()) || !e.cells) return "";
  std::string text = "Cell statistics of " + e.name + " (" + unitName(e.unit) + ", " +
                     e.statistic.value_or("median") + " reported):\n";
  text += rightAligned("cell", 8) + rightAligned("samples", 9);
  for (const char* column : {"min", "max", "mean", "median", "stddev", "CV(%)"})
    text += rightAligned(column, kCellWidth);
  text += '\n';
  for (std::size_t row = 0; row < e.cells->rows; ++row)
    for (std::size_t col = 0; col < e.cells->cols; ++col) {
      const std::optional<CellStatistics>& s = e.cells->at(row, col);
      if (!s) continue;
      text +=
          rightAligned(cellName(row, col), 8) + rightAligned(std::to_string(s->samples.size()), 9);
      for (double v : {s->min, s->max, s->mean, s->median, s->stddev})
        text += rightAligned(fixed(v), kCellWidth);
      text += rightAligned(s->cv ? fixed(*s->cv * 100) : "N/A", kCellWidth) + '\n';
    }
  return text;
}

std::string sampleLines(const std::vector<MeasurementRecord>& records) {
  std::string text;
  for (const MeasurementRecord& r : records) {
    std::size_t samples = 0;
    for (const SampleSeries& s : r.series) samples = std::max(samples, s.samples.size());
    for (std::size_t k = 0; k < samples; ++k)
      for (const SampleSeries& s : r.series)
        if (k < s.samples.size())
          text += "\tSample " + std::to_string(k) + ": " + s.label + ": " + fixed(s.samples[k]) +
                  " " + unitName(s.unit) + "\n";
  }
  return text;
}

std::string noisyCellsNote(const ReportEntry& e) {
  if (!e.cells) return "";
  std::string cells;
  for (std::size_t row = 0; row < e.cells->rows; ++row)
    for (std::size_t col = 0; col < e.cells->cols; ++col) {
      const std::optional<CellStatistics>& s = e.cells->at(row, col);
      if (s && s->cv && *s->cv > kNoisyCv)
        cells += (cells.empty() ? "" : ", ") + cellName(row, col) + " " + fixed(*s->cv * 100) + "%";
    }
  if (cells.empty()) return "";
  return "NOTE: " + e.name + ": samples vary by more than " + fixed(kNoisyCv * 100) +
         "% (coefficient of variation) in " + cells + "\n";
}

std::string outlierNotes(const ReportEntry& e) {
  std::string text;
  for (const OutlierRecord& o : e.outliers.value_or(std::vector<OutlierRecord>{}))
    text += "NOTE: " + e.name + ": " + o.cell.value_or("") + " (" + o.link.value_or("") + ") is " +
            fixed(o.belowMedianPercent.value_or(0.0)) + "% below the median of its link class (" +
            fixed(o.classMedian.value_or(0.0)) + " GB/s).\n";
  return text;
}

std::vector<std::string> abovePeakWarnings(const ReportEntry& e) {
  std::vector<std::string> lines;
  if (!e.abovePeak || !e.abovePeak->is_array()) return lines;
  for (const Json& cell : *e.abovePeak) {
    const Json& peak = cell.at("peak_GBps");
    lines.push_back("WARNING: " + e.name + ": " + cell.at("cell").get<std::string>() + " at " +
                    fixed(cell.at("percent_of_peak").get<double>()) +
                    "% of the theoretical peak of its link (" + cell.at("link").get<std::string>() +
                    ", " + fixed(peak.is_number() ? peak.get<double>() : 0.0) +
                    " GB/s): the peak is wrong or the measurement is broken.");
  }
  return lines;
}

}  // namespace nvbw
