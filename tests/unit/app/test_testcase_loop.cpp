// The runner's logic without a GPU: waive, run, report errors and go on, qualify matrix keys,
// forward samples and count outcomes. The plan runner and the output are fakes that record.
#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/testcase_loop.h"
#include "engine/coordinator.h"
#include "fake_testcase.h"
#include "fake_topology.h"
#include "plans/registry.h"
#include "platform/topology.h"
#include "registry_counts.h"

namespace nvbw {
namespace test_testcase_loop {

using test::fakeTestcase;

// ---- Fakes ------------------------------------------------------------------------------------

// Records every call as one line, so tests compare the whole sequence at once.
class RecordingOutput final : public Output {
 public:
  std::vector<std::string> events;
  std::vector<TestcaseResult> finished;

  void header(const RunHeader&) override { events.push_back("header"); }
  void testcaseStarted(const std::string& key) override { events.push_back("started " + key); }
  void testcaseFinished(const TestcaseResult& r) override {
    finished.push_back(r);
    events.push_back("finished " + r.name + " " + statusName(r.status));
  }
  void globalError(const std::string& message, const std::string&) override {
    events.push_back("error " + message);
  }
  void sweepFinished(const std::string& testcase,
                     const std::vector<std::uint64_t>& sizesMiB) override {
    sweeps.push_back(sizesMiB);
    events.push_back("sweep " + testcase + " " + std::to_string(sizesMiB.size()));
  }
  void finish(const RunEnd&) override { events.push_back("finish"); }
  std::vector<std::vector<std::uint64_t>> sweeps;

  // The finished testcases (and sizes of a sweep) of `status`.
  int count(Status status) const {
    return static_cast<int>(
        std::count_if(finished.begin(), finished.end(),
                      [status](const TestcaseResult& r) { return r.status == status; }));
  }
};

using Behaviour = std::function<PlanResult(const Plan&, const ProgressSink&)>;

// Plays one behaviour per call, in order; records the plans it was given.
class FakePlanRunner final : public PlanExecutor {
 public:
  std::vector<Behaviour> behaviours;
  std::vector<Plan> plans;

  PlanResult run(const Plan& plan, const ProgressSink& progress) override {
    plans.push_back(plan);
    if (plans.size() > behaviours.size()) return {};
    return behaviours[plans.size() - 1](plan, progress);
  }
};

Behaviour returning(std::vector<MatrixResult> matrices) {
  return [matrices](const Plan&, const ProgressSink&) { return PlanResult{matrices, {}}; };
}

Behaviour throwing(const std::string& what) {
  return [what](const Plan&, const ProgressSink&) -> PlanResult { throw std::runtime_error(what); };
}

MatrixResult matrix(const std::string& key, std::size_t cols, double value) {
  MatrixResult m(MatrixSpec{key, "title " + key, Unit::GBps, 1, cols});
  for (std::size_t c = 0; c < cols; ++c) m.at(0, c) = CellResult({value}, Statistic::Median);
  return m;
}

// A plan with one 1 x 1 matrix and one measurement whose copy size is the buffer size, so tests
// can see what the runner passed to the builder.
Plan tinyPlan(const PlanContext& ctx) {
  Plan plan;
  plan.matrices.push_back({"", "tiny", Unit::GBps, 1, 1});
  Measurement m;
  m.copies.push_back(makeCopy(BufferSpec::host(0, ctx.bufferBytes),
                              BufferSpec::onDevice(0, ctx.bufferBytes), CopyMethod::CopyEngine));
  m.outputs.push_back({0, 0, 0, ValueSource::Copy, 0});
  plan.measurements.push_back(m);
  return plan;
}

std::optional<std::string> alwaysWaived(const Topology&) {
  return std::string("needs something this system lacks");
}

TestcaseDef runnable(const std::string& key) { return fakeTestcase(key, "runs", {}, tinyPlan); }
TestcaseDef waived(const std::string& key) {
  return fakeTestcase(key, "waived", alwaysWaived, tinyPlan);
}

Selection at(std::size_t index) { return Selection{index, "", ""}; }
Selection unresolved(const std::string& token, const std::string& error) {
  return Selection{std::nullopt, token, error};
}

constexpr std::size_t kBytes = std::size_t{8} << 20;

struct Harness {
  std::vector<TestcaseDef> registry;
  FakeTopology topology{2};
  FakePlanRunner planRunner;
  RecordingOutput output;
  LoopControl control;

