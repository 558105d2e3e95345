// Output interface. The text and JSON implementations render the same results; formatting is
// pure and tested against golden files.
#pragma once

#include <string>
#include <vector>

#include "core/compat_mode.h"
#include "engine/results.h"
#include "report/run_report.h"
#include "report/sweep.h"

namespace nvbw {

struct OutputSettings {
  bool verbose = false;
  bool perfFormatter = false;
  // Text: v0.10's header lines and COEFFICIENT_OF_VARIATION lines (JSON is the same in both).
  CompatMode compat = CompatMode::V0_8;
};

class Output {
 public:
  virtual ~Output() = default;
  // Version block, warnings, versions, host and device list.
  virtual void header(const RunHeader& header) = 0;
  virtual void testcaseStarted(const std::string& key) = 0;
  // Passed: the -v sample lines, every matrix with its SUM line and notes. Waived: the reason.
  // Error: the message (the runner puts the key in it). Text: output_text.cpp says which stream.
  virtual void testcaseFinished(const TestcaseResult& result) = 0;
  // A run-level error (no driver, no GPU). JSON: the "error" key, and `detail` (core/error.h) as
  // "error_detail" where it is not empty.
  virtual void globalError(const std::string& message, const std::string& detail) = 0;
  void globalError(const std::string& message) { globalError(message, std::string()); }
  // --sweep: one testcase has run at every size (its per-size results came through
  // testcaseFinished, each with sweepSizeMiB set). Text: the size table; JSON: the "sweep" data.
  virtual void sweepFinished(const SweepTable& table) { (void)table; }
  // Trailer (text) or the whole document (JSON). The verdicts of a run (--baseline, --expect)
  // are not the outputs' business: they are made on the finished Report (app/application.cpp).
  virtual void finish(const RunEnd& end) = 0;
};

}  // namespace nvbw
