// The buffer-size sweep: per series an SVG line chart of the matrix's SUM over buffer size (log2
// axis), with the smallest size whose SUM reaches 90% of the SUM at the largest size marked and
// named (the sweep computes that size; the chart only shows it).
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "fleet/html/html_markup.h"
#include "fleet/html/html_sections.h"
#include "model/report_writer.h"

namespace nvbw::html {

namespace {

constexpr double kWidth = 560, kHeight = 300;
constexpr double kLeft = 70, kRight = 20, kTop = 24, kBottom = 48;
constexpr double kPlotWidth = kWidth - kLeft - kRight, kPlotHeight = kHeight - kTop - kBottom;
constexpr const char* kMarkColour = "#d35400";

struct Point {
  double size = 0;  // MiB
  std::optional<double> sum;
};

struct Axes {
  double logMin = 0, logMax = 0, yMax = 1, yStep = 0.2;
  double x(double size) const {
    if (logMax <= logMin) return kLeft + kPlotWidth / 2;
    return kLeft + (std::log2(size) - logMin) / (logMax - logMin) * kPlotWidth;
  }
  double y(double value) const { return kTop + kPlotHeight - value / yMax * kPlotHeight; }
};

// Positive sizes only: a log axis has no place for the others.
std::vector<Point> pointsOf(const std::vector<std::uint64_t>& sizes,
                            const SweepSeriesRecord& series) {
  std::vector<Point> points;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == 0) continue;
    Point p{static_cast<double>(sizes[i]), std::nullopt};
    if (i < series.sums.size() && series.sums[i] && std::isfinite(*series.sums[i]) &&
        *series.sums[i] >= 0)
      p.sum = *series.sums[i];
    points.push_back(p);
  }
  return points;
}

// 1, 2 or 5 times a power of ten, so about five gridlines cover `largest`.
double gridStep(double largest) {
  const double raw = largest / 5;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0})
    if (m * magnitude >= raw) return m * magnitude;
  return 10 * magnitude;
}

Axes axesFor(const std::vector<Point>& points) {
  Axes a;
  double largest = 0;
  if (!points.empty()) a.logMin = a.logMax = std::log2(points.front().size);
  for (const Point& p : points) {
    a.logMin = std::min(a.logMin, std::log2(p.size));
    a.logMax = std::max(a.logMax, std::log2(p.size));
    if (p.sum) largest = std::max(largest, *p.sum);
  }
  // Sums are finite and non-negative (pointsOf); the step and its multiple must be too, or the
  // axis keeps its default.
  const double step = largest > 0 ? gridStep(largest) : 0;
  const double top = step > 0 ? std::ceil(largest / step) * step : 0;
  if (std::isfinite(step) && step > 0 && std::isfinite(top) && top > 0) {
    a.yStep = step;
    a.yMax = top;
  }
  return a;
}

std::string line(double x1, double y1, double x2, double y2, const std::string& extra) {
  return emptyElement("line", attr("x1", number(x1)) + attr("y1", number(y1)) +
                                  attr("x2", number(x2)) + attr("y2", number(y2)) + extra);
}

std::string label(const std::string& text, double x, double y, const std::string& anchor,
                  const std::string& extra = "") {
  return textElement("text",
                     attr("x", number(x)) + attr("y", number(y)) + attr("text-anchor", anchor) +
                         attr("font-size", "11") + extra,
                     text);
}

std::string sizeText(double mib) {
  return mib == std::floor(mib) ? fixed(mib, 0) : jsonNumberText(mib);
}

std::string yGrid(const Axes& a) {
  std::string out;
  // Counted, not accumulated: at most a handful of lines whatever the values (gridStep aims at
  // five; rounding can add one).
  const long lines = std::lround(a.yMax / a.yStep);
  for (long k = 0; k <= std::min(lines, 20L); ++k) {
    const double v = static_cast<double>(k) * a.yStep;
    out += line(kLeft, a.y(v), kWidth - kRight, a.y(v), attr("stroke", "#dddddd"));
    out += label(fixed(v, a.yStep < 1 ? 2 : 0), kLeft - 6, a.y(v) + 4, "end");
  }
  return out;
}

std::string xTicks(const Axes& a, const std::vector<Point>& points) {
  std::string out;
  const std::size_t every = std::max<std::size_t>(1, (points.size() + 11) / 12);
  const double bottom = kHeight - kBottom;
  for (std::size_t i = 0; i < points.size(); i += every) {
    out += line(a.x(points[i].size), bottom, a.x(points[i].size), bottom + 4,
                attr("stroke", "#555555"));
    out += label(sizeText(points[i].size), a.x(points[i].size), bottom + 16, "middle");
  }
  return out;
}

std::string axisTitles(const std::string& unit) {
  const double middle = kTop + kPlotHeight / 2;
  return label("buffer size (MiB, log2 scale)", kLeft + kPlotWidth / 2, kHeight - 10, "middle") +
         label("SUM (" + unit + ")", 14, middle, "middle",
               attr("transform", "rotate(-90 14 " + number(middle) + ")"));
}

