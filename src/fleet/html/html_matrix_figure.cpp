// What goes around a heatmap: the caption that says how it is coloured, the legend, the SUM
// (and -v's MIN, MAX, AVG), the links' peaks and the note listing the outliers.
#include "fleet/html/html_markup.h"
#include "fleet/html/html_sections.h"

namespace nvbw::html {

namespace {

std::string rangeText(const HeatmapGrid& g) {
  return "value relative to this matrix's range, " + fixed(*g.lowest, 2) + " to " +
         fixed(*g.highest, 2) + " " + g.unit +
         (g.latency ? " (latency: lower is better)" : " (higher is better)");
}

std::string colourText(const HeatmapGrid& g) {
  if (g.byPercent + g.byValue == 0) return "none; every cell is N/A.";
  if (g.byPercent == 0) return rangeText(g) + ".";
  std::string text = "percent of the theoretical peak of each cell's link (0 to 100%";
  if (g.abovePeak > 0) text += "; cells above 100% coloured as 100%";
  text += ")";
  if (g.byValue == 0) return text + ".";
  return text + " for the " + std::to_string(g.byPercent) +
         " cells whose peak is known; the other " + std::to_string(g.byValue) + " by " +
         rangeText(g) + ".";
}

std::string captionText(const ReportEntry& entry, const HeatmapGrid& g) {
  return "Colour: " + colourText(g) + " Cell value: the " + entry.statistic.value_or("median") +
         " of its samples, in " + g.unit + ", 2 decimals (full precision in the tooltip).";
}

std::string swatches(std::size_t count) {
  std::string inner;
  for (std::size_t i = 0; i < count; ++i) {
    const double t = (static_cast<double>(i) + 0.5) / static_cast<double>(count);
    inner +=
        emptyElement("rect", attr("x", std::to_string(i * 14)) + attr("width", "14") +
                                 attr("height", "14") + attr("fill", hexColour(paletteColour(t))));
  }
  return element("svg",
                 attr("class", "swatches") + attr("width", std::to_string(count * 14)) +
                     attr("height", "14"),
                 inner);
}

// A legend entry: its swatch or marks, then what they mean.
std::string legendItem(const std::string& swatch, const std::string& meaning) {
  return element("span", attr("class", "legend-item"), swatch + textElement("span", "", meaning));
}

// An empty <span> that the style sheet draws as the swatch `cls`.
std::string swatch(const char* cls) { return element("span", attr("class", cls), ""); }

std::string scaleLegend(const HeatmapGrid& g) {
  std::string items;
  if (g.byPercent > 0)
    items += legendItem(textElement("span", "", "0%") + swatches(10), "100% of peak");
  if (g.byValue > 0) {
    // Worst on the left, as on the percent scale: for latency that is the highest value.
    const double left = g.latency ? *g.highest : *g.lowest;
    const double right = g.latency ? *g.lowest : *g.highest;
    items += legendItem(textElement("span", "", fixed(left, 2)) + swatches(10),
                        fixed(right, 2) + " " + g.unit);
  }
  return items;
}

std::string markerLegend(const HeatmapGrid& g) {
  std::string items;
  const std::string id = "na-legend-" + std::to_string(g.index);
  if (g.na > 0)
    items +=
        legendItem(element("svg", attr("width", "14") + attr("height", "14"),
                           element("defs", "", hatchPattern(id)) +
                               emptyElement("rect", attr("width", "14") + attr("height", "14") +
                                                        attr("fill", "url(#" + id + ")"))),
                   "N/A (not measured or does not apply)");
  if (g.outliers > 0) items += legendItem(swatch("outlier-swatch"), "outlier");
  if (g.compared > 0)
    items += legendItem(textElement("span", attr("class", "slower-mark"), "\u25BC") +
                            textElement("span", "", "slower than baseline") +
                            textElement("span", attr("class", "faster-mark"), "\u25B2") +
                            textElement("span", "", "faster") +
                            textElement("span", attr("class", "unstable-mark"), "\u25C6") +
                            textElement("span", "", "unstable") +
                            textElement("span", attr("class", "noisy-mark"), "\u25CB"),
                        "noisy (not failing)");
  if (g.below > 0) items += legendItem(swatch("below-swatch"), "BELOW its expectation");
  if (g.abovePeak > 0)
    items += legendItem(swatch("above-peak-swatch"), "above 100% of its peak: impossible");
  return items;
}

std::string summaryLines(const ReportEntry& entry, const HeatmapGrid& g) {
  const std::string unit = " " + g.unit;
  std::string text = "SUM " + g.name + " " + fixedOr(entry.sum) + unit;
  std::string lines = textElement("p", attr("class", "sum"), text);
  if (entry.min && entry.max && entry.average)
    lines += textElement("p", attr("class", "min-max"),
                         "MIN " + fixed(*entry.min, 2) + unit + ", MAX " + fixed(*entry.max, 2) +
                             unit + ", AVG " + fixed(*entry.average, 2) + unit);
  return lines;
}

std::string linkPeaksLine(const ReportEntry& entry) {
  if (!entry.linkPeaks || entry.linkPeaks->empty()) return "";
  std::string text;
  for (const LinkPeakRecord& link : *entry.linkPeaks) {
    text += (text.empty() ? "Links: " : "; ") + shown(link.link);
    if (link.peakGBps)
      text += ", peak " + fixed(*link.peakGBps, 2) + " GB/s " + shown(link.convention);
  }
  return textElement("p", attr("class", "link-peaks"), text);
}

std::string outlierItem(const OutlierRecord& o, const HeatmapGrid& g) {
  std::string text = nvbw::cellName(o.row, o.col) + " " + shown(o.cell) + " over " + shown(o.link);
  for (const HeatmapCell& cell : g.cells)
    if (cell.outlier == &o && cell.value) text += ": " + fixed(*cell.value, 2) + " " + g.unit;
  if (o.belowMedianPercent && o.classMedian)
    text += ", " + fixed(*o.belowMedianPercent, 1) + "% below the class median " +
            fixed(*o.classMedian, 2) + " " + g.unit;
  return textElement("li", "", text);
}

std::string outlierNote(const ReportEntry& entry, const HeatmapGrid& g) {
  if (!entry.outliers || entry.outliers->empty()) return "";
  std::string items;
  for (const OutlierRecord& o : *entry.outliers) items += outlierItem(o, g);
  return element("div", attr("class", "outliers"),
                 textElement("p", "",
                             std::to_string(entry.outliers->size()) +
                                 " outlier(s), framed in red: more than 10% below the median of "
                                 "the cells on the same link") +
                     element("ul", "", items));
}

// Cells above 100% of their link's peak, in words.
std::string abovePeakNote(const HeatmapGrid& g) {
  if (g.abovePeak == 0) return "";
  return textElement(
      "p", attr("class", "above-peak"),
      std::to_string(g.abovePeak) +
          " cell(s) above 100% of their link's theoretical peak (dashed frame): no "
          "hardware can do that, so the peak is wrong or the measurement is broken.");
}

}  // namespace

std::string matrixFigure(const ReportEntry& entry, const CellMarks& marks, std::size_t index,
                         const StopRequest& stop) {
  const HeatmapGrid g = heatmapGrid(entry, marks, index, stop);
  return element("figure", attr("class", "matrix"),
                 element("div", attr("class", "heatmap-scroll"), heatmapSvg(entry, g, stop)) +
                     textElement("figcaption", "", captionText(entry, g)) +
                     element("div", attr("class", "legend"), scaleLegend(g) + markerLegend(g)) +
                     summaryLines(entry, g) + linkPeaksLine(entry) + outlierNote(entry, g) +
                     abovePeakNote(g));
}

}  // namespace nvbw::html
