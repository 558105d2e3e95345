// The verdict rules' pieces that the saved-report rule (comparison.cpp) and the confirmation
// (comparison_confirm.cpp) share. Private to the comparison.
#pragma once

#include <optional>
#include <string>

namespace nvbw::comparison {

// (current - baseline) / baseline x 100; +-infinity for a baseline of 0 and a current that is not.
double changePercent(double baseline, double current);

// `change` is beyond `band` in the slower direction of `unit` (GB/s down, ns up).
bool slowerBeyondBand(double change, double band, const std::string& unit);

// `spread` is known and above `limit`.
bool aboveUnstableLimit(const std::optional<double>& spread, double limit);

}  // namespace nvbw::comparison
