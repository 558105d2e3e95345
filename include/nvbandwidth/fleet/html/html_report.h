// The HTML view of a report (docs/output.md, "The HTML page"), rendered from the Report alone, so
// that anything it shows can be checked against the report's JSON.
#pragma once

#include <string>

#include "core/stop_request.h"
#include "model/report.h"

namespace nvbw {

// `report` is a run's (its optional comparison and sweep sections among it), or a comparison's
// alone (`--compare -j`). Throws std::runtime_error when it has neither testcases nor a
// comparison, Interrupted when `stop` reports a signal (asked every row of a heatmap and every
// few thousand cells).
std::string renderHtmlReport(const Report& report, const StopRequest& stop = {});

}  // namespace nvbw
