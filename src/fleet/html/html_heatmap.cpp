// The heatmap of one matrix entry, as docs/output.md ("The HTML page") describes it. The grid's
// data-* attributes repeat the report's values so tests can check the picture against the JSON.
#include <algorithm>
#include <initializer_list>
#include <utility>

#include "fleet/comparison/comparison.h"
#include "fleet/expectations/expectations.h"
#include "fleet/html/html_markup.h"
#include "fleet/html/html_sections.h"
#include "model/report_writer.h"

namespace nvbw::html {

namespace {

constexpr double kCellWidth = 84;
constexpr double kCellHeight = 44;
constexpr double kHeaderHeight = 24;
constexpr const char* kOutlierColour = "#e00000";
constexpr const char* kSlowerColour = "#ff3b30";
constexpr const char* kFasterColour = "#1e90ff";
constexpr const char* kUnstableColour = "#ff9500";
constexpr const char* kNoisyColour = "#8e8e93";
constexpr const char* kBelowColour = "#b00020";
constexpr const char* kAbovePeakColour = "#8e24aa";

const OutlierRecord* outlierAt(const ReportEntry& entry, std::size_t row, std::size_t col) {
  for (const OutlierRecord& o : orEmpty(entry.outliers))
    if (o.row == row && o.col == col) return &o;
  return nullptr;
}

HeatmapCell cellOf(const ReportEntry& entry, const NumberGrid& values, const CellMarks& marks,
                   const HeatmapGrid& g, std::size_t row, std::size_t col) {
  HeatmapCell cell;
  cell.row = row, cell.col = col;
  cell.value = values.at(row, col);
  if (cell.value && !g.latency && entry.percents) cell.percent = entry.percents->at(row, col);
  cell.outlier = outlierAt(entry, row, col);
  cell.abovePeak = cell.percent && *cell.percent > 100.0;
  if (const auto found = marks.find({g.name, row, col}); found != marks.end())
    cell.mark = found->second;
  return cell;
}

void addRowLabels(HeatmapGrid& g, const ReportEntry& entry) {
  std::size_t longest = 2;
  for (std::size_t row = 0; row < g.rows; ++row) {
    const bool labelled = entry.rowLabels && row < entry.rowLabels->size();
    g.rowLabels.push_back(labelled ? (*entry.rowLabels)[row] : std::to_string(row));
    longest = std::max(longest, g.rowLabels.back().size());
  }
  g.labelWidth = 16 + 7.5 * static_cast<double>(longest);
}

std::string verdictOf(const ComparedCellRecord* c) { return c ? shown(c->verdict) : ""; }

// How far toward "best" a present cell lies (0..1): its percent of peak when known, otherwise
// its place in the matrix's range, reversed for latency; 0.5 when every present value is equal.
double goodness(const HeatmapCell& cell, const HeatmapGrid& g) {
  if (cell.percent) return *cell.percent / 100.0;
  if (!g.lowest || *g.highest <= *g.lowest) return 0.5;
  const double t = (*cell.value - *g.lowest) / (*g.highest - *g.lowest);
  return g.latency ? 1.0 - t : t;
}

template <typename T>
const T* gridCell(const std::optional<Grid<T>>& grid, std::size_t row, std::size_t col) {
  return grid && grid->contains(row, col) ? &grid->at(row, col) : nullptr;
}

std::string peakLine(const ReportEntry& entry, const HeatmapCell& cell) {
  std::string line = fixed(*cell.percent, 1) + "% of the peak";
  if (const OrNull* peak = gridCell(entry.peaks, cell.row, cell.col); peak && *peak)
    line += " (" + fixed(**peak, 2) + " GB/s)";
  if (const auto* link = gridCell(entry.links, cell.row, cell.col)) line += " of " + shown(*link);
  return line;
}

std::string samplesLine(const ReportEntry& entry, const HeatmapCell& cell) {
  const auto* stats = gridCell(entry.cells, cell.row, cell.col);
  if (!stats || !*stats) return "";
  const CellStatistics& s = **stats;
  std::string line = std::to_string(s.samples.size()) + " samples, min " + fixed(s.min, 2) +
                     ", max " + fixed(s.max, 2);
  if (s.cv) line += ", CV " + fixed(100.0 * *s.cv, 2) + "%";
  return line;
}

std::string comparisonLine(const ComparedCellRecord& c) {
  std::string line = shown(c.verdict);
  if (c.changePercent) line += ": " + changeText(c.changePercent);
  if (c.baseline) line += " vs baseline " + fixed(*c.baseline, 2);
  if (c.bandPercent) line += " (band " + fixed(*c.bandPercent, 2) + "%, " + shown(c.basis) + ")";
  if (c.spreadPercent && c.unstableLimitPercent)
    line += "\nspread " + fixed(*c.spreadPercent, 2) + "% (unstable above " +
            fixed(*c.unstableLimitPercent, 2) + "%)";
  if (c.confirmations && !c.confirmations->empty()) {
    line += "\nconfirmations:";
    for (double value : *c.confirmations) line += " " + fixed(value, 2);
    if (c.confirmedMedian) line += "; median " + fixed(*c.confirmedMedian, 2);
  }
  return line;
}

// The tooltip: every fact the report has about the cell, one per line.
std::string cellTitle(const ReportEntry& entry, const HeatmapCell& cell, const HeatmapGrid& g) {
  std::string title = cellName(cell.row, cell.col) + " row " + g.rowLabels[cell.row] + ", column " +
                      std::to_string(cell.col) + ": ";
  if (!cell.value) return title + "N/A";
  title += fixed(*cell.value, 2) + " " + g.unit;
  if (cell.percent) title += "\n" + peakLine(entry, cell);
  if (const std::string samples = samplesLine(entry, cell); !samples.empty())
    title += "\n" + samples;
  if (cell.outlier && cell.outlier->belowMedianPercent)
    title += "\nOutlier: " + fixed(*cell.outlier->belowMedianPercent, 1) +
             "% below the median of its link class";
  if (cell.mark.verdict) title += "\n" + comparisonLine(*cell.mark.verdict);
  if (cell.mark.below) title += "\n" + belowCellLine(*cell.mark.below);
  if (cell.abovePeak)
    title += "\nAbove 100% of its link's theoretical peak: the peak is wrong or the measurement is "
             "broken";
  return title;
}

std::string verdictMarker(const HeatmapCell& cell, double x, double y) {
  const std::string verdict = verdictOf(cell.mark.verdict);
  const double left = x + kCellWidth - 17, right = x + kCellWidth - 5, mid = (left + right) / 2;
  const double top = y + 5, bottom = y + 15, middle = (top + bottom) / 2;
  const std::string marker = attr("class", "verdict-marker");
  if (verdict == "NOISY")  // a hollow circle: inconclusive
    return emptyElement("circle", marker + attr("cx", number(mid)) + attr("cy", number(middle)) +
                                      attr("r", "4.5") + attr("fill", "none") +
                                      attr("stroke", kNoisyColour) + attr("stroke-width", "2"));
  const auto polygon = [&marker](std::initializer_list<std::pair<double, double>> corners,
                                 const char* colour) {
    std::string points;
    for (const auto& [px, py] : corners)
      points += (points.empty() ? "" : " ") + number(px) + "," + number(py);
    return emptyElement("polygon", marker + attr("points", points) + attr("fill", colour) +
                                       attr("stroke", "#ffffff") + attr("stroke-width", "1.5"));
  };
  if (verdict == "UNSTABLE")  // a diamond: failing, not in one direction
    return polygon({{mid, top}, {right, middle}, {mid, bottom}, {left, middle}}, kUnstableColour);
  if (verdict == "SLOWER")  // a triangle in the corner, pointing down
    return polygon({{left, top}, {right, top}, {mid, bottom}}, kSlowerColour);
  if (verdict == "FASTER")  // pointing up
    return polygon({{left, bottom}, {right, bottom}, {mid, top}}, kFasterColour);
  return "";
}

// BELOW: a bar along the bottom of the cell; above the peak: a dashed frame.
std::string failureMarks(const HeatmapCell& cell, double x, double y) {
  std::string marks;
  if (cell.mark.below)
    marks += emptyElement("rect", attr("class", "below-marker") + attr("x", number(x + 4)) +
                                      attr("y", number(y + kCellHeight - 7)) +
                                      attr("width", number(kCellWidth - 8)) + attr("height", "4") +
                                      attr("fill", kBelowColour));
  if (cell.abovePeak)
    marks +=
        emptyElement("rect", attr("class", "above-peak-marker") + attr("x", number(x + 4)) +
                                 attr("y", number(y + 4)) + attr("width", number(kCellWidth - 8)) +
                                 attr("height", number(kCellHeight - 8)) + attr("fill", "none") +
                                 attr("stroke", kAbovePeakColour) + attr("stroke-width", "2") +
                                 attr("stroke-dasharray", "4 2"));
  return marks;
}

std::string cellAttributes(const HeatmapCell& cell) {
  const std::string verdict = verdictOf(cell.mark.verdict);
  std::string attrs = attr("class", "cell") + attr("data-row", std::to_string(cell.row)) +
                      attr("data-col", std::to_string(cell.col)) +
                      attr("data-value", cell.value ? jsonNumberText(*cell.value) : "");
  if (cell.percent) attrs += attr("data-percent", jsonNumberText(*cell.percent));
  if (cell.mark.verdict) attrs += attr("data-verdict", verdict);
  if (cell.outlier) attrs += attr("data-outlier", "true");
  if (cell.mark.below) attrs += attr("data-below", "true");
  if (cell.abovePeak) attrs += attr("data-above-peak", "true");
  if (cell.mark.below || verdict == "SLOWER" || verdict == "UNSTABLE")  // failing
    attrs += attr("data-failing", "true");
  return attrs;
}

std::string cellText(const std::string& text, double x, double y, const std::string& colour,
                     int size, const std::string& cls) {
  return textElement("text",
                     attr("class", cls) + attr("x", number(x)) + attr("y", number(y)) +
                         attr("fill", colour) + attr("font-size", std::to_string(size)) +
                         attr("text-anchor", "middle"),
                     text);
}

std::string cellMarkup(const ReportEntry& entry, const HeatmapCell& cell, const HeatmapGrid& g) {
  const double x = g.labelWidth + kCellWidth * static_cast<double>(cell.col);
  const double y = kHeaderHeight + kCellHeight * static_cast<double>(cell.row);
  const double inset = cell.outlier ? 2.5 : 1.0;  // a thick frame must stay inside the cell
  const Rgb fill = paletteColour(cell.value ? goodness(cell, g) : 0.0);
  std::string inner = textElement("title", "", cellTitle(entry, cell, g));
  inner += emptyElement(
      "rect",
      attr("x", number(x + inset)) + attr("y", number(y + inset)) +
          attr("width", number(kCellWidth - 2 * inset)) +
          attr("height", number(kCellHeight - 2 * inset)) +
          attr("fill", cell.value ? hexColour(fill) : "url(#na-" + std::to_string(g.index) + ")") +
          (cell.outlier ? attr("stroke", kOutlierColour) + attr("stroke-width", "4") : ""));
  const double centre = x + kCellWidth / 2;
  if (!cell.value) {
    inner += cellText("N/A", centre, y + 27, "#333333", 13, "cell-value na");
  } else {  // the value, above its percent of peak when it has one
    const std::string ink = textColourOn(fill);
    inner += cellText(fixed(*cell.value, 2), centre, y + (cell.percent ? 20 : 27), ink, 13,
                      "cell-value");
    if (cell.percent)
      inner += cellText(fixed(*cell.percent, 1) + "%", centre, y + 35, ink, 10, "cell-percent");
  }
  return element("g", cellAttributes(cell),
                 inner + verdictMarker(cell, x, y) + failureMarks(cell, x, y));
}

std::string axisLabels(const HeatmapGrid& g) {
  std::string labels;
  for (std::size_t col = 0; col < g.cols; ++col)
    labels += textElement(
        "text",
        attr("class", "col-label") +
            attr("x", number(g.labelWidth + kCellWidth * (static_cast<double>(col) + 0.5))) +
            attr("y", "17") + attr("text-anchor", "middle") + attr("font-size", "12"),
        std::to_string(col));
  for (std::size_t row = 0; row < g.rows; ++row)
    labels += textElement(
        "text",
        attr("class", "row-label") + attr("x", number(g.labelWidth - 8)) +
            attr("y", number(kHeaderHeight + kCellHeight * (static_cast<double>(row) + 0.5) + 4)) +
            attr("text-anchor", "end") + attr("font-size", "12"),
        g.rowLabels[row]);
  return labels;
}

}  // namespace

HeatmapGrid heatmapGrid(const ReportEntry& entry, const CellMarks& marks, std::size_t index,
                        const StopRequest& stop) {
  HeatmapGrid g;
  g.name = entry.name;
  g.unit = unitName(entry.unit);
  g.latency = entry.unit == Unit::Nanoseconds;
  g.index = index;
  const NumberGrid& values = *entry.matrix();
  g.rows = values.rows;
  g.cols = values.cols;
  g.cells.reserve(g.rows * g.cols);
  for (std::size_t row = 0; row < g.rows; ++row) {
    throwIfStopped(stop);
    for (std::size_t col = 0; col < g.cols; ++col) {
      const HeatmapCell& cell = g.cells.emplace_back(cellOf(entry, values, marks, g, row, col));
      g.outliers += cell.outlier != nullptr;
      g.compared += cell.mark.verdict != nullptr;
      g.below += cell.mark.below != nullptr;
      g.abovePeak += cell.abovePeak;
      const auto& v = cell.value;
      (!v ? g.na : cell.percent ? g.byPercent : g.byValue) += 1;
      if (!v) continue;
      g.lowest = g.lowest ? std::min(*g.lowest, *v) : *v;
      g.highest = g.highest ? std::max(*g.highest, *v) : *v;
    }
  }
  addRowLabels(g, entry);
  return g;
}

std::string heatmapSvg(const ReportEntry& entry, const HeatmapGrid& g, const StopRequest& stop) {
  const double width = g.labelWidth + kCellWidth * static_cast<double>(g.cols) + 2;
  const double height = kHeaderHeight + kCellHeight * static_cast<double>(g.rows) + 2;
  std::string inner = element("defs", "", hatchPattern("na-" + std::to_string(g.index)));
  inner += axisLabels(g);
  PeriodicStop ticks(stop, 1024);
  for (const HeatmapCell& cell : g.cells) {
    ticks.tick();
    inner += cellMarkup(entry, cell, g);
  }
  return element("svg",
                 attr("class", "heatmap") + attr("data-name", g.name) +
                     attr("data-rows", std::to_string(g.rows)) +
                     attr("data-cols", std::to_string(g.cols)) + attr("width", number(width)) +
                     attr("height", number(height)) +
                     attr("viewBox", "0 0 " + number(width) + " " + number(height)) +
                     attr("role", "img") + attr("aria-label", "heatmap of " + g.name),
                 inner);
}

std::string hatchPattern(const std::string& id) {
  return element(
      "pattern",
      attr("id", id) + attr("width", "8") + attr("height", "8") +
          attr("patternUnits", "userSpaceOnUse") + attr("patternTransform", "rotate(45)"),
      emptyElement("rect", attr("width", "8") + attr("height", "8") + attr("fill", "#e4e4e4")) +
          emptyElement("rect", attr("width", "3") + attr("height", "8") + attr("fill", "#b4b4b4")));
}

}  // namespace nvbw::html
