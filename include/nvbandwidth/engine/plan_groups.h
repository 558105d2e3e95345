// Runs a plan group by group (a measurement alone, or a round of measurements on disjoint GPUs)
// and records each measurement's cells and -v lines in the plan's order, whichever order its
// groups ran in. The GPU executor and the fake platform's share it, so that neither cares which
// schedule a plan has: a round is measured as one measurement is, only with more copies at once.
#pragma once

#include <functional>
#include <vector>

#include "core/phase_times.h"
#include "core/progress.h"
#include "core/statistics.h"
#include "engine/results.h"
#include "engine/sample_recording.h"
#include "plans/plan.h"

namespace nvbw::engine {

struct GroupSteps {
  // Measures the group's measurements (indices into the plan) together; returns each one's
  // samples, in the group's order, and calls `afterSample` after each sample.
  std::function<std::vector<MeasurementSamples>(const std::vector<std::size_t>& group,
                                                const std::function<void(unsigned)>& afterSample)>
      measure;
  // Completes a measurement's samples with those other processes measured (collective: every
  // process calls it for the same measurements in the same order). Empty: nothing to add.
  std::function<void(const Measurement&, MeasurementSamples&)> combine;
  // Called after each sample; throws Interrupted to stop.
  std::function<void()> checkStop;
};

// Progress events count groups: measurement i of n is the i-th group of the plan's n.
PlanResult runGroups(const Plan& plan, const GroupSteps& steps, Statistic statistic,
                     unsigned samples, const ProgressSink& progress, OperationCounts& counts);

}  // namespace nvbw::engine
