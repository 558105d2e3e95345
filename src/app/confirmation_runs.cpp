#include "app/confirmation_runs.h"

#include <algorithm>
#include <chrono>

#include "report/report_builder.h"

namespace nvbw {
namespace {

// One measurement of one testcase at one size, as the report's entries of confirmation run
// `round` (each with the size, in a sweep); the loop's summary tells how it ended.
LoopSummary measureOnce(const LoopRequest& run, const RunHeader& header, std::size_t index,
                        std::optional<std::uint64_t> sizeMiB, unsigned round,
                        PlanExecutor& executor, const LoopControl& control,
                        std::vector<ReportEntry>& entries) {
  const std::vector<Selection> selection = {{index, run.registry[index].key, ""}};
  // The run's request for this one testcase at this one size: its pairs and schedule kept.
  const std::size_t bytes = sizeMiB ? static_cast<std::size_t>(*sizeMiB * kMiB) : run.bufferBytes;
  const LoopRequest one{run.registry,          selection, run.topology, bytes, run.pairs,
                        run.hostMemoryProblem, {},        run.schedule};
  ReportBuilder capture;
  capture.header(header);
  const LoopSummary summary = runTestcaseLoop(one, executor, capture, control);
  capture.finish(RunEnd{});
  for (ReportEntry& entry : *capture.report().testcases) {
    if (sizeMiB) entry.bufferSizeMiB = *sizeMiB;
    entry.confirmationRun = round;
    entries.push_back(std::move(entry));
  }
  return summary;
}

}  // namespace

ConfirmationRuns runConfirmations(const LoopRequest& run, const RunHeader& header,
                                  const std::vector<SuspectRecord>& suspects, unsigned runs,
                                  PlanExecutor& executor, const LoopControl& control) {
  const auto start = std::chrono::steady_clock::now();
  ConfirmationRuns out;
  out.summary.runs = runs;
  out.summary.testcases = suspects;
  for (unsigned round = 1; round <= runs && !out.interruptedBy; ++round) {
    for (const SuspectRecord& suspect : suspects) {
      const auto def = std::find_if(run.registry.begin(), run.registry.end(), [&](const auto& d) {
        return d.key == suspect.testcase.value_or("");
      });
      if (def == run.registry.end()) continue;
      const LoopSummary summary =
          measureOnce(run, header, def - run.registry.begin(), suspect.bufferSizeMiB, round,
                      executor, control, out.entries);
      out.errors += summary.errors;
      if (summary.interruptedBy) {
        out.interruptedBy = summary.interruptedBy;
        break;
      }
    }
  }
  out.summary.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace nvbw
