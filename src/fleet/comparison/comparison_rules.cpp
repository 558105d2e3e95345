#include "fleet/comparison/comparison_rules.h"

#include <cmath>
#include <limits>

namespace nvbw::comparison {

double changePercent(double baseline, double current) {
  if (baseline != 0.0) return (current - baseline) / baseline * 100.0;
  if (current == 0.0) return 0.0;
  return std::copysign(std::numeric_limits<double>::infinity(), current);
}

bool slowerBeyondBand(double change, double band, const std::string& unit) {
  return std::fabs(change) > band && (change > 0.0) == (unit == "ns");
}

bool aboveUnstableLimit(const std::optional<double>& spread, double limit) {
  return spread && *spread > limit;
}

}  // namespace nvbw::comparison
