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

}  // namespace

RunSummary runTestcases(const std::vector<TestcaseDef>& registry,
                        const std::vector<Selection>& selection, const Topology& topology,
                        std::size_t bufferBytes, PlanRunner& planRunner, Output& output) {
  RunSummary summary;
  for (const Selection& sel : selection) {
    TestcaseResult result;
    if (!sel.index || *sel.index >= registry.size()) {
      result.name = sel.token;
      result.status = Status::Error;
      result.message = sel.error.empty() ? "Testcase " + sel.token + " not found!" : sel.error;
      ++summary.errors;
      output.testcaseFinished(result);
      continue;
    }
    const TestcaseDef& def = registry[*sel.index];
    result.name = def.key;
    if (auto reason = waiveReasonFor(def, topology)) {
      result.status = Status::Waived;
      result.message = *reason;
      ++summary.waived;
      output.testcaseFinished(result);
      continue;
    }
    output.testcaseStarted(def.key);
    // One failing testcase never stops the run: report it and go on with the next.
    auto fail = [&](const std::string& why) {
      result.status = Status::Error;
      result.message = "Testcase " + def.key + " failed: " + why;
      result.matrices.clear();
      ++summary.errors;
    };
    try {
      const Plan plan = def.plan(PlanContext{topology, bufferBytes});
      result.matrices = planRunner.run(plan, [&output](const SampleEvent& e) { output.sample(e); });
      qualifyKeys(result.matrices, def.key);
      result.status = Status::Passed;
      ++summary.passed;
    } catch (const std::exception& e) {
      fail(e.what());
    } catch (...) {
      fail("unknown exception");
    }
    output.testcaseFinished(result);
  }
  return summary;
}

}  // namespace nvbw
