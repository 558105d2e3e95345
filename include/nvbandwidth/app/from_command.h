// --from REPORT: a saved report rendered (--html) and judged (--expect, --min-percent-of-peak)
// without a GPU.
#pragma once

#include "app/app_context.h"
#include "app/fleet_commands.h"
#include "app/options.h"

namespace nvbw {

// --from REPORT with --html, --expect and --min-percent-of-peak: the page first (when asked for),
// then the checks printed (text: each check's lines and summary; -j: {"nvbandwidth": {"version",
// "git_version", "release", "expectations"}}). Exit 0; kExitSlower when a check fails; 1 when the
// page cannot be written. Throws WriteFailed or Interrupted.
int runFromCommand(const Options& options, CommandFiles& files, AppContext& context);

}  // namespace nvbw
