// The confirmation runs of a run with --baseline and --confirm N: each testcase (at each sweep
// size) with a suspect cell measured N more times, through the same testcase loop and executor
// as the run, with the run's settings. Nothing of them is printed as a testcase: their entries
// are collected as the run's Report holds entries, for the report's "confirmations" array and
// for applyConfirmations (fleet/comparison/comparison.h).
#pragma once

#include <optional>
#include <vector>

#include "app/testcase_loop.h"
#include "model/report.h"
#include "report/output.h"

namespace nvbw {

struct ConfirmationRuns {
  // Testcase entries in the order they ran, each with its confirmation run (1 to N) and, for a
  // sweep size, its buffer size. Passed and ERROR entries alike.
  std::vector<ReportEntry> entries;
  ConfirmationRecord summary;        // runs, the testcases measured again, wall seconds
  int errors = 0;                    // confirmation runs that failed
  std::optional<int> interruptedBy;  // stopped by this signal before the last one
};

// Runs N rounds, each measuring every suspect testcase once, so that a disturbance of a few
// seconds meets one round rather than every confirmation of one testcase. `run` is the run's loop
// request (registry, topology, buffer size, pairs, schedule, host-memory problem); `header` its
// header (the statistic the entries report). A suspect testcase the registry does not have is
// skipped (its cells stay unconfirmed).
ConfirmationRuns runConfirmations(const LoopRequest& run, const RunHeader& header,
                                  const std::vector<SuspectRecord>& suspects, unsigned runs,
                                  PlanExecutor& executor, const LoopControl& control);

}  // namespace nvbw
