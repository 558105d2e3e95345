// One report, several views: forwards every step of a run to each output in turn (the printed
// report, and a JSON capture that --baseline and --html read), calling `before` first so that a
// progress line can be erased before anything else is printed.
#pragma once

#include <functional>
#include <vector>

#include "report/output.h"

namespace nvbw {

class FanOutput final : public Output {
 public:
  explicit FanOutput(std::vector<Output*> outputs, std::function<void()> before = {})
      : outputs_(std::move(outputs)), before_(std::move(before)) {}
  void header(const RunHeader& h) override {
    each([&](Output& o) { o.header(h); });
  }
  void testcaseStarted(const std::string& key) override {
    each([&](Output& o) { o.testcaseStarted(key); });
  }
  void testcaseFinished(const TestcaseResult& r) override {
    each([&](Output& o) { o.testcaseFinished(r); });
  }
  void globalError(const std::string& m, const std::string& detail) override {
    each([&](Output& o) { o.globalError(m, detail); });
  }
  void sweepFinished(const SweepTable& t) override {
    each([&](Output& o) { o.sweepFinished(t); });
  }
  void finish(const RunEnd& end) override {
    each([&](Output& o) { o.finish(end); });
  }

 private:
  template <typename Step> void each(Step step) {
    if (before_) before_();
    for (Output* o : outputs_) step(*o);
  }
  std::vector<Output*> outputs_;
  std::function<void()> before_;
};

}  // namespace nvbw