// Lines join neighbouring sizes that both have a SUM; a size without one breaks the line.
std::string dataLines(const Axes& a, const std::vector<Point>& points, const std::string& unit) {
  std::string out, polyline;
  auto flush = [&] {
    if (polyline.find(' ') != std::string::npos)
      out += emptyElement("polyline", attr("class", "series") + attr("points", polyline) +
                                          attr("fill", "none") + attr("stroke", "#2c6fbb") +
                                          attr("stroke-width", "2"));
    polyline.clear();
  };
  std::string dots;
  for (const Point& p : points) {
    if (!p.sum) {
      flush();
      continue;
    }
    polyline += (polyline.empty() ? "" : " ") + number(a.x(p.size)) + "," + number(a.y(*p.sum));
    dots += element(
        "circle",
        attr("class", "point") + attr("cx", number(a.x(p.size))) + attr("cy", number(a.y(*p.sum))) +
            attr("r", "3.5") + attr("fill", "#2c6fbb"),
        textElement("title", "", sizeText(p.size) + " MiB: " + fixed(*p.sum, 2) + " " + unit));
  }
  flush();
  return out + dots;
}

// The largest size (the last, sizes ascend) when it has a SUM: what the 90% mark is measured by.
std::optional<Point> largestSize(const std::vector<Point>& points) {
  if (points.empty() || !points.back().sum) return std::nullopt;
  return points.back();
}

std::string ninetyPercentMark(const Axes& a, const SweepSeriesRecord& series,
                              const std::vector<Point>& points) {
  const auto& size = series.sizeReaching90;
  const auto reference = largestSize(points);
  if (!size || *size == 0 || !reference) return "";
  const double mib = static_cast<double>(*size);
  const double x = a.x(mib), y = a.y(0.9 * *reference->sum);
  const bool right = x > kWidth * 0.7;  // the label goes left of the line there, inside the plot
  const std::string dashed = attr("stroke", kMarkColour) + attr("stroke-dasharray", "5,4");
  return element("g", attr("class", "ninety-percent"),
                 line(kLeft, y, kWidth - kRight, y, dashed) +
                     line(x, kTop, x, kHeight - kBottom, dashed) +
                     label("90% at " + sizeText(mib) + " MiB", right ? x - 4 : x + 4, kTop + 12,
                           right ? "end" : "start", attr("fill", kMarkColour)));
}

std::string sweepChart(const std::vector<Point>& points, const SweepSeriesRecord& series) {
  const Axes a = axesFor(points);
  const std::string unit = shown(series.unitText);
  std::string inner = emptyElement("rect", attr("x", number(kLeft)) + attr("y", number(kTop)) +
                                               attr("width", number(kPlotWidth)) +
                                               attr("height", number(kPlotHeight)) +
                                               attr("fill", "#fafafa") + attr("stroke", "#999999"));
  inner += yGrid(a) + xTicks(a, points) + axisTitles(unit) + dataLines(a, points, unit) +
           ninetyPercentMark(a, series, points);
  const auto& size90 = series.sizeReaching90;
  return element("svg",
                 attr("class", "sweep") + attr("data-name", series.name) +
                     attr("data-testcase", shown(series.testcase)) +
                     attr("data-size-90", size90 ? std::to_string(*size90) : "") +
                     attr("width", number(kWidth)) + attr("height", number(kHeight)) +
                     attr("viewBox", "0 0 " + number(kWidth) + " " + number(kHeight)) +
                     attr("role", "img"),
                 inner);
}

std::string chartCaption(const SweepSeriesRecord& series, const std::vector<Point>& points) {
  const std::string& name = series.name;
  const std::string testcase = shown(series.testcase);
  const std::string unit = shown(series.unitText);
  std::string text = name + (testcase == name ? "" : " (testcase " + testcase + ")") + ": ";
  if (const auto reference = largestSize(points))
    text += "SUM " + fixed(*reference->sum, 2) + " " + unit + " at the largest size, " +
            sizeText(reference->size) + " MiB; ";
  else
    text += "no SUM at the largest size; ";
  if (series.sizeReaching90)
    return text + "90% of it first reached at " +
           sizeText(static_cast<double>(*series.sizeReaching90)) + " MiB (dashed lines).";
  return text + (series.unit == Unit::Nanoseconds ? "latency has no 90% size."
                                                  : "no size reaching 90% of it.");
}

std::string chartFigure(const std::vector<std::uint64_t>& sizes, const SweepSeriesRecord& series) {
  const std::vector<Point> points = pointsOf(sizes, series);
  return element("figure", attr("class", "sweep-chart"),
                 sweepChart(points, series) +
                     textElement("figcaption", "", chartCaption(series, points)));
}

}  // namespace

std::string sweepSection(const SweepSection& sweep) {
  std::string charts;
  for (const SweepSeriesRecord& s : orEmpty(sweep.series)) charts += chartFigure(sweep.sizesMiB, s);
  return section(attr("class", "sweep-section") + attr("id", "sweep"), "Buffer-size sweep",
                 textElement("p", "", "Sizes (MiB): " + shown(sweep.sizesMiB)) +
                     element("div", attr("class", "charts"), charts));
}

}  // namespace nvbw::html
