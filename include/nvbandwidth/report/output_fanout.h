// One Report, several views (owned): forwards every step of a run to each view in turn (the printed
// text, its --output copy), calling `before` first so that a progress line can be erased before
// anything else is printed, and `afterTestcase` once a testcase's step (started, finished, a
// sweep's table) has been shown.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "report/report_view.h"

namespace nvbw {

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
