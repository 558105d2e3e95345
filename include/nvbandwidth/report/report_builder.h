// The run's Report, built from its steps as they happen (an Output among the run's views): the
// header's facts and settings, each testcase's entries with their cells, links and peaks, the
// sweep, the verdicts, and how the run ended. The JSON output writes it (model/report_writer.h)
// at the end of the run; --baseline, --expect, --confirm, --output, --html and --metrics take it
// as it is, without the document being written and read back.
#pragma once

#include <string>
#include <vector>

#include "model/report.h"
#include "report/output.h"
#include "report/report_entries.h"

namespace nvbw {

// The version of the JSON document's layout (top-level "schema_version"); docs/ holds the schema.
inline constexpr const char* kJsonSchemaVersion = "1.0";

class ReportBuilder final : public Output {
 public:
  explicit ReportBuilder(OutputSettings settings = {}) : settings_(settings) {}

  void header(const RunHeader& header) override;
  void testcaseStarted(const std::string& key) override { running_ = key; }
  void testcaseFinished(const TestcaseResult& result) override;
  void globalError(const std::string& message, const std::string& detail) override;
  void sweepFinished(const SweepTable& table) override;
  void finish(const RunEnd& end) override;

  const Report& report() const { return report_; }
  Report& report() { return report_; }

 private:
  void addWarning(const std::string& line);
  void addEntry(ReportEntry entry);

  OutputSettings settings_;
  Statistic statistic_ = Statistic::Median;
  Report report_;
  std::string running_;
};

}  // namespace nvbw
