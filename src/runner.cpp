#include "nvbandwidth/runner.h"

#include <exception>

#include "nvbandwidth/coordinator.h"
#include "nvbandwidth/link_peaks.h"

namespace nvbw {
namespace {

// Plans name their matrices by suffix ("" or "_read1"); the SUM/JSON key is the testcase key plus
// that suffix.
void qualifyKeys(std::vector<MatrixResult>& matrices, const std::string& testcaseKey) {
  for (MatrixResult& m : matrices)
    if (m.spec.key.empty() || m.spec.key.front() == '_') m.spec.key = testcaseKey + m.spec.key;
}

TestcaseResult unresolved(const Selection& sel) {
  return {sel.token, Status::Error,
          sel.error.empty() ? "Testcase " + sel.token + " not found!" : sel.error, {}, {}};
}

// Each matrix of a plan's result is the plan's matrix of the same index.
void attachLinks(std::vector<MatrixResult>& matrices, const Plan& plan, const Topology& topo) {
  std::vector<std::vector<CellLink>> links = cellLinks(plan, topo);
  for (std::size_t i = 0; i < matrices.size() && i < links.size(); ++i)
    matrices[i].links = std::move(links[i]);
}

PlanContext planContext(const RunRequest& request) {
  return PlanContext{request.topology, request.bufferBytes, request.pairs};
}

// The reason `def` cannot run here, if any: its own waiver, else host memory it would need but
// cannot have.
std::optional<std::string> localWaiver(const TestcaseDef& def, const RunRequest& request) {
  if (std::optional<std::string> reason = waiveReasonFor(def, request.topology)) return reason;
  if (request.hostMemoryProblem && usesHostMemory(def.plan(planContext(request))))
    return request.hostMemoryProblem;
  return std::nullopt;
}

// Runs one testcase's plan and says how it ended here.
Outcome measure(const TestcaseDef& def, const RunRequest& request, PlanRunner& planRunner,
                const RunControl& control, TestcaseResult& result) {
  try {
    const Plan plan = def.plan(planContext(request));
    PlanResult measured = planRunner.run(plan, control.progress);
    result.matrices = std::move(measured.matrices);
    result.measurements = std::move(measured.measurements);
    attachLinks(result.matrices, plan, request.topology);
    qualifyKeys(result.matrices, def.key);
    return {};
  } catch (const Interrupted& e) {
    return {std::string(e.what()), false, e.signal()};
  } catch (const PeerFailed& e) {
    return {testcaseFailure(def.key, e.what()), true, 0};
  } catch (const std::exception& e) {
    return {testcaseFailure(def.key, e.what()), false, 0};
  } catch (...) {
    return {testcaseFailure(def.key, "unknown exception"), false, 0};
  }
}

// Whether `def` is waived: rank 0 decides (its GPUs measure the single-process testcases; the
// multi-process facts are the same on every rank), so that every rank takes the same path.
std::optional<std::string> waiver(const TestcaseDef& def, const RunRequest& request,
                                  Communicator& comm) {
  const std::optional<std::string> mine = localWaiver(def, request);
  std::string decision = mine ? "W" + *mine : "-";
  decision = fromRankZero(comm, decision);
  if (decision == "-") return std::nullopt;
  return decision.substr(1);
}

}  // namespace

std::string testcaseFailure(const std::string& key, const std::string& why) {
  return "Testcase " + key + " failed: " + why;
}

RunSummary runTestcases(const RunRequest& request, PlanRunner& planRunner, Output& output,
                        const RunControl& control) {
  SingleProcess alone;
  Communicator& comm = control.comm ? *control.comm : alone;
  RunSummary summary;
  for (const Selection& sel : request.selection) {
    // Every rank stops before the same testcase.
    const int local = control.stopRequested ? control.stopRequested() : 0;
    if (const int signal = agreeOnMax(comm, local)) {
      summary.interruptedBy = signal;
      break;
    }
    ++summary.finished;
    if (!sel.index || *sel.index >= request.registry.size()) {
      ++summary.errors;
      output.testcaseFinished(unresolved(sel));
      continue;
    }
    const TestcaseDef& def = request.registry[*sel.index];
    TestcaseResult result;
    result.name = def.key;
    if (auto reason = waiver(def, request, comm)) {
      result.status = Status::Waived;
      result.message = *reason;
      ++summary.waived;
      output.testcaseFinished(result);
      continue;
    }
    output.testcaseStarted(def.key);
    // Every process reports the same outcome: one place where a multi-process run agrees.
    const Outcome outcome =
        agreeOnOutcome(comm, measure(def, request, planRunner, control, result));
    if (outcome.error) {
      result.status = Status::Error;
      result.message = *outcome.error;
      result.matrices.clear();
      result.measurements.clear();
      ++summary.errors;
    } else {
      ++summary.passed;
    }
    output.testcaseFinished(result);
    if (outcome.signal) {
      summary.interruptedBy = outcome.signal;
      break;
    }
  }
  return summary;
}

}  // namespace nvbw
