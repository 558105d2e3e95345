// What a run's report holds besides its testcases: how it starts (versions, warnings, settings,
// the machine) and how the run ended (interruption, timing, the machine at the end).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/phase_times.h"
#include "facts/environment.h"
#include "model/report.h"
#include "platform/system_facts.h"

namespace nvbw {

// What the report starts with. When the GPUs could not be opened (`gpusOpened` false), `system`
// holds only what is known without them: this build's versions, the host, the driver's version.
struct RunHeader {
  SystemFacts system;
  std::vector<std::string> warnings;
  // Lines of ours for the person running it that a parser must not read: stderr in text (stdout
  // keeps upstream's header), "notes" in JSON.
  std::vector<std::string> notes;
  SettingsRecord settings;  // how the run measures, as the report records it
  bool gpusOpened = true;
  // The machine at the start of the run; absent when the GPUs could not be opened.
  std::optional<EnvironmentSnapshot> environment;
  // When the run started, ISO 8601 in UTC ("2026-12-01T12:34:56Z"); absent in tests that need
  // documents without a clock in them.
  std::optional<std::string> startedAt;
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
    OperationCounts operations;
  };
  std::optional<Timing> timing;
  // The machine at the end of the run, and what changed since the start (throttling, a link
  // that trained down): lines printed before the trailer and kept in the JSON "warnings".
  std::optional<EnvironmentSnapshot> environment;
  std::vector<std::string> warnings;
};

}  // namespace nvbw
