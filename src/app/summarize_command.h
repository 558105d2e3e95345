// `--summarize REPORT...`: many nodes' saved reports as one table (fleet/summary/fleet_summary.h),
// printed as text or JSON (-j), and written as a page (--html FILE, --output x.html) or to
// --output in the format its name asks for. No GPU.
#pragma once

#include "app/app_context.h"
#include "app/fleet_commands.h"
#include "app/options.h"

namespace nvbw {

// Exit 3 when a node is flagged or a report cannot be read, 1 when a file cannot be written,
// else 0. -t names the testcases to show (every one by default). Throws WriteFailed (standard
// output) or Interrupted.
int runSummarizeCommand(const Options& options, const CommandFiles& files, AppContext& context);

}  // namespace nvbw
