#include "app/confirmation_runs.h"

#include <chrono>

#include "report/report_builder.h"

namespace nvbw {
namespace {

std::optional<std::size_t> registryIndex(const std::vector<TestcaseDef>& registry,
                                         const std::string& key) {
  for (std::size_t i = 0; i < registry.size(); ++i)
    if (registry[i].key == key) return i;
  return std::nullopt;
}

// One measurement of one testcase at one size, as the report's entries (each with the size, in a
// sweep); the loop's summary tells how it ended.
LoopSummary measureOnce(const LoopRequest& run, const RunHeader& header, std::size_t index,
                        std::optional<std::uint64_t> sizeMiB, PlanExecutor& executor,
                        const LoopControl& control, std::vector<ReportEntry>& entries) {
  const std::vector<Selection> selection = {{index, run.registry[index].key, ""}};
  // The run's request for this one testcase at this one size: its pairs and schedule kept.
  LoopRequest one{run.registry,    selection, run.topology,
                  run.bufferBytes, run.pairs, run.hostMemoryProblem};
  if (sizeMiB) one.bufferBytes = static_cast<std::size_t>(*sizeMiB * kMiB);
  one.schedule = run.schedule;
  ReportBuilder capture;
  capture.header(header);
  const LoopSummary summary = runTestcaseLoop(one, executor, capture, control);
  capture.finish(RunEnd{});
  for (ReportEntry& entry : *capture.report().testcases) {
    if (sizeMiB) entry.bufferSizeMiB = *sizeMiB;
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
      const std::optional<std::size_t> index =
          registryIndex(run.registry, suspect.testcase.value_or(""));
      if (!index) continue;
      std::vector<ReportEntry> entries;
      const LoopSummary summary =
          measureOnce(run, header, *index, suspect.bufferSizeMiB, executor, control, entries);
      for (ReportEntry& entry : entries) {
        entry.confirmationRun = round;
        out.entries.push_back(std::move(entry));
      }
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
