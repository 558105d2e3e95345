// What the healthy side of a comparison knows about one cell, and the limits the run under
// judgment is held to. Pure. The rules and why (the spread formula, the prior per testcase and its
// pooling with several baseline reports' spread): docs/verdicts.md, "The band" and "Verdicts".
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "model/report.h"

namespace nvbw {

// band = max(tolerance, kBandFactor x healthy spread); UNSTABLE: the run's spread above
// max(kUnstableFloorPercent, tolerance, kUnstableFactor x the healthy within-run spread); the
// prior counts as kPriorDegrees degrees of freedom when pooled.
inline constexpr double kBandFactor = 1.5;
inline constexpr double kUnstableFactor = 3.0;
inline constexpr double kUnstableFloorPercent = 5.0;
inline constexpr double kPriorDegrees = 3.0;

// The prior run-to-run and within-run spreads, percent, of a testcase or a family: one row of the
// measured table (run_to_run_priors.cpp).
struct PriorRow {
  const char* name;
  double runToRunPercent;
  double withinRunPercent;
};
const std::vector<PriorRow>& testcasePriors();
const std::vector<PriorRow>& familyPriors();

// "host", "host bidirectional", "host latency", "device-to-device", "device-to-device latency",
// "device local", or "other" (none of these), by the testcase's name.
const char* testcaseFamily(const std::string& testcase);

// The testcase's row, else its family's.
const PriorRow& spreadPrior(const std::string& testcase);

// 100 x max(2 x stddev, max - min) / median of `values`; 0 for fewer than 2 values or a median
// not above 0.
double spreadPercent(const std::vector<double>& values);

// sqrt((kPriorDegrees x prior^2 + (K - 1) x observed^2) / (kPriorDegrees + K - 1)) for K
// `reports`, and never less than `observed`.
double pooledSpread(double prior, double observed, std::size_t reports);

// The healthy side of one cell: its value in each baseline report that has it and, for the
// reports whose cell has samples, their within-run spreads.
struct HealthySide {
  std::vector<double> values;
  std::vector<double> withinRun;
};

// What a cell is judged against, as its record holds it (docs/nvbandwidth.schema.json,
// "comparison.cells"): the baseline (the median of the values) and band members, the other
// members absent. `side.values` must not be empty; `tolerancePercent` >= 0.
ComparedCellRecord healthyBand(const HealthySide& side, const PriorRow& prior,
                               double tolerancePercent);

}  // namespace nvbw
