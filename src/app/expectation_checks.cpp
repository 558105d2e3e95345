#include "app/expectation_checks.h"

#include <algorithm>

#include "model/report_document.h"

namespace nvbw {

std::vector<ExpectationResult> judgeExpectations(const Options& options,
                                                 const std::optional<Expectations>& file,
                                                 const nlohmann::json& report,
                                                 const StopRequest& stop) {
  std::vector<ExpectationResult> results;
  if (file) results.push_back(checkExpectations(*file, report, stop));
  if (options.minPercentOfPeak)
    results.push_back(checkPercentOfPeak(*options.minPercentOfPeak, report, stop));
  return results;
}

std::vector<ExpectationResult> judgeExpectations(const Options& options,
                                                 const std::optional<Expectations>& file,
                                                 const Report& report, const StopRequest& stop) {
  return judgeExpectations(options, file, reportDocument(report), stop);
}

bool anyExpectationFailed(const std::vector<ExpectationResult>& results) {
  return std::any_of(results.begin(), results.end(),
                     [](const ExpectationResult& r) { return !r.passed(); });
}

}  // namespace nvbw
