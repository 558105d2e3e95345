// Output interface. The text and JSON implementations render the same events; formatting is pure
// and tested against golden files.
#pragma once

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "nvbandwidth/options.h"
#include "nvbandwidth/registry.h"
#include "nvbandwidth/results.h"
#include "nvbandwidth/system_info.h"

namespace nvbw {

// One verbose sample line: "\tSample <index>: <label>: <value> <unit>".
struct SampleEvent {
  unsigned sampleIndex = 0;
  std::string label;  // "Host -> Device 0", "Total Bandwidth ", "Device 0 -> Host (latency)"
  double value = 0.0;
  Unit unit = Unit::GBps;
};

struct OutputSettings {
  bool verbose = false;
  bool perfFormatter = false;
};

class Output {
 public:
  virtual ~Output() = default;
  // Version block, warnings, versions, host and device list. May be called with a partly filled
  // SystemInfo (no devices) when start-up failed.
  virtual void header(const SystemInfo& info, const std::vector<std::string>& warnings) = 0;
  virtual void testcaseStarted(const std::string& key) = 0;
  virtual void sample(const SampleEvent& event) = 0;
  // Passed: every matrix with its SUM line. Waived: "Waived: <key>: <reason>". Error:
  // "ERROR: <message>" (the runner puts the key in the message).
  virtual void testcaseFinished(const TestcaseResult& result) = 0;
  // A run-level error (no driver, no GPU). JSON: the "error" key.
  virtual void globalError(const std::string& message) = 0;
  // Trailer (text) or the whole document (JSON).
  virtual void finish() = 0;
};

// Text: results to `out`, run-level errors to `err`.
std::unique_ptr<Output> makeTextOutput(std::ostream& out, std::ostream& err,
                                       OutputSettings settings);
std::unique_ptr<Output> makeJsonOutput(std::ostream& out, OutputSettings settings);

// "nvbandwidth Version: v0.8\nBuilt from Git version: <git>\n\n"
std::string versionBlock(const std::string& version, const std::string& gitVersion);

// -l in text: header line and every entry as upstream prints it.
std::string listingText(const std::vector<TestcaseDef>& registry);
// -j -l: {"nvbandwidth": {"version":..., "testcases": [{"index","name","description"}...]}}
std::string listingJson(const std::vector<TestcaseDef>& registry, const std::string& version,
                        const std::string& gitVersion);

}  // namespace nvbw
