#include "app/expectation_checks.h"

#include <algorithm>

namespace nvbw {

std::vector<ExpectationResult> judgeExpectations(const Options& options,
                                                 const std::optional<Expectations>& file,
                                                 const nlohmann::json& report) {
  std::vector<ExpectationResult> results;
  if (file) results.push_back(checkExpectations(*file, report));
  if (options.minPercentOfPeak)
    results.push_back(checkPercentOfPeak(*options.minPercentOfPeak, report));
  return results;
}

bool anyExpectationFailed(const std::vector<ExpectationResult>& results) {
  return std::any_of(results.begin(), results.end(),
                     [](const ExpectationResult& r) { return !r.passed(); });
}

}  // namespace nvbw
