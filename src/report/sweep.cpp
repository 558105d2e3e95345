#include "report/sweep.h"

#include <algorithm>
#include <set>

#include "core/error.h"
#include "core/escape.h"
#include "core/format.h"
#include "core/text.h"
#include "report/text_format.h"

namespace nvbw {
namespace {

UsageError badSweep(const std::string& text) {
  return UsageError(
      "invalid value " + quotedArgument(text) +
      " for --sweep: expected MIN:MAX[:FACTOR] in whole MiB, e.g. 1:1024 or 1:1024:4");
}

std::uint64_t sweepNumber(const std::string& part, const std::string& text) {
  if (!allDigits(part) || part.size() > 12) throw badSweep(text);
  return std::stoull(part);
}

std::vector<std::string> splitColons(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t from = 0;
  for (std::size_t colon; (colon = text.find(':', from)) != std::string::npos; from = colon + 1)
    parts.push_back(text.substr(from, colon - from));
  parts.push_back(text.substr(from));
  return parts;
}

// The entry of matrix `name` at `sizeMiB` that passed, if any.
const ReportEntry* entryAt(const SweepEntries& entries, const std::string& name,
                           std::uint64_t sizeMiB) {
  for (const ReportEntry* e : entries)
    if (e->name == name && e->bufferSizeMiB == sizeMiB && e->passedWithMatrix()) return e;
  return nullptr;
}

// The cells measured at any size, row-major, and the matrix's columns.
std::vector<std::size_t> measuredCells(const SweepEntries& entries, const std::string& name,
                                       std::size_t& cols) {
  std::set<std::size_t> cells;
  for (const ReportEntry* e : entries) {
    if (e->name != name || !e->passedWithMatrix()) continue;
    const NumberGrid& grid = *e->matrix();
    cols = grid.cols;
    for (std::size_t i = 0; i < grid.cells.size(); ++i)
      if (grid.cells[i]) cells.insert(i);
  }
  return {cells.begin(), cells.end()};
}

std::string seriesText(const SweepSeriesRecord& s, const SweepEntries& entries,
                       const std::vector<std::uint64_t>& sizes, bool verbose) {
  std::size_t cols = 1;
  const std::vector<std::size_t> cells =
      verbose ? measuredCells(entries, s.name, cols) : std::vector<std::size_t>{};
  std::string text = "Sweep of " + s.name + " (SUM, " + unitName(s.unit) + "):\n" +
                     rightAligned("size_MiB", 10) + rightAligned("SUM", 12);
  for (std::size_t c : cells) text += rightAligned(cellName(c / cols, c % cols), 10);
  text += "\n";
  for (std::size_t k = 0; k < sizes.size() && k < s.sums.size(); ++k) {
    text += rightAligned(std::to_string(sizes[k]), 10) +
            rightAligned(s.sums[k] ? fixed(*s.sums[k]) : "ERROR", 12);
    const ReportEntry* e = cells.empty() ? nullptr : entryAt(entries, s.name, sizes[k]);
    for (std::size_t c : cells)
      text += rightAligned(fixedOrNA(e ? e->matrix()->cells.at(c) : std::nullopt), 10);
    text += "\n";
  }
  return text;
}

std::string reachLine(const SweepSeriesRecord& s, const std::vector<std::uint64_t>& sizes) {
  if (s.unit != Unit::GBps) return "";
  if (!s.sizeReaching90 || s.sums.size() < sizes.size() || !s.sums.back())
    return "NOTE: " + s.name + ": no 90% size: the largest size did not pass.\n";
  return "NOTE: " + s.name + ": 90% of the bandwidth at " + std::to_string(sizes.back()) +
         " MiB (" + fixed(*s.sums.back()) + " GB/s) is reached at " +
         std::to_string(*s.sizeReaching90) + " MiB.\n";
}

}  // namespace

SweepSpec parseSweep(const std::string& text) {
  const std::vector<std::string> parts = splitColons(text);
  if (parts.size() < 2 || parts.size() > 3) throw badSweep(text);
  SweepSpec spec{sweepNumber(parts[0], text), sweepNumber(parts[1], text),
                 parts.size() == 3 ? sweepNumber(parts[2], text) : 2};
  if (spec.minMiB == 0) throw UsageError("--sweep: the smallest size must be at least 1 MiB");
  if (spec.maxMiB < spec.minMiB)
    throw UsageError("--sweep: the largest size (" + std::to_string(spec.maxMiB) +
                     " MiB) is below the smallest (" + std::to_string(spec.minMiB) + " MiB)");
  if (spec.factor < 2) throw UsageError("--sweep: the factor must be at least 2");
  if (spec.maxMiB > kMaxSweepMiB)
    throw UsageError("--sweep: the largest size is above " + std::to_string(kMaxSweepMiB) +
                     " MiB (1 TiB), more than any GPU holds");
  return spec;
}

std::vector<std::uint64_t> sweepSizes(const SweepSpec& spec) {
  std::vector<std::uint64_t> sizes;
  // size * factor is only formed while it stays below MAX, so it can never wrap around.
  for (std::uint64_t size = spec.minMiB; size < spec.maxMiB; size *= spec.factor) {
    sizes.push_back(size);
    if (size > spec.maxMiB / spec.factor) break;
  }
  sizes.push_back(spec.maxMiB);
  return sizes;
}

std::optional<std::uint64_t> sizeReaching(const std::vector<std::uint64_t>& sizes,
                                          const std::vector<std::optional<double>>& values) {
  if (sizes.empty() || values.size() != sizes.size() || !values.back()) return std::nullopt;
  const double target = 0.9 * *values.back();
  for (std::size_t k = 0; k < sizes.size(); ++k)
    if (values[k] && *values[k] >= target) return sizes[k];
  return std::nullopt;
}

std::vector<SweepSeriesRecord> sweepSeries(const SweepEntries& entries,
                                           const std::vector<std::uint64_t>& sizesMiB) {
  std::vector<SweepSeriesRecord> series;
  for (const ReportEntry* e : entries) {
    const auto size = std::find(sizesMiB.begin(), sizesMiB.end(), e->bufferSizeMiB.value_or(0));
    if (!e->passedWithMatrix() || size == sizesMiB.end()) continue;
    auto s = std::find_if(series.begin(), series.end(),
                          [e](const SweepSeriesRecord& r) { return r.name == e->name; });
    if (s == series.end()) {
      SweepSeriesRecord r;
      r.name = e->name;
      r.testcase = e->testcase.value_or(e->name);
      r.unit = e->unit;
      r.unitText = unitName(e->unit);
      r.sums.resize(sizesMiB.size());
      s = series.insert(series.end(), std::move(r));
    }
    s->sums.at(static_cast<std::size_t>(size - sizesMiB.begin())) = e->sum;
  }
  for (SweepSeriesRecord& s : series)
    if (s.unit == Unit::GBps) s.sizeReaching90 = sizeReaching(sizesMiB, s.sums);
  return series;
}

std::string sweepText(const SweepEntries& entries, const std::vector<std::uint64_t>& sizesMiB,
                      bool verbose) {
  std::string text;
  for (const SweepSeriesRecord& s : sweepSeries(entries, sizesMiB))
    text += seriesText(s, entries, sizesMiB, verbose) + "\n";
  return text;
}

std::string sweepNotes(const SweepEntries& entries, const std::vector<std::uint64_t>& sizesMiB) {
  std::string text;
  for (const SweepSeriesRecord& s : sweepSeries(entries, sizesMiB)) text += reachLine(s, sizesMiB);
  return text;
}

}  // namespace nvbw
