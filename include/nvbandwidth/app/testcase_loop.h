// Runs the selected testcases: waive, run, or report an error, and always go on, until the
// selection is done or a stop is requested.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "app/selection.h"
#include "core/progress.h"
#include "engine/executor.h"
#include "plans/registry.h"
#include "platform/communicator.h"
#include "platform/topology.h"
#include "report/output.h"

namespace nvbw {

struct LoopRequest {
  const std::vector<TestcaseDef>& registry;
  const std::vector<Selection>& selection;
  const Topology& topology;
  std::size_t bufferBytes;
  PairRule pairs = {};  // --pair / -P
  // Why host buffers cannot be allocated as asked (-H without huge pages): the testcases that
  // use host memory are waived with this reason.
  std::optional<std::string> hostMemoryProblem = std::nullopt;
  // --sweep: every selected testcase runs at each of these sizes (bufferBytes is then unused);
  // empty: one run at bufferBytes.
  std::vector<std::uint64_t> sweepSizesMiB = {};
  ScheduleRule schedule = {};  // --schedule: pair testcases pair by pair, or in rounds
};

// What the run needs besides the request. Defaults: one process, never stop, no progress.
struct LoopControl {
  Communicator* comm = nullptr;
  StopRequest stopRequested;
  ProgressSink progress;
};

struct LoopSummary {
  int errors = 0;                    // failed testcases and unresolved selections
  std::size_t finished = 0;          // testcases reported
  std::optional<int> interruptedBy;  // the run stopped early on this signal
  // The run stopped early because this process gave up waiting for the others.
  std::optional<CommunicatorLoss> processesLost;
};

// The ERROR message of a testcase that failed with `why`: "Testcase <key> failed: <why>".
std::string testcaseFailure(const std::string& key, const std::string& why);

LoopSummary runTestcaseLoop(const LoopRequest& request, PlanExecutor& planRunner, Output& output,
                            const LoopControl& control = {});

}  // namespace nvbw
