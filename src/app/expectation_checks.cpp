#include "app/expectation_checks.h"

#include <algorithm>

#include "plans/registry.h"

namespace nvbw {

ExpectationKeys expectationKeys() {
  ExpectationKeys keys;
  for (const auto& testcase : registeredTestcases()) {
    const TestcaseFacts& facts = testcase->facts();
    const ExpectationKey key{facts.listing.key, unitName(facts.unit)};
    keys.emplace(key.testcase, key);
    for (const std::string& part : facts.parts) keys.emplace(key.testcase + "_" + part, key);
  }
  return keys;
}

std::vector<ExpectationSection> judgeExpectations(const Options& options,
                                                  const std::optional<Expectations>& file,
                                                  const Report& report, const StopRequest& stop) {
  if (!file && !options.minPercentOfPeak) return {};
  const ExpectationKeys keys = expectationKeys();
  std::vector<ExpectationSection> results;
  if (file) results.push_back(checkExpectations(*file, report, keys, stop));
  if (options.minPercentOfPeak)
    results.push_back(checkPercentOfPeak(*options.minPercentOfPeak, report, keys, stop));
  return results;
}

bool anyExpectationFailed(const std::vector<ExpectationSection>& results) {
  return std::any_of(results.begin(), results.end(),
                     [](const ExpectationSection& r) { return !r.passed.value_or(false); });
}

}  // namespace nvbw
