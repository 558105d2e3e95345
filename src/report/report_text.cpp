#include "report/report_text.h"

#include <algorithm>
#include <vector>

#include "core/format.h"
#include "core/statistics.h"
#include "core/text.h"
#include "report/sweep.h"
#include "report/text_format.h"

namespace nvbw {

const char* const kTrailer =
    "NOTE: The reported results may not reflect the full capabilities of the platform.\n"
    "Performance can vary with software drivers, hardware clocks, and system topology.\n\n";

namespace {

// The SUM of a matrix: the entry's, else (a part of upstream's stacked entries) its present cells'.
double sumOf(const MatrixView& m) {
  if (const std::optional<double> sum = m.sum()) return *sum;
  double total = 0.0;
  for (std::size_t r = 0; r < m.rows(); ++r)
    for (std::size_t c = 0; c < m.cols(); ++c) total += m.value(r, c).value_or(0.0);
  return total;
}

std::string sumLine(const MatrixView& m, bool perfFormatter) {
  const std::string sum = fixed(sumOf(m));
  if (!perfFormatter) return "SUM " + m.key() + " " + sum + "\n";
  // Perf dashboards read the sign as "higher is better" (+) or "lower is better" (-).
  return "&&&& PERF " + m.key() + " " + sum + (m.latency() ? " -ns\n" : " +GB/s\n");
}

std::string matrixText(const MatrixView& m, const OutputSettings& form, const std::string* lastOf) {
  // The entry's row labels (bisect pairs) where the part is the whole entry.
  static const std::optional<std::vector<std::string>> none;
  const auto& rowLabels = m.part().wholeEntry ? m.entry().rowLabels : none;
  std::string text = m.part().title + "\n" +
                     formatGrid(m.rows(), m.cols(), rowLabels,
                                [&m](std::size_t r, std::size_t c) { return m.value(r, c); }) +
                     "\n" + sumLine(m, form.perfFormatter);
  if (form.compat == CompatMode::V0_10 && lastOf && !m.latency())
    text +=
        "COEFFICIENT_OF_VARIATION " + *lastOf + " " + fixed(sumCoefficientOfVariation(m)) + "\n";
  return text;
}

// Whether the report is of a -v run: its entries hold MIN/MAX/AVG where a matrix has a present
// cell, and -v's other blocks print nothing where none has.
bool verboseRun(const Report& report) {
  const auto hasMin = [](const ReportEntry& e) { return e.min.has_value(); };
  return report.testcases &&
         std::any_of(report.testcases->begin(), report.testcases->end(), hasMin);
}

// One testcase's stdout lines: consecutive entries of the same testcase (or of its sweep, in a run
// of `sweepSizes`). `lastStarted`: the testcase whose `Running` line was printed last.
std::string testcaseText(const std::vector<const ReportEntry*>& entries,
                         const std::vector<std::uint64_t>& sweepSizes, const OutputSettings& form,
                         std::string& lastStarted) {
  const ReportEntry& first = *entries.front();
  if (std::string line = statusLine(first, form.compat); !line.empty()) return line;
  const std::string key = testcaseOf(first);
  // A sweep's run printed one `Running` line for consecutive sweeps of a testcase
  // (output_text.cpp).
  std::string text = !sweepSizes.empty() && key == lastStarted ? "" : "Running " + key + ".\n";
  lastStarted = key;
  if (first.bufferSizeMiB) return text + sweepText(entries, sweepSizes, form.verbose);
  if (form.verbose) text += sampleLines(first.measurements);
  for (const ReportEntry* e : entries)
    if (e->passedWithMatrix()) text += entryText(*e, form, e == entries.back() ? &key : nullptr);
  return text;
}

// Where the entries of the testcase (or of its sweep) that start at `i` end: one testcase's
// matrices, each once (at each size of a sweep).
std::size_t groupEnd(const std::vector<ReportEntry>& entries, std::size_t i) {
  const ReportEntry& first = entries[i];
  const bool sweep = first.bufferSizeMiB.has_value();
  if (!sweep && !(first.status == Status::Passed && first.testcase)) return i + 1;
  std::size_t end = i + 1;
  const auto seen = [&](const ReportEntry& e) {
    return std::any_of(entries.begin() + i, entries.begin() + end, [&e](const ReportEntry& o) {
      return o.name == e.name && o.bufferSizeMiB == e.bufferSizeMiB;
    });
  };
  while (end < entries.size() && testcaseOf(entries[end]) == testcaseOf(first) &&
         !seen(entries[end]) &&
         (sweep ? entries[end].bufferSizeMiB.has_value() : entries[end].status == Status::Passed))
    ++end;
  return end;
}

}  // namespace

std::string statusLine(const ReportEntry& e, CompatMode compat) {
  if (e.status == Status::Waived && compat == CompatMode::V0_10)
    return "Waived " + e.name + ": " + withoutNumberTokens(e.waiveReason.value_or("")) + "\n";
  if (e.status == Status::Waived) return "Waived: \n";  // upstream v0.8's: no name, no reason
  const std::string message = e.status == Status::Error ? e.error.value_or("") : "";
  auto startsEnds = [&message](std::string_view start, std::string_view end) {
    return message.size() > start.size() + end.size() && startsWith(message, start) &&
           endsWith(message, end);
  };
  if (startsEnds("Testcase index ", " out of bound!") ||
      (startsEnds("Testcase ", " not found!") && message.find(" failed: ") == std::string::npos))
    return "ERROR: " + message + "\n";
  return "";
}

double sumCoefficientOfVariation(const MatrixView& m) {
  std::vector<const std::vector<double>*> present;
  for (std::size_t r = 0; r < m.rows(); ++r)
    for (std::size_t c = 0; c < m.cols(); ++c)
      if (m.value(r, c))
        if (const CellStatistics* s = m.statistics(r, c)) present.push_back(&s->samples);
  if (present.empty()) return 0.0;
  std::size_t samples = present.front()->size();
  for (const auto* cell : present) samples = std::min(samples, cell->size());
  std::vector<double> sums(samples, 0.0);
  for (const auto* cell : present)
    for (std::size_t k = 0; k < samples; ++k) sums[k] += (*cell)[k];
  if (sums.size() < 2) return 0.0;
  return describeSamples(sums).cv.value_or(0.0);
}

std::string testcaseOf(const ReportEntry& e) { return e.testcase.value_or(e.name); }

std::string entryText(const ReportEntry& e, const OutputSettings& form, const std::string* lastOf) {
  std::string text;
  for (const MatrixPart& part : e.parts) {
    const bool last = &part == &e.parts.back();
    text += matrixText(MatrixView(e, part), form, last ? lastOf : nullptr);
    if (last && form.verbose)
      text += verboseSummary(e) + percentOfPeakBlock(e) + cellStatisticsBlock(e);
    text += "\n";
  }
  return text;
}

std::string savedRunText(const Report& report, const OutputSettings& given) {
  OutputSettings form = given;
  form.verbose = form.verbose || verboseRun(report);
  const std::vector<std::uint64_t> sweepSizes =
      report.sweep      ? report.sweep->sizesMiB
      : report.settings ? report.settings->sweepMiB.value_or(std::vector<std::uint64_t>{})
                        : std::vector<std::uint64_t>{};
  std::string text, lastStarted;
  if (report.testcases) {
    const std::vector<ReportEntry>& entries = *report.testcases;
    for (std::size_t i = 0, end; i < entries.size(); i = end) {
      end = groupEnd(entries, i);
      std::vector<const ReportEntry*> group;
      for (std::size_t k = i; k < end; ++k) group.push_back(&entries[k]);
      text += testcaseText(group, sweepSizes, form, lastStarted);
    }
  }
  if (!report.interrupted && !report.error) text += kTrailer;
  return text;
}

}  // namespace nvbw
