// Runs the selected testcases: waive, run, or report an error, and always go on.
#pragma once

#include <vector>

#include "nvbandwidth/executor.h"
#include "nvbandwidth/output.h"
#include "nvbandwidth/registry.h"
#include "nvbandwidth/selection.h"
#include "nvbandwidth/topology.h"

namespace nvbw {

struct RunSummary {
  int passed = 0;
  int waived = 0;
  int errors = 0;  // failed testcases and unresolved selections
};

RunSummary runTestcases(const std::vector<TestcaseDef>& registry,
                        const std::vector<Selection>& selection, const Topology& topology,
                        std::size_t bufferBytes, PlanRunner& planRunner, Output& output);

}  // namespace nvbw
