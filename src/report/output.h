// Output interface. The text and JSON implementations render the same results; formatting is
// pure and tested against golden files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fleet/comparison/comparison.h"
#include "facts/environment.h"
#include "core/phase_times.h"
#include "engine/results.h"
#include "core/statistics.h"
#include "fleet/sweep.h"
#include "platform/system_info.h"

namespace nvbw {

struct OutputSettings {
  bool verbose = false;
  bool perfFormatter = false;
};

// The settings a report records (JSON "settings").
struct RunSettings {
  std::uint64_t bufferSizeMiB = 512;
  unsigned testSamples = 3;
  std::uint64_t loopCount = 16;
  Statistic statistic = Statistic::Median;
  bool verify = true;
  bool cpuAffinity = true;
  bool useHugePages = false;       // -H
  long long targetNumPairs = -1;   // -P
  std::vector<std::string> pair;   // --pair tokens as given; empty when not given
  std::vector<std::uint64_t> sweepSizesMiB;  // --sweep; empty when not given
};

// What the report starts with. When the GPUs could not be opened (`gpusOpened` false), `system`
// holds only what is known without them: this build's versions, the host, the driver's version.
struct RunHeader {
  SystemInfo system;
  std::vector<std::string> warnings;
  RunSettings settings;
  bool gpusOpened = true;
  // The machine at the start of the run; absent when the GPUs could not be opened.
  std::optional<EnvironmentSnapshot> environment;
};

// How the run ended.
struct RunEnd {
  std::optional<int> interruptedBy;  // the signal that stopped the run early
  std::size_t finished = 0;          // testcases reported (passed, waived or failed)
  std::size_t selected = 0;          // testcases selected
  // Where the time went; absent when nothing ran (start-up failed).
  struct Timing {
    double wallSeconds = 0.0;
    PhaseTimes phases;
    MemoryStats memory;
  };
  std::optional<Timing> timing;
  // The machine at the end of the run, and what changed since the start (throttling, a link
  // that trained down): lines printed before the trailer and kept in the JSON "warnings".
  std::optional<EnvironmentSnapshot> environment;
  std::vector<std::string> warnings;
};

class Output {
 public:
  virtual ~Output() = default;
  // Version block, warnings, versions, host and device list.
  virtual void header(const RunHeader& header) = 0;
  virtual void testcaseStarted(const std::string& key) = 0;
  // Passed: the -v sample lines, every matrix with its SUM line and notes. Waived:
  // "Waived: <key>: <reason>". Error: "ERROR: <message>" (the runner puts the key in it).
  virtual void testcaseFinished(const TestcaseResult& result) = 0;
  // A run-level error (no driver, no GPU). JSON: the "error" key.
  virtual void globalError(const std::string& message) = 0;
  // --sweep: one testcase has run at every size (its per-size results came through
  // testcaseFinished, each with sweepSizeMiB set). Text: the size table; JSON: the "sweep" data.
  virtual void sweepFinished(const SweepTable& table) { (void)table; }
  // --baseline: the run compared with the saved report, before finish. Text: the table of the
  // cells that are not SAME and the summary; JSON: the "comparison" section.
  virtual void comparison(const Comparison& result) { (void)result; }
  // Trailer (text) or the whole document (JSON).
  virtual void finish(const RunEnd& end) = 0;
};

// Text: results to `out`, run-level errors to `err`.
std::unique_ptr<Output> makeTextOutput(std::ostream& out, std::ostream& err,
                                       OutputSettings settings);
std::unique_ptr<Output> makeJsonOutput(std::ostream& out, OutputSettings settings);

// The version of the JSON document's layout (top-level "schema_version"); docs/ holds the schema.
inline constexpr const char* kJsonSchemaVersion = "1.0";

}  // namespace nvbw
