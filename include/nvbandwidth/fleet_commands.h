// The commands that need no GPU: --compare BASELINE CURRENT and --html FILE --from REPORT.
#pragma once

#include "nvbandwidth/application.h"
#include "nvbandwidth/options.h"

namespace nvbw {

// Compares two saved reports: the table of the cells that are not SAME and the summary (JSON
// with -j: {"nvbandwidth": {"version", "git_version", "comparison"}}); with --html also the
// current report with its verdicts as HTML. Exit 0, or kExitSlower when a cell is SLOWER;
// unreadable reports are usage errors (exit 2).
int runCompareCommand(const Options& options, AppContext& context);

// Renders a saved report as HTML (--html FILE --from REPORT). Exit 0; 2 when the report cannot
// be read, 1 when the HTML cannot be written.
int runRenderCommand(const Options& options, AppContext& context);

}  // namespace nvbw
