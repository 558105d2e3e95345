#include "app/testcase_loop.h"

#include <algorithm>
#include <exception>

#include "core/format.h"
#include "engine/coordinator.h"
#include "facts/link_peaks.h"

namespace nvbw {

std::string testcaseFailure(const std::string& key, const std::string& why) {
  return "Testcase " + key + " failed: " + why;
}

namespace {

// Plans name their matrices by suffix ("" or "_read1"); the SUM/JSON key is the testcase key plus
// that suffix.
void qualifyKeys(std::vector<MatrixResult>& matrices, const std::string& testcaseKey) {
  for (MatrixResult& m : matrices)
    if (m.spec.key.empty() || m.spec.key.front() == '_') m.spec.key = testcaseKey + m.spec.key;
}

// Each matrix of a plan's result is the plan's matrix of the same index.
void attachLinks(std::vector<MatrixResult>& matrices, const Plan& plan, const Topology& topo) {
  std::vector<std::vector<CellLink>> links = cellLinks(plan, topo);
  for (std::size_t i = 0; i < matrices.size() && i < links.size(); ++i)
    matrices[i].links = std::move(links[i]);
}

// A testcase's plan for this run, built once: its waiver check and its measurement take it. An
// error while it is built is the testcase's (measure reports it).
struct BuiltPlan {
  std::optional<Plan> plan;
  std::exception_ptr error;
};

BuiltPlan buildPlan(const TestcaseDef& def, const LoopRequest& request, std::size_t bytes) {
  BuiltPlan built;
  try {
    built.plan = def.plan(PlanContext{request.topology, bytes, request.pairs, request.schedule});
  } catch (...) {
    built.error = std::current_exception();
  }
  return built;
}

// Runs one testcase's plan and says how it ended here.
Outcome measure(const TestcaseDef& def, const BuiltPlan& built, const Topology& topology,
                PlanExecutor& planRunner, const ProgressSink& progress, TestcaseResult& result) {
  try {
    if (built.error) std::rethrow_exception(built.error);
    const Plan& plan = *built.plan;
    PlanResult measured = planRunner.run(plan, progress);
    result.matrices = std::move(measured.matrices);
    result.measurements = std::move(measured.measurements);
    result.schedule = plan.schedule;
    result.rounds = plan.rounds.size();
    attachLinks(result.matrices, plan, topology);
    qualifyKeys(result.matrices, def.key);
    return {};
  } catch (const Interrupted& e) {
    return {std::string(e.what()), false, e.signal(), {}};
  } catch (const PeerFailed& e) {
    return {testcaseFailure(def.key, e.what()), true, 0, e.detail()};
  } catch (const Error& e) {
    return {testcaseFailure(def.key, e.what()), false, 0, e.detail()};
  } catch (const std::exception& e) {
    return {testcaseFailure(def.key, e.what()), false, 0, {}};
  } catch (...) {
    return {testcaseFailure(def.key, "unknown exception"), false, 0, {}};
  }
}

// Counts, progress and the stop decision of one run, shared by the plain and the sweep loop.
class TestcaseLoop {
 public:
  TestcaseLoop(const LoopRequest& request, PlanExecutor& planRunner, Output& output,
               const LoopControl& control, Communicator& comm)
      : request_(request), planRunner_(planRunner), output_(output), control_(control),
        comm_(comm) {}

  void run() {
    for (const Selection& sel : request_.selection) {
      if (stopRequested()) break;
      ++summary.finished;
      const TestcaseDef* def = resolved(sel);
      // Built where the testcase is not waived on the topology alone (a plan of a testcase that
      // cannot run here need not be buildable), at the first size it runs at.
      BuiltPlan built = def && !waiveReasonFor(*def, request_.topology)
                            ? buildPlan(*def, request_, bytesAt(0))
                            : BuiltPlan{};
      if (!def || waived(*def, built)) {
        started_ += runsPerTestcase();
        continue;
      }
      const bool goOn = request_.sweepSizesMiB.empty() ? runOne(*def, built, std::nullopt)
                                                       : sweepOne(*def, std::move(built));
      if (!goOn) break;
    }
  }

  LoopSummary summary;

 private:
  std::size_t runsPerTestcase() const {
    return std::max<std::size_t>(1, request_.sweepSizesMiB.size());
  }

  // The buffer size of the testcase's run `i` (of a sweep's, or its only one).
  std::size_t bytesAt(std::size_t i) const {
    if (request_.sweepSizesMiB.empty()) return request_.bufferBytes;
    return static_cast<std::size_t>(request_.sweepSizesMiB[i] * kMiB);
  }

