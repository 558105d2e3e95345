// The run's Report, built from its steps as they happen: the one receiver of the engine's results
// (output.h), converting each finished testcase once into its entries (report_entries.h) and
// appending them, then telling its view (report_view.h: the text) what was appended. It holds
// the header's facts and settings, each testcase's entries with their cells, links and peaks,
// the sweep, the verdicts, and how the run ended. -j writes it (model/report_writer.h) at the end
// of the run; --baseline, --expect, --confirm, --output, --html and --metrics take it as it is,
// without the document being written and read back.
#pragma once

#include <optional>
#include <string>
#include <vector>

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

}  // namespace nvbw
