// Confirmation runs (app/confirmation_runs.h) measure a suspect testcase again the way the run
// measured it: with the run's pair rule and the run's schedule.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/confirmation_runs.h"
#include "fake_topology.h"
#include "plans/registry.h"
#include "report/report_builder.h"

namespace nvbw {
namespace test_confirmation_runs {

// Records the plans it is given; returns no results (each run is then an ERROR entry).
class PlanRecorder final : public PlanExecutor {
 public:
  std::vector<Plan> plans;
  PlanResult run(const Plan& plan, const ProgressSink&) override {
    plans.push_back(plan);
    return {};
  }
};

TEST(ConfirmationRuns, MeasureWithTheRunsScheduleAndPairRule) {
  const std::vector<TestcaseDef> registry = makeRegistry();
  const std::string key = "device_to_device_memcpy_read_ce";
  std::size_t index = 0;
  while (registry.at(index).key != key) ++index;
  const std::vector<Selection> selection = {{index, key, ""}};
  const FakeTopology topology(4);
  LoopRequest run{registry, selection, topology, std::size_t{1} << 20};
  run.schedule.devices = PairSchedule::Rounds;
  run.pairs.targetNumPairs = 2;
  // What the run itself measured.
  PlanRecorder measured;
  ReportBuilder report;
  runTestcaseLoop(run, measured, report, LoopControl{});
  ASSERT_EQ(measured.plans.size(), 1u);
  ASSERT_EQ(measured.plans[0].schedule, PairSchedule::Rounds);

  PlanRecorder again;
  const std::vector<SuspectRecord> suspects = {{key, {}}};
  runConfirmations(run, RunHeader{}, suspects, 2, again, LoopControl{});
  ASSERT_EQ(again.plans.size(), 2u);
  for (const Plan& plan : again.plans) {
    EXPECT_EQ(plan.schedule, measured.plans[0].schedule);
    EXPECT_EQ(plan.measurements.size(), measured.plans[0].measurements.size());
  }
}

}  // namespace test_confirmation_runs
}  // namespace nvbw
