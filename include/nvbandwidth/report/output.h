// A run's steps as they happen, and who hears of them: the testcase loop reports to an Output
// (report_builder.h is its one receiver, converting the engine's results into the Report), the
// builder hands what it appended to a ReportView (the text), which prints each testcase from the
// same entries --from prints a saved run from. Both hear how the run starts (RunHeader: versions,
// warnings, settings, the machine) and how it ended (RunEnd: interruption, timing, the machine).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/phase_times.h"
#include "engine/results.h"
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

class ReportView {
 public:
  virtual ~ReportView() = default;
  virtual void header(const RunHeader& header) = 0;
  virtual void testcaseStarted(const std::string& key) = 0;
  // The entries one finished testcase (or one size of a sweep) added to the Report, in order.
  virtual void testcaseFinished(const std::vector<const ReportEntry*>& entries) = 0;
  // --sweep: one testcase has run at `sizesMiB`; `entries` are its entries at every size.
  virtual void sweepFinished(const std::vector<const ReportEntry*>& entries,
                             const std::vector<std::uint64_t>& sizesMiB) = 0;
  virtual void globalError(const std::string& message, const std::string& detail) = 0;
  virtual void finish(const RunEnd& end) = 0;
};

class Output {
 public:
  virtual ~Output() = default;
  virtual void header(const RunHeader& header) = 0;
  virtual void testcaseStarted(const std::string& key) = 0;
  // An ERROR's message names the testcase (the runner puts the key in it).
  virtual void testcaseFinished(const TestcaseResult& result) = 0;
  // A run-level error (no driver, no GPU). JSON: the "error" key, and `detail` (core/error.h) as
  // "error_detail" where it is not empty.
  virtual void globalError(const std::string& message, const std::string& detail) = 0;
  // --sweep: `testcase` has run at `sizesMiB` (each size's result came through testcaseFinished
  // with sweepSizeMiB set; none for a size an interrupted run never reached).
  virtual void sweepFinished(const std::string& /*testcase*/,
                             const std::vector<std::uint64_t>& /*sizesMiB*/) {}
  // The run's end. Its verdicts (--baseline, --expect) are made afterwards, on the finished
  // Report (app/application.cpp).
  virtual void finish(const RunEnd& end) = 0;
};

// One Report, several views (owned): forwards every step of a run to each view in turn (the printed
// text, its --output copy), calling `before` first so that a progress line can be erased before
// anything else is printed, and `afterTestcase` once a testcase's step (started, finished, a
// sweep's table) has been shown.
class FanView final : public ReportView {
 public:
  explicit FanView(std::vector<std::unique_ptr<ReportView>> views,
                   std::function<void()> before = {}, std::function<void()> afterTestcase = {})
      : views_(std::move(views)), before_(std::move(before)),
        afterTestcase_(std::move(afterTestcase)) {}
  void header(const RunHeader& h) override {
    each([&](ReportView& v) { v.header(h); });
  }
  void testcaseStarted(const std::string& key) override {
    each([&](ReportView& v) { v.testcaseStarted(key); });
    testcaseShown();
  }
  void testcaseFinished(const std::vector<const ReportEntry*>& entries) override {
    each([&](ReportView& v) { v.testcaseFinished(entries); });
    testcaseShown();
  }
  void sweepFinished(const std::vector<const ReportEntry*>& entries,
                     const std::vector<std::uint64_t>& sizesMiB) override {
    each([&](ReportView& v) { v.sweepFinished(entries, sizesMiB); });
    testcaseShown();
  }
  void globalError(const std::string& m, const std::string& detail) override {
    each([&](ReportView& v) { v.globalError(m, detail); });
  }
  void finish(const RunEnd& end) override {
    each([&](ReportView& v) { v.finish(end); });
  }

 private:
  template <typename Step> void each(Step step) {
    if (before_) before_();
    for (const std::unique_ptr<ReportView>& v : views_) step(*v);
  }
  void testcaseShown() {
    if (afterTestcase_) afterTestcase_();
  }
  std::vector<std::unique_ptr<ReportView>> views_;
  std::function<void()> before_;
  std::function<void()> afterTestcase_;
};

}  // namespace nvbw