  // Every process stops before the same testcase; one that can no longer reach the others
  // stops at once.
  bool stopRequested() {
    const int local = control_.stopRequested ? control_.stopRequested() : 0;
    if (const int signal = agreeOnMax(comm_, local)) summary.interruptedBy = signal;
    return summary.interruptedBy.has_value() || processesLost();
  }

  bool processesLost() {
    if (const CommunicatorLoss* loss = comm_.lost()) {
      summary.processesLost = *loss;
      if (loss->signal && !summary.interruptedBy) summary.interruptedBy = loss->signal;
    }
    return summary.processesLost.has_value();
  }

  // The selection entry's testcase, or nullptr after reporting it unresolved.
  const TestcaseDef* resolved(const Selection& sel) {
    if (sel.index && *sel.index < request_.registry.size()) return &request_.registry[*sel.index];
    ++summary.errors;
    const std::string why = sel.error.empty() ? "Testcase " + sel.token + " not found!" : sel.error;
    output_.testcaseFinished({sel.token, Status::Error, why, {}, {}});
    return nullptr;
  }

  // Whether `def` cannot run here, after reporting it waived: its own waiver, else host memory
  // its plan needs but the run cannot have. Rank 0 decides (its GPUs measure the single-process
  // testcases; the multi-process facts are the same on every rank), so that every rank takes
  // the same path.
  bool waived(const TestcaseDef& def, const BuiltPlan& built) {
    std::optional<std::string> mine = waiveReasonFor(def, request_.topology);
    if (!mine && request_.hostMemoryProblem && built.plan && usesHostMemory(*built.plan))
      mine = request_.hostMemoryProblem;
    const std::string decision = fromRankZero(comm_, mine ? "W" + *mine : "-");
    if (decision == "-") return false;
    output_.testcaseFinished({def.key, Status::Waived, decision.substr(1), {}, {}});
    return true;
  }

  // Every size of the sweep for one testcase (`first`: its plan at the first size), then its
  // table.
  bool sweepOne(const TestcaseDef& def, BuiltPlan first) {
    bool goOn = true;
    for (std::size_t i = 0; goOn && i < request_.sweepSizesMiB.size(); ++i)
      goOn = !stopRequested() &&
             runOne(def, i == 0 ? std::move(first) : buildPlan(def, request_, bytesAt(i)),
                    request_.sweepSizesMiB[i]);
    output_.sweepFinished(def.key, request_.sweepSizesMiB);
    return goOn;
  }

  // Runs `def` (its plan `built` for the size) and reports it; false when the run must stop
  // after it.
  bool runOne(const TestcaseDef& def, const BuiltPlan& built,
              std::optional<std::uint64_t> sweepMiB);

  ProgressSink progressFor(const std::string& label) {
    if (!control_.progress) return {};
    const std::size_t index = started_;
    const std::size_t total = request_.selection.size() * runsPerTestcase();
    return [this, label, index, total](const ProgressEvent& e) {
      ProgressEvent full = e;
      full.testcase = label;
      full.testcaseIndex = index;
      full.testcases = total;
      control_.progress(full);
    };
  }

  const LoopRequest& request_;
  PlanExecutor& planRunner_;
  Output& output_;
  const LoopControl& control_;
  Communicator& comm_;
  std::size_t started_ = 0;
};

bool TestcaseLoop::runOne(const TestcaseDef& def, const BuiltPlan& built,
                          std::optional<std::uint64_t> sweepMiB) {
  const std::string label = def.key + atSize(sweepMiB);
  const ProgressSink progress = progressFor(label);
  ++started_;
  if (progress) progress({});
  TestcaseResult result;
  result.name = def.key;
  result.sweepSizeMiB = sweepMiB;
  output_.testcaseStarted(def.key);
  // Every process reports the same outcome: one place where a multi-process run agrees.
  const Outcome outcome =
      agreeOnOutcome(comm_, measure(def, built, request_.topology, planRunner_, progress, result));
  if (outcome.error) {
    result.status = Status::Error;
    result.message = *outcome.error;
    result.detail = outcome.detail;
    result.matrices.clear();
    result.measurements.clear();
    ++summary.errors;
  }
  output_.testcaseFinished(result);
  if (outcome.signal) summary.interruptedBy = outcome.signal;
  const bool lost = processesLost();  // recorded whether or not a signal ended the testcase too
  return !outcome.signal && !lost;
}

}  // namespace

LoopSummary runTestcaseLoop(const LoopRequest& request, PlanExecutor& planRunner, Output& output,
                            const LoopControl& control) {
  SingleProcess alone;
  TestcaseLoop loop(request, planRunner, output, control, control.comm ? *control.comm : alone);
  loop.run();
  return loop.summary;
}

}  // namespace nvbw
