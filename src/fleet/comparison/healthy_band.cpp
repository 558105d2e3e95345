#include "fleet/comparison/healthy_band.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/statistics.h"
#include "core/text.h"

namespace nvbw {

namespace {

const PriorRow* rowNamed(const std::vector<PriorRow>& rows, const std::string& name) {
  for (const PriorRow& row : rows)
    if (name == row.name) return &row;
  return nullptr;
}

double rootMeanSquare(const std::vector<double>& values) {
  const double squares = std::inner_product(values.begin(), values.end(), values.begin(), 0.0);
  return values.empty() ? 0.0 : std::sqrt(squares / static_cast<double>(values.size()));
}

}  // namespace

const char* testcaseFamily(const std::string& t) {
  if (contains(t, "latency"))
    return contains(t, "host") ? "host latency" : "device-to-device latency";
  if (contains(t, "device_local")) return "device local";
  if (contains(t, "host")) return contains(t, "bidirectional") ? "host bidirectional" : "host";
  if (startsWith(t, "device_to_device") || startsWith(t, "multinode") ||
      contains(t, "all_to_one") || contains(t, "one_to_all"))
    return "device-to-device";
  return "other";
}

const PriorRow& spreadPrior(const std::string& testcase) {
  const PriorRow* row = rowNamed(testcasePriors(), testcase);
  return row ? *row : *rowNamed(familyPriors(), testcaseFamily(testcase));  // every family has one
}

double spreadPercent(const std::vector<double>& values) {
  if (values.size() < 2) return 0.0;
  const double middle = median(values);
  if (!(middle > 0.0)) return 0.0;
  return 100.0 * std::max(2.0 * stddev(values), maximum(values) - minimum(values)) / middle;
}

double pooledSpread(double prior, double observed, std::size_t reports) {
  const double degrees = reports > 1 ? static_cast<double>(reports - 1) : 0.0;
  const double pooled = std::sqrt((kPriorDegrees * prior * prior + degrees * observed * observed) /
                                  (kPriorDegrees + degrees));
  return std::max(observed, pooled);
}

ComparedCellRecord healthyBand(const HealthySide& side, const PriorRow& prior,
                               double tolerancePercent) {
  const double runToRun =
      pooledSpread(prior.runToRunPercent, spreadPercent(side.values), side.values.size());
  const double samples = median(side.withinRun);  // 0 without samples
  const double healthySpread = std::max(runToRun, samples);
  const double band = std::max(tolerancePercent, kBandFactor * healthySpread);
  const double healthyWithinRun = std::max(
      maximum(side.withinRun),
      pooledSpread(prior.withinRunPercent, rootMeanSquare(side.withinRun), side.withinRun.size()));
  ComparedCellRecord b;
  b.baseline = median(side.values);
  b.baselineReports = side.values.size();
  b.runToRunPercent = runToRun;
  b.healthySpreadPercent = healthySpread;
  b.bandPercent = band;
  b.basis = band == tolerancePercent ? "tolerance" : samples > runToRun ? "samples" : "run-to-run";
  b.unstableLimitPercent =
      std::max({kUnstableFloorPercent, tolerancePercent, kUnstableFactor * healthyWithinRun});
  return b;
}

}  // namespace nvbw
