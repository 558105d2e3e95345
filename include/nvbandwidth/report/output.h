// What the testcase loop reports a run's steps to: the engine's results meet the Report here
// (report_builder.h is the one receiver that converts them; the views render the Report).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/results.h"
#include "report/report_view.h"

namespace nvbw {

class Output {
 public:
  virtual ~Output() = default;
  // Version block, warnings, versions, host and device list.
  virtual void header(const RunHeader& header) = 0;
  virtual void testcaseStarted(const std::string& key) = 0;
  // Passed: the -v sample lines, every matrix. Waived: the reason. Error: the message (the runner
  // puts the key in it).
  virtual void testcaseFinished(const TestcaseResult& result) = 0;
  // A run-level error (no driver, no GPU). JSON: the "error" key, and `detail` (core/error.h) as
  // "error_detail" where it is not empty.
  virtual void globalError(const std::string& message, const std::string& detail) = 0;
  void globalError(const std::string& message) { globalError(message, std::string()); }
  // --sweep: `testcase` has run at `sizesMiB` (its per-size results came through
  // testcaseFinished, each with sweepSizeMiB set; a size an interrupted run never reached has
  // none).
  virtual void sweepFinished(const std::string& /*testcase*/,
                             const std::vector<std::uint64_t>& /*sizesMiB*/) {}
  // Trailer (text) or the whole document (JSON). The verdicts of a run (--baseline, --expect)
  // are not the outputs' business: they are made on the finished Report (app/application.cpp).
  virtual void finish(const RunEnd& end) = 0;
};

}  // namespace nvbw
