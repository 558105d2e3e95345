// `--summarize REPORT...`: many nodes' saved reports as one table (fleet/summary/fleet_summary.h),
// printed as text or JSON (-j), and written as a page (--html FILE, --output x.html) or to
// --output in the format its name asks for. No GPU.
#pragma once

#include <string>
#include <vector>

#include "app/app_context.h"
#include "app/fleet_commands.h"
#include "app/options.h"

namespace nvbw {

// Exit 3 when a node is flagged or a report cannot be read, 1 when a file cannot be written,
// else 0. `testcases`: the names to show (-t/-p resolved against the registry, matrix keys such
// as "..._read1" as given); empty: every testcase a report has. `files.summarized`: the reports
// found (else the paths are walked here). Throws WriteFailed (standard output) or Interrupted.
int runSummarizeCommand(const Options& options, const std::vector<std::string>& testcases,
                        const CommandFiles& files, AppContext& context);

}  // namespace nvbw
