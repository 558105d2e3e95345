// The run's Report, built from its steps as they happen: the one receiver of the engine's results
// (output.h), converting each finished testcase once into its entries (entriesOf) and appending
// them, then telling its view (the text) what was appended. -j writes it at the end of the run;
// --baseline, --expect, --confirm, --output, --html and --metrics take it as it is, without the
// document being written and read back.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/results.h"
#include "model/report.h"
#include "report/output.h"
#include "report/report_text.h"

namespace nvbw {

// The version of the JSON document's layout (top-level "schema_version"); docs/ holds the schema.
inline constexpr const char* kJsonSchemaVersion = "1.0";

class ReportBuilder : public Output {
 public:
  // `view` is told of every step once the Report has taken it, but the end: whoever owns the view
  // finishes it, when the run's verdicts have been printed.
  explicit ReportBuilder(OutputSettings settings = {}, ReportView* view = nullptr)
      : settings_(settings), view_(view) {
    report_.testcases.emplace();
  }

  void header(const RunHeader& header) override;
  void testcaseStarted(const std::string& key) override;
  void testcaseFinished(const TestcaseResult& result) override;
  void globalError(const std::string& message, const std::string& detail) override;
  void sweepFinished(const std::string& testcase,
                     const std::vector<std::uint64_t>& sizesMiB) override;
  void finish(const RunEnd& end) override;

  const Report& report() const { return report_; }
  Report& report() { return report_; }

 private:
  void record(const RunHeader& header);
  void addWarning(const std::string& line);

  OutputSettings settings_;
  ReportView* view_;
  std::string statistic_ = "median";  // of the cells' samples, as "settings" names it
  Report report_;
  std::string running_;
  std::optional<std::size_t> sweepStart_;  // the first entry of the sweep under way
};

// What an entry of testcase `testcase` is, from the registry's facts of that testcase
// (plans/testcase.h, findTestcase): its unit and its one matrix (the run writes each matrix of a
// testcase as an entry of its own) with the axes the testcase declares. A name the registry does
// not know (results made up in tests) takes `unit`, the matrix's own, and its title's axes.
// `entry` holds its values and title already.
void shapeEntry(ReportEntry& entry, const std::string& testcase, Unit unit);

// The entries of one testcase's result, as -j writes them: one per matrix (values, upstream's
// strings, each cell's samples and statistics, links, peaks, percents of peak, outliers, cells
// above their peak; -v's sample lines on the first), or one with the waive reason or the error.
// `verbose`: -v's min, max and average; `statistic`: "median" or "mean", of the cells' samples.
std::vector<ReportEntry> entriesOf(const TestcaseResult& result, bool verbose,
                                   const std::string& statistic);

// ---- What the peaks say about the measured cells (peak_assessment.cpp; pure) ----

// value / peak x 100 for a present bandwidth cell whose peak is known; nullopt otherwise.
std::optional<double> percentOfPeak(const MatrixResult& m, std::size_t row, std::size_t col);

// Present bandwidth cells more than 10% below the median of the present cells with
// the same link name and peak (at least two of them), in cell order; cells of unknown links are
// not compared. Latency matrices have none.
std::vector<OutlierRecord> outliers(const MatrixResult& m);

}  // namespace nvbw
