#include "nvbandwidth/runner.h"

#include <exception>

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

// Runs one testcase's plan. Returns the local error, if any; `interruptedBy` gets the signal
// when the run was asked to stop.
std::optional<std::string> measure(const TestcaseDef& def, const RunRequest& request,
                                   PlanRunner& planRunner, const RunControl& control,
                                   TestcaseResult& result, std::optional<int>& interruptedBy) {
  try {
    const Plan plan = def.plan(PlanContext{request.topology, request.bufferBytes});
    PlanResult measured = planRunner.run(plan, control.progress);
    result.matrices = std::move(measured.matrices);
    result.measurements = std::move(measured.measurements);
    qualifyKeys(result.matrices, def.key);
    return std::nullopt;
  } catch (const Interrupted& e) {
    interruptedBy = e.signal();
    return std::string(e.what());
  } catch (const std::exception& e) {
    return testcaseFailure(def.key, e.what());
  } catch (...) {
    return testcaseFailure(def.key, "unknown exception");
  }
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
    if (const int signal = control.stopRequested ? control.stopRequested() : 0) {
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
    if (auto reason = waiveReasonFor(def, request.topology)) {
      result.status = Status::Waived;
      result.message = *reason;
      ++summary.waived;
      output.testcaseFinished(result);
      continue;
    }
    output.testcaseStarted(def.key);
    const std::optional<std::string> localError =
        measure(def, request, planRunner, control, result, summary.interruptedBy);
    // Every process reports the same outcome: one place where a multi-process run agrees.
    if (const std::optional<std::string> error = agreeOnError(comm, localError)) {
      result.status = Status::Error;
      result.message = *error;
      result.matrices.clear();
      result.measurements.clear();
      ++summary.errors;
    } else {
      ++summary.passed;
    }
    output.testcaseFinished(result);
    if (summary.interruptedBy) break;
  }
  return summary;
}

}  // namespace nvbw
