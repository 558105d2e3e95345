// The report as a nlohmann::json document, for the views that still walk one (HTML, metrics,
// expectations, the run's own JSON output) while they move onto the Report: the one reader and
// writer of the model make and read these documents, so what is checked and how it is written is
// theirs alone. Going away with the last of those views; nothing new is to use it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/stop_request.h"
#include "model/report.h"
#include "model/report_files.h"
#include "model/report_reader.h"

namespace nvbw {

// {"nvbandwidth": {...}} with every member the Report holds, as reportJson writes it.
nlohmann::json reportDocument(const Report& report);
// A section of a run object as the writer writes it.
nlohmann::json comparisonSectionJson(const ComparisonSection& section);
nlohmann::json comparedCellJson(const ComparedCellRecord& cell);
// The "expectations" section as the expectation checks make it (an array of checks), typed.
std::vector<ExpectationSection> expectationSectionsOf(const nlohmann::json& section);

// A document read by the report reader (its checks, its messages): throws ReportShapeError, or
// Interrupted.
Report reportOfDocument(const nlohmann::json& document, const ReadOptions& options = {},
                        const StopRequest& stop = {});
// The same checks, the Report let go.
void checkReportShape(const nlohmann::json& document, ReportKind kind,
                      const StopRequest& stop = {});

// A report file read and checked as readReport reads it, and its document.
struct ReadDocument {
  Report report;
  nlohmann::json document;
};
ReadDocument readReportDocument(const NamedFile& file, const ReadOptions& options,
                                const StopRequest& stop);

}  // namespace nvbw
