// The absolute checks a command line asks for (--expect FILE, --min-percent-of-peak P) on a report:
// for a run (application.cpp), a saved report (from_command.cpp) and the current side of --compare
// (fleet_commands.cpp); and the keys an expectations file may name, from the registry.
#pragma once

#include <optional>
#include <vector>

#include "app/options.h"
#include "fleet/expectations/expectations.h"
#include "model/report.h"

namespace nvbw {

// The keys of every testcase of the registry (the multi-process ones too: a file written for a
// fleet must not depend on which build reads it), with its unit and its matrices' keys.
ExpectationKeys expectationKeys();

// Every check the options ask for, in a fixed order: the file's, then the percent of peak (the
// report's "expectations" array). Empty when neither option was given. Throws Interrupted when
// `stop` reports a signal.
std::vector<ExpectationSection> judgeExpectations(const Options& options,
                                                  const std::optional<Expectations>& file,
                                                  const Report& report, const StopRequest& stop);

// A check failed (a BELOW cell or an unmet expectation): exit status 3.
bool anyExpectationFailed(const std::vector<ExpectationSection>& results);

}  // namespace nvbw
