// Tests spell the reports they feed the tool as nlohmann documents and look at what it writes as
// one; the program itself never holds a document (its Report is read and written by the model,
// model/report_files.h: readReportText, and report_writer.h). These turn one into the other through
// the model's own text interface, so what a test checks is what the tool reads and writes.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/stop_request.h"
#include "model/report.h"
#include "model/report_files.h"
#include "model/report_writer.h"

namespace nvbw {

// A document read as the tool reads a report file (its checks, its messages): throws
// ReportShapeError, JsonInputError or Interrupted.
inline Report reportOfDocument(const nlohmann::json& document, const ReadOptions& options = {},
                               const StopRequest& stop = {}) {
  return readReportText(document.dump(), options, stop);
}

// The same checks, the Report let go.
inline void checkReportShape(const nlohmann::json& document, ReportKind kind,
                             const StopRequest& stop = {}) {
  ReadOptions options;
  options.kind = kind;
  reportOfDocument(document, options, stop);
}

// {"nvbandwidth": {...}} as the writer writes the Report.
inline nlohmann::json reportDocument(const Report& report) {
  return nlohmann::json::parse(reportJson(report));
}

// A section of a run object as the writer writes it.
inline nlohmann::json comparisonSectionJson(const ComparisonSection& section) {
  Report holder;
  holder.comparison = section;
  return reportDocument(holder)["nvbandwidth"]["comparison"];
}
inline nlohmann::json comparedCellJson(const ComparedCellRecord& cell) {
  ComparisonSection section;
  section.cells = std::vector<ComparedCellRecord>{cell};
  return comparisonSectionJson(section)["cells"][0];
}
inline nlohmann::json expectationSectionsJson(const std::vector<ExpectationSection>& sections) {
  Report holder;
  holder.expectations = sections;
  return reportDocument(holder)["nvbandwidth"]["expectations"];
}

}  // namespace nvbw
