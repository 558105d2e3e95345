// A view of a run's Report as it grows: the builder (report_builder.h) appends each finished
// testcase's entries and then hands them to its view, so the text prints them as they arrive
// from the same entries --from prints a saved run from.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/report.h"
#include "report/run_report.h"

namespace nvbw {

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

}  // namespace nvbw
