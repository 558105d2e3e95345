// The one reader of report documents: the text of a saved report (this tool's, every layout it
// has written; upstream v0.8's and v0.10's) read into a Report as hostile input. What a report must
// be, its limits and how a fault is refused: docs/report-files.md, "Reading". A text that is not
// JSON within the limits is refused with JsonInputError (its first fault: the text is read to its
// end before the report is checked); one that is JSON but not a usable report with
// ReportShapeError, whose message says where ("nvbandwidth.testcases[3] (\"key\").values[0][1]")
// and what is wrong.
#pragma once

#include <string>

#include "core/stop_request.h"
#include "model/json.h"
#include "model/report.h"
#include "model/report_limits.h"

namespace nvbw {

// Throws JsonInputError, ReportShapeError, or Interrupted when `stop` reports a signal (asked
// every entry and matrix row).
Report readReportText(const std::string& text, const ReadOptions& options = {},
                      const StopRequest& stop = {});

}  // namespace nvbw