  LoopSummary run(const std::vector<Selection>& selection) {
    return runTestcaseLoop({registry, selection, topology, kBytes}, planRunner, output, control);
  }
};

// ---- Passing ----------------------------------------------------------------------------------

TEST(Runner, PassedTestcaseStartsThenFinishesWithTheRunnersMatrices) {
  Harness h;
  h.registry = {runnable("alpha")};
  h.planRunner.behaviours = {returning({matrix("", 2, 12.5)})};
  const LoopSummary s = h.run({at(0)});

  EXPECT_EQ(h.output.events, (std::vector<std::string>{"started alpha", "finished alpha Passed"}));
  ASSERT_EQ(h.output.finished.size(), 1u);
  const TestcaseResult& r = h.output.finished[0];
  EXPECT_EQ(r.name, "alpha");
  EXPECT_EQ(r.status, Status::Passed);
  EXPECT_EQ(r.message, "");
  ASSERT_EQ(r.matrices.size(), 1u);
  ASSERT_TRUE(r.matrices[0].at(0, 1).has_value());
  EXPECT_EQ(r.matrices[0].at(0, 1)->value(), 12.5);
  EXPECT_EQ(h.output.count(Status::Passed), 1);
  EXPECT_EQ(h.output.count(Status::Waived), 0);
  EXPECT_EQ(s.errors, 0);
}

TEST(Runner, PlanIsBuiltFromTheTopologyAndBufferSize) {
  Harness h;
  h.registry = {fakeTestcase("sized", "d", {}, [](const PlanContext& ctx) {
    Plan plan = tinyPlan(ctx);
    plan.matrices[0].cols = static_cast<std::size_t>(ctx.topology.deviceCount());
    return plan;
  })};
  h.topology = FakeTopology(5);
  h.run({at(0)});
  ASSERT_EQ(h.planRunner.plans.size(), 1u);
  const Plan& plan = h.planRunner.plans[0];
  EXPECT_EQ(plan.matrices.at(0).cols, 5u);
  EXPECT_EQ(plan.measurements.at(0).copies.at(0).src.bytes, kBytes);
}

TEST(Runner, SelectionsRunInTheGivenOrderRepeatsIncluded) {
  Harness h;
  h.registry = {runnable("a"), runnable("b"), runnable("c")};
  h.run({at(2), at(0), at(2)});
  EXPECT_EQ(h.output.events,
            (std::vector<std::string>{"started c", "finished c Passed", "started a",
                                      "finished a Passed", "started c", "finished c Passed"}));
}

TEST(Runner, NeverWritesTheHeaderOrTheTrailer) {
  Harness h;
  h.registry = {runnable("a"), waived("w")};
  h.run({at(0), at(1), unresolved("x", "Testcase x not found!")});
  for (const std::string& e : h.output.events) {
    EXPECT_NE(e, "header");
    EXPECT_NE(e, "finish");
    EXPECT_NE(e.rfind("error ", 0), 0u) << e;
  }
}

// ---- Waived -----------------------------------------------------------------------------------

TEST(Runner, WaivedTestcaseIsReportedWithItsReasonAndNeverStarted) {
  Harness h;
  h.registry = {waived("wavy")};
  const LoopSummary s = h.run({at(0)});

  EXPECT_EQ(h.output.events, (std::vector<std::string>{"finished wavy Waived"}));
  ASSERT_EQ(h.output.finished.size(), 1u);
  EXPECT_EQ(h.output.finished[0].name, "wavy");
  EXPECT_EQ(h.output.finished[0].message, "needs something this system lacks");
  EXPECT_TRUE(h.output.finished[0].matrices.empty());
  EXPECT_TRUE(h.planRunner.plans.empty());
  EXPECT_EQ(h.output.count(Status::Waived), 1);
  EXPECT_EQ(h.output.count(Status::Passed), 0);
  EXPECT_EQ(s.errors, 0);
}

TEST(Runner, HostMemoryProblemWaivesExactlyTheTestcasesUsingHostMemory) {
  Harness h;
  h.registry = makeRegistry();
  std::vector<Selection> all;
  for (std::size_t i = 0; i < h.registry.size(); ++i) all.push_back(at(i));
  const std::string why = "-H: no huge pages are reserved";
  const LoopSummary s = runTestcaseLoop({h.registry, all, h.topology, kBytes, {}, why},
                                        h.planRunner, h.output, h.control);
  int hostWaived = 0;
  for (const TestcaseResult& r : h.output.finished) {
    const TestcaseDef* d = nullptr;
    for (const TestcaseDef& candidate : h.registry)
      if (candidate.key == r.name) d = &candidate;
    ASSERT_NE(d, nullptr) << r.name;
    const bool host = usesHostMemory(d->plan(PlanContext{h.topology, kBytes}));
    EXPECT_EQ(host, r.status == Status::Waived && r.message == why) << r.name;
    hostWaived += host ? 1 : 0;
  }
  // The 16 host copy testcases (CE and SM: to, from, both ways, fans) and the host latency one.
  EXPECT_EQ(hostWaived, 17);
  EXPECT_EQ(h.output.count(Status::Waived), hostWaived);
}

TEST(Runner, PairRuleReachesThePlans) {
  Harness h;
  h.registry = makeRegistry();
  h.topology = FakeTopology(4);
  PairRule rule;
  rule.pairGiven = true;
  rule.devices = GpuPair{1, 2};
  runTestcaseLoop({h.registry, {at(20)}, h.topology, kBytes, rule}, h.planRunner, h.output,
                  h.control);
  ASSERT_EQ(h.planRunner.plans.size(), 1u);
  EXPECT_EQ(h.planRunner.plans[0].measurements.size(), 2u);  // [1][2] and [2][1]
}

TEST(Runner, PeerTestcasesOfTheRealRegistryAreWaivedOnOneGpu) {
  Harness h;
  h.registry = makeRegistry();
  h.topology = FakeTopology(1);
  std::vector<Selection> all;
  for (std::size_t i = 0; i < h.registry.size(); ++i) all.push_back(at(i));
  const LoopSummary s = h.run(all);
  // Today 18 of v0.8's and 4 one-GPU v0.10 testcases run; 17 + 5 device-to-device ones wait.
  const test::RegistryCounts one = test::countsOn(h.topology);
  ASSERT_GT(one.waived, 0);
  EXPECT_EQ(h.output.count(Status::Passed), one.runs);
  EXPECT_EQ(h.output.count(Status::Waived), one.waived);
  EXPECT_EQ(s.errors, 0);
  EXPECT_EQ(h.planRunner.plans.size(), static_cast<std::size_t>(one.runs));
  for (const TestcaseResult& r : h.output.finished) {
    if (r.status != Status::Waived) continue;
    EXPECT_NE(r.message.find("1 GPU"), std::string::npos) << r.name << ": " << r.message;
  }
}

// ---- Errors -----------------------------------------------------------------------------------

TEST(Runner, ThrowingPlanRunnerIsAnErrorNamingTheTestcaseAndTheException) {
  Harness h;
  h.registry = {runnable("broken")};
  h.planRunner.behaviours = {throwing("data verification failed at byte 4096")};
  const LoopSummary s = h.run({at(0)});

  EXPECT_EQ(h.output.events, (std::vector<std::string>{"started broken", "finished broken ERROR"}));
  const TestcaseResult& r = h.output.finished.at(0);
  EXPECT_EQ(r.name, "broken");
  EXPECT_EQ(r.status, Status::Error);
  EXPECT_NE(r.message.find("broken"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("data verification failed at byte 4096"), std::string::npos)
      << r.message;
  EXPECT_TRUE(r.matrices.empty());
  EXPECT_EQ(s.errors, 1);
  EXPECT_EQ(h.output.count(Status::Passed), 0);
}

TEST(Runner, NextTestcaseStillRunsAfterAnError) {
  Harness h;
  h.registry = {runnable("first"), runnable("second")};
  h.planRunner.behaviours = {throwing("CUDA_ERROR_ILLEGAL_ADDRESS"), returning({matrix("", 1, 3)})};
  const LoopSummary s = h.run({at(0), at(1)});

  EXPECT_EQ(h.output.events,
            (std::vector<std::string>{"started first", "finished first ERROR", "started second",
                                      "finished second Passed"}));
  ASSERT_EQ(h.output.finished.size(), 2u);
  EXPECT_EQ(h.output.finished[1].status, Status::Passed);
  EXPECT_EQ(h.output.finished[1].matrices.size(), 1u);
  EXPECT_EQ(s.errors, 1);
  EXPECT_EQ(h.output.count(Status::Passed), 1);
}

TEST(Runner, ThrowingPlanBuilderIsAnErrorToo) {
  Harness h;
  h.registry = {fakeTestcase("bad_plan", "d", {},
                             [](const PlanContext&) -> Plan {
                               throw std::invalid_argument("no such method");
                             }),
                runnable("after")};
  const LoopSummary s = h.run({at(0), at(1)});
  EXPECT_EQ(h.output.events,
            (std::vector<std::string>{"started bad_plan", "finished bad_plan ERROR",
                                      "started after", "finished after Passed"}));
  const std::string& message = h.output.finished.at(0).message;
  EXPECT_NE(message.find("bad_plan"), std::string::npos) << message;
  EXPECT_NE(message.find("no such method"), std::string::npos) << message;
  EXPECT_EQ(h.planRunner.plans.size(), 1u);
  EXPECT_EQ(s.errors, 1);
  EXPECT_EQ(h.output.count(Status::Passed), 1);
}

TEST(Runner, UnresolvedSelectionIsAnErrorWithTheSelectionsText) {
  Harness h;
  h.registry = {runnable("a")};
  const LoopSummary s = h.run({unresolved("nosuch", "Testcase nosuch not found!"), at(0),
                               unresolved("99", "Testcase index 99 out of bound!")});

  EXPECT_EQ(h.output.events, (std::vector<std::string>{"finished nosuch ERROR", "started a",
                                                       "finished a Passed", "finished 99 ERROR"}));
  ASSERT_EQ(h.output.finished.size(), 3u);
  EXPECT_EQ(h.output.finished[0].name, "nosuch");
  EXPECT_EQ(h.output.finished[0].message, "Testcase nosuch not found!");
  EXPECT_EQ(h.output.finished[2].name, "99");
  EXPECT_EQ(h.output.finished[2].message, "Testcase index 99 out of bound!");
  EXPECT_EQ(h.planRunner.plans.size(), 1u);
  EXPECT_EQ(s.errors, 2);
  EXPECT_EQ(h.output.count(Status::Passed), 1);
}

TEST(Runner, IndexPastTheRegistryIsAnErrorNotACrash) {
  Harness h;
  h.registry = {runnable("a")};
  const LoopSummary s = h.run({Selection{std::size_t{7}, "7", ""}});
  ASSERT_EQ(h.output.finished.size(), 1u);
  EXPECT_EQ(h.output.finished[0].status, Status::Error);
  EXPECT_EQ(h.output.finished[0].name, "7");
  EXPECT_NE(h.output.finished[0].message.find('7'), std::string::npos)
      << h.output.finished[0].message;
  EXPECT_TRUE(h.planRunner.plans.empty());
  EXPECT_EQ(s.errors, 1);
}

// ---- Summary ----------------------------------------------------------------------------------

TEST(Runner, SummaryCountsEachOutcome) {
  Harness h;
  h.registry = {runnable("p1"), waived("w1"), runnable("e1"), runnable("p2"), waived("w2")};
  h.planRunner.behaviours = {returning({}), throwing("boom"), returning({})};
  const LoopSummary s =
      h.run({at(0), at(1), at(2), unresolved("zz", "Testcase zz not found!"), at(3), at(4)});
  EXPECT_EQ(h.output.count(Status::Passed), 2);
  EXPECT_EQ(h.output.count(Status::Waived), 2);
  EXPECT_EQ(s.errors, 2);
  EXPECT_EQ(h.output.finished.size(), 6u);
}

TEST(Runner, EmptySelectionDoesNothing) {
  Harness h;
  h.registry = {runnable("a")};
  const LoopSummary s = h.run({});
  EXPECT_TRUE(h.output.events.empty());
  EXPECT_EQ(h.output.count(Status::Passed) + h.output.count(Status::Waived) + s.errors, 0);
}

// ---- Matrix keys and samples ------------------------------------------------------------------

TEST(Runner, MatrixKeysAreQualifiedWithTheTestcaseKey) {
  Harness h;
  h.registry = {runnable("device_to_device_bidirectional_memcpy_read_ce")};
  h.planRunner.behaviours = {
      returning({matrix("_read1", 1, 1), matrix("_read2", 1, 2), matrix("_total", 1, 3)})};
  h.run({at(0)});
  const TestcaseResult& r = h.output.finished.at(0);
  ASSERT_EQ(r.matrices.size(), 3u);
  EXPECT_EQ(r.matrices[0].spec.key, "device_to_device_bidirectional_memcpy_read_ce_read1");
  EXPECT_EQ(r.matrices[1].spec.key, "device_to_device_bidirectional_memcpy_read_ce_read2");
  EXPECT_EQ(r.matrices[2].spec.key, "device_to_device_bidirectional_memcpy_read_ce_total");
  EXPECT_EQ(r.matrices[0].spec.title, "title _read1");  // only the key changes
}

TEST(Runner, EmptyMatrixKeyBecomesTheTestcaseKey) {
  Harness h;
  h.registry = {runnable("host_to_device_memcpy_ce")};
  h.planRunner.behaviours = {returning({matrix("", 3, 1)})};
  h.run({at(0)});
  ASSERT_EQ(h.output.finished.at(0).matrices.size(), 1u);
  EXPECT_EQ(h.output.finished[0].matrices[0].spec.key, "host_to_device_memcpy_ce");
}

TEST(Runner, ProgressIsForwardedWhileTheTestcaseRuns) {
  Harness h;
  h.registry = {runnable("chatty")};
  std::vector<std::string> seen;
  h.control.progress = [&](const ProgressEvent& e) {
    seen.push_back(std::to_string(e.measurement) + "/" + std::to_string(e.measurements) + " " +
                   std::to_string(e.sample) + "/" + std::to_string(e.samples));
  };
  h.planRunner.behaviours = {[](const Plan&, const ProgressSink& progress) {
    progress({0, 2, 0, 2});
    progress({0, 2, 1, 2});
    progress({1, 2, 0, 2});
    return PlanResult{{matrix("", 1, 51)}, {}};
  }};
  h.run({at(0)});
  // First the testcase's start (no samples yet), then the executor's samples.
  EXPECT_EQ(seen, (std::vector<std::string>{"0/0 0/0", "0/2 0/2", "0/2 1/2", "1/2 0/2"}));
}

TEST(Runner, ProgressEventsNameTheTestcaseAndItsPlaceInTheRun) {
  Harness h;
  h.registry = {runnable("first"), runnable("second")};
  std::vector<std::string> seen;
  h.control.progress = [&](const ProgressEvent& e) {
    seen.push_back(e.testcase + " " + std::to_string(e.testcaseIndex) + "/" +
                   std::to_string(e.testcases) + (e.samples ? " sample" : " start"));
  };
  const Behaviour oneSample = [](const Plan&, const ProgressSink& progress) {
    progress({0, 1, 0, 1});
    return PlanResult{{matrix("", 1, 51)}, {}};
  };
  h.planRunner.behaviours = {oneSample, oneSample};
  h.run({at(0), at(1)});
  EXPECT_EQ(seen, (std::vector<std::string>{"first 0/2 start", "first 0/2 sample",
                                            "second 1/2 start", "second 1/2 sample"}));
}

TEST(Runner, MeasurementRecordsReachTheOutput) {
  Harness h;
  h.registry = {runnable("recorded")};
  h.planRunner.behaviours = {[](const Plan&, const ProgressSink&) {
    PlanResult r{{matrix("", 1, 51)}, {}};
    r.measurements.push_back({{SampleSeries{"Host -> Device 0", Unit::GBps, {50.5, 51.5}}}});
    return r;
  }};
  h.run({at(0)});
  const TestcaseResult& r = h.output.finished.at(0);
  ASSERT_EQ(r.measurements.size(), 1u);
  EXPECT_EQ(r.measurements[0].series.at(0).samples, (std::vector<double>{50.5, 51.5}));
}

// ---- Stopping -----------------------------------------------------------------------------------

TEST(Runner, InterruptedTestcaseIsAnErrorNamingTheSignalAndNothingElseRuns) {
  Harness h;
  h.registry = {runnable("a"), runnable("b"), runnable("c")};
  h.planRunner.behaviours = {
      returning({matrix("", 1, 1)}),
      [](const Plan&, const ProgressSink&) -> PlanResult { throw Interrupted(SIGINT); }};
  const LoopSummary s = h.run({at(0), at(1), at(2)});
  EXPECT_EQ(h.output.events, (std::vector<std::string>{"started a", "finished a Passed",
                                                       "started b", "finished b ERROR"}));
  EXPECT_EQ(h.output.finished.at(1).message, "interrupted by SIGINT");
  ASSERT_TRUE(s.interruptedBy.has_value());
  EXPECT_EQ(*s.interruptedBy, SIGINT);
  EXPECT_EQ(s.finished, 2u);
  EXPECT_EQ(h.planRunner.plans.size(), 2u);
}

TEST(Runner, StopRequestedBetweenTestcasesStartsNoMore) {
  Harness h;
  h.registry = {runnable("a"), runnable("b")};
  int asked = 0;
  h.control.stopRequested = [&] { return ++asked >= 2 ? SIGTERM : 0; };
  const LoopSummary s = h.run({at(0), at(1)});
  EXPECT_EQ(h.output.events, (std::vector<std::string>{"started a", "finished a Passed"}));
  EXPECT_EQ(s.interruptedBy, std::optional<int>(SIGTERM));
  EXPECT_EQ(s.finished, 1u);
}

// The line a user reads and the developer's detail travel apart (JSON error / error_detail).
TEST(Runner, AnErrorsDetailIsKeptBesideItsMessage) {
  Harness h;
  h.registry = {runnable("a")};
  h.planRunner.behaviours = {[](const Plan&, const ProgressSink&) -> PlanResult {
    throw Error("GPU 0 cannot hold this testcase's buffers", "cuMemAlloc(&ptr, bytes) at f.cpp:2");
  }};
  h.run({at(0)});
  const TestcaseResult& r = h.output.finished.at(0);
  EXPECT_EQ(r.message, "Testcase a failed: GPU 0 cannot hold this testcase's buffers");
  EXPECT_EQ(r.detail, "cuMemAlloc(&ptr, bytes) at f.cpp:2");
}

// ---- Errors agreed between processes ---------------------------------------------------------

// A world of several ranks as seen from rank 0: what the other ranks say about each testcase's
// outcome (wire() below) is scripted; they never ask to stop before a testcase.
class ScriptedWorld final : public Communicator {
 public:
  std::vector<std::string> outcomes;  // ranks 1.. for every outcome agreement
  int rank() const override { return 0; }
  int size() const override { return 1 + static_cast<int>(outcomes.size()); }
  std::vector<std::string> allGather(const std::string& mine) override {
    const bool outcome = mine.find(' ') != std::string::npos;
    std::vector<std::string> all{mine};
    for (const std::string& other : outcomes) all.push_back(outcome ? other : "0");
    return all;
  }
  void broadcast(std::string&, int) override {}
};

// An outcome as a rank sends it: "<signal> <E|P|-><length of message>:<message><detail>".
std::string wire(int signal, char kind, const std::string& message = "",
                 const std::string& detail = "") {
  return std::to_string(signal) + " " + kind + std::to_string(message.size()) + ":" + message +
         detail;
}

TEST(Runner, AnErrorOnAnotherRankFailsTheTestcaseWithThatRanksMessage) {
  Harness h;
  ScriptedWorld world;
  world.outcomes = {wire(0, '-'), wire(0, 'E', "boom on GPU 2", "cuMemAlloc(&p, n) at x.cpp:1")};
  h.control.comm = &world;
  h.registry = {runnable("a")};
  const LoopSummary s = h.run({at(0)});
  const TestcaseResult& r = h.output.finished.at(0);
  EXPECT_EQ(r.status, Status::Error);
  EXPECT_EQ(r.message, "rank 2: boom on GPU 2");
  EXPECT_EQ(r.detail, "cuMemAlloc(&p, n) at x.cpp:1");  // the failing rank's, with its message
  EXPECT_TRUE(r.matrices.empty());
  EXPECT_EQ(s.errors, 1);
}

TEST(Runner, TheLowestFailingRankIsReported) {
  Harness h;
  ScriptedWorld world;
  world.outcomes = {wire(0, 'E', "first"), wire(0, 'E', "second")};
  h.control.comm = &world;
  h.registry = {runnable("a")};
  h.planRunner.behaviours = {throwing("mine")};
  h.run({at(0)});
  EXPECT_EQ(h.output.finished.at(0).message, "rank 0: Testcase a failed: mine");
}

// A rank that only saw another rank fail says so; the rank that really failed is reported.
TEST(Runner, AnOwnErrorWinsOverReportsOfAPeersFailure) {
  Harness h;
  ScriptedWorld world;
  world.outcomes = {wire(0, 'P', "Testcase a failed: rank 2 failed the step"),
                    wire(0, 'E', "cuda error: on rank 2", "a:b")};
  h.control.comm = &world;
  h.registry = {runnable("a")};
  h.planRunner.behaviours = {[](const Plan&, const ProgressSink&) -> PlanResult {
    throw PeerFailed("another process failed");
  }};
  h.run({at(0)});
  EXPECT_EQ(h.output.finished.at(0).message, "rank 2: cuda error: on rank 2");
  EXPECT_EQ(h.output.finished.at(0).detail, "a:b");
}

// A signal seen by any rank stops every rank after the testcase.
TEST(Runner, ASignalOnAnotherRankStopsTheRun) {
  Harness h;
  ScriptedWorld world;
  world.outcomes = {wire(15, 'E', "interrupted by SIGTERM")};
  h.control.comm = &world;
  h.registry = {runnable("a"), runnable("b")};
  const LoopSummary s = h.run({at(0), at(1)});
  EXPECT_EQ(s.interruptedBy, std::optional<int>(15));
  EXPECT_EQ(h.output.finished.size(), 1u);
  EXPECT_EQ(h.output.finished.at(0).message, "rank 1: interrupted by SIGTERM");
}

// A world of two ranks whose other rank stops answering at the `answers`-th collective: that
// wait is given up (as MpiCommunicator does), and every later collective fails at once.
class LosingWorld final : public Communicator {
 public:
  LosingWorld(int answers, int signal) : answers_(answers), signal_(signal) {}
  int rank() const override { return 0; }
  int size() const override { return 2; }
  const CommunicatorLoss* lost() const override { return loss_ ? &*loss_ : nullptr; }
  std::vector<std::string> allGather(const std::string& mine) override {
    answer();
    return {mine, mine};
  }
  void broadcast(std::string&, int) override { answer(); }

 private:
  void answer() {
    if (!loss_ && answers_-- > 0) return;
    if (!loss_)
      loss_ = CommunicatorLoss{"rank 0: no answer from the other processes", "w", signal_};
    throw Error(loss_->message);
  }
  int answers_;
  int signal_;
  std::optional<CommunicatorLoss> loss_;
};

// The other rank lost while the first testcase's outcome is agreed: rank 0 reports that testcase
// by its own outcome, records the loss and starts nothing more.
TEST(Runner, AnotherRankLostMidRunStopsTheRunAfterReportingWhatFinished) {
  Harness h;
  LosingWorld world(2, 0);  // the stop check and the waiver answer; the outcome's gather not
  h.control.comm = &world;
  h.registry = {runnable("a"), runnable("b")};
  const LoopSummary s = h.run({at(0), at(1)});
  ASSERT_TRUE(s.processesLost.has_value());
  EXPECT_EQ(s.processesLost->message, "rank 0: no answer from the other processes");
  EXPECT_FALSE(s.interruptedBy.has_value());
  ASSERT_EQ(h.output.finished.size(), 1u);
  EXPECT_EQ(h.output.finished.at(0).status, Status::Passed);
  EXPECT_EQ(h.output.count(Status::Passed), 1);
}

// Lost by a signal (mpirun's SIGTERM after another rank died): the run counts as interrupted.
TEST(Runner, AnotherRankLostToASignalCountsAsAnInterruption) {
  Harness h;
  LosingWorld world(0, 15);
  EXPECT_THROW(world.allGather("x"), Error);  // lost before the run's first step
  h.control.comm = &world;
  h.registry = {runnable("a")};
  const LoopSummary s = h.run({at(0)});
  ASSERT_TRUE(s.processesLost.has_value());
  EXPECT_EQ(s.interruptedBy, std::optional<int>(15));
  EXPECT_TRUE(h.output.finished.empty());
}

}  // namespace test_testcase_loop
}  // namespace nvbw

namespace nvbw {
namespace test_testcase_loop {

// ---- Sweep ------------------------------------------------------------------------------------

TEST(RunnerSweep, EachTestcaseRunsAtEverySizeThenItsTableIsReported) {
  Harness h;
  h.registry = {runnable("alpha"), waived("beta")};
  h.planRunner.behaviours = {returning({matrix("", 1, 1)}), throwing("boom"),
                             returning({matrix("", 1, 4)})};
  const std::vector<Selection> selection = {at(0), at(1)};
  const LoopSummary s =
      runTestcaseLoop({h.registry, selection, h.topology, kBytes, {}, std::nullopt, {1, 2, 4}},
                      h.planRunner, h.output, h.control);
  // The plans were built at 1, 2 and 4 MiB, not at the request's buffer size.
  ASSERT_EQ(h.planRunner.plans.size(), 3u);
  for (std::size_t k = 0; k < 3; ++k)
    EXPECT_EQ(h.planRunner.plans[k].measurements[0].copies[0].src.bytes, (std::size_t{1} << k)
                                                                             << 20);
  EXPECT_EQ(h.output.events, (std::vector<std::string>{"started alpha", "finished alpha Passed",
                                                       "started alpha", "finished alpha ERROR",
                                                       "started alpha", "finished alpha Passed",
                                                       "sweep alpha 3", "finished beta Waived"}));
  ASSERT_EQ(h.output.sweeps.size(), 1u);
  EXPECT_EQ(h.output.sweeps[0], (std::vector<std::uint64_t>{1, 2, 4}));
  EXPECT_EQ(h.output.finished[1].sweepSizeMiB, 2u);
  EXPECT_EQ(h.output.count(Status::Passed), 2);
  EXPECT_EQ(s.errors, 1);
  EXPECT_EQ(h.output.count(Status::Waived), 1);
  EXPECT_EQ(s.finished, 2u);
}

TEST(RunnerSweep, EachSizesPlanIsBuiltOnce) {
  Harness h;
  std::vector<std::size_t> built;
  h.registry = {fakeTestcase("alpha", "d", {}, [&built](const PlanContext& ctx) {
    built.push_back(ctx.bufferBytes >> 20);
    return tinyPlan(ctx);
  })};
  const std::vector<Selection> selection = {at(0)};
  runTestcaseLoop({h.registry, selection, h.topology, kBytes, {}, std::nullopt, {1, 2, 4}},
                  h.planRunner, h.output, h.control);
  EXPECT_EQ(built, (std::vector<std::size_t>{1, 2, 4}));
}

TEST(RunnerSweep, AStopBetweenSizesReportsThePartialTable) {
  Harness h;
  h.registry = {runnable("alpha"), runnable("beta")};
  h.planRunner.behaviours = {returning({matrix("", 1, 1)}), returning({matrix("", 1, 2)})};
  int asked = 0;
  h.control.stopRequested = [&asked] { return ++asked >= 3 ? 2 : 0; };  // before the 2nd size
  const std::vector<Selection> selection = {at(0), at(1)};
  const LoopSummary s =
      runTestcaseLoop({h.registry, selection, h.topology, kBytes, {}, std::nullopt, {1, 2, 4}},
                      h.planRunner, h.output, h.control);
  EXPECT_EQ(s.interruptedBy, 2);
  ASSERT_EQ(h.output.sweeps.size(), 1u);
  EXPECT_EQ(h.output.finished.size(), 1u);
  EXPECT_EQ(h.planRunner.plans.size(), 1u);
}

}  // namespace test_testcase_loop
}  // namespace nvbw
