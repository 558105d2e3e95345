// JSON output: the run's Report (report_builder.h), written at the end of the run by the report
// model's writer as upstream v0.8's document (model/json_style.h layout) with the differences of
// docs/compatibility.md.
#include "report/output_json.h"

#include <ostream>

#include "model/report_writer.h"
#include "report/report_builder.h"

namespace nvbw {

std::unique_ptr<Output> makeJsonOutput(std::ostream& out, OutputSettings settings) {
  return std::make_unique<ReportBuilder>(settings, [&out](const Report& report) {
    writeReportJson(out, report);
    out << "\n" << std::flush;
  });
}

}  // namespace nvbw
