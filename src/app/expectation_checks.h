// The absolute checks a command line asks for (--expect FILE, --min-percent-of-peak P) on a report
// document: for a run (application.cpp), a saved report (from_command.cpp) and the current side
// of --compare (fleet_commands.cpp).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "app/options.h"
#include "fleet/expectations/expectations.h"
#include "model/report.h"

namespace nvbw {

// Every check the options ask for, in a fixed order: the file's, then the percent of peak. Empty
// when neither option was given. Throws Interrupted when `stop` reports a signal.
std::vector<ExpectationResult> judgeExpectations(const Options& options,
                                                 const std::optional<Expectations>& file,
                                                 const nlohmann::json& report,
                                                 const StopRequest& stop = {});
// The same checks of a Report (a run's own).
std::vector<ExpectationResult> judgeExpectations(const Options& options,
                                                 const std::optional<Expectations>& file,
                                                 const Report& report,
                                                 const StopRequest& stop = {});

// A check failed (a BELOW cell or an unmet expectation): exit status 3.
bool anyExpectationFailed(const std::vector<ExpectationResult>& results);

}  // namespace nvbw
