// The application core: everything a run does between a parsed command line and an exit status
// (help, listing, validation, selection, start-up, warnings, the run, the report and its write
// errors). main only parses the command line and calls runCommandLine; tests drive whole runs
// through it with a faked platform.
#pragma once

#include <string>
#include <vector>

#include "app/app_context.h"
#include "app/options.h"
#include "platform/system_facts.h"

namespace nvbw {

// Parses `args` (argv without the program name) and runs the application; a command line that
// does not parse is a usage error (one line on context.err, exit status 2). This is all of main
// but for the signal handlers and the real platform.
int runCommandLine(const std::vector<std::string>& args, AppContext& context);

// The start-up note about a buffer smaller than the default.
std::string smallBufferWarning();
// The header's notes of a machine without NVML, and of a run whose host testcases are waived
// (`problem` says why: -H without huge pages).
std::string nvmlMissingNote(const std::string& problem);
std::string hostTestcasesWaivedNote(const std::string& problem);

// The SystemFacts known without a driver: versions of this build and the host name.
SystemFacts buildSystemFacts();

}  // namespace nvbw
