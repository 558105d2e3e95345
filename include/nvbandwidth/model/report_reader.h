// The one reader of report documents: the text of a saved report (this tool's, every layout it
// has written; upstream v0.8's and v0.10's) read into a Report in one pass, front to back, as
// hostile input. Nothing the views use reaches them unchecked: the keys they read have their
// types, their values possible ranges and their matrices the shapes of the report's GPUs, for
// this tool's layout and for upstream's (whose bidirectional testcases stack three matrices in
// one entry, and whose cells are strings, "N/A" among them). What is checked and how it is
// refused is below; everything else is only checked to be JSON.
//
// Limits: JSON nested at most kMaxReportDepth levels; at most documentBudget(text size) of
// memory as a document (model/json.h); at most kMaxReportGpus GPUs, matrices of at
// most 3 x GPUs rows and GPUs columns. A text that is not JSON within them is refused with
// JsonInputError (its first fault, whatever else is wrong: the reader finishes the text before
// reporting a fault of the report); one that is JSON but not a usable report with
// ReportShapeError, whose message says where ("nvbandwidth.testcases[3] (\"key\").values[0][1]")
// and what is wrong.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "core/stop_request.h"
#include "model/json.h"
#include "model/report.h"
#include "model/report_limits.h"

namespace nvbw {

// Reads the text of a report (the memory budget: documentBudget of its size). Throws
// JsonInputError, ReportShapeError, or Interrupted when `stop` reports a signal (asked every
// entry and matrix row).
Report readReportText(const std::string& text, const ReadOptions& options = {},
                      const StopRequest& stop = {});

}  // namespace nvbw
