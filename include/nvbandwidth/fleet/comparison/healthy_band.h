// What the healthy side of a comparison knows about one cell, and the limits the run under
// judgment is held to (the rules are docs/verdicts.md's). Pure.
//
// Spread. Everywhere the tool's noise formula: 100 x max(2 x stddev, max - min) / median, of a
// cell's samples in one report (within-run spread) or of its values in several reports
// (run-to-run spread).
//
// The prior. One baseline report cannot say how far a cell moves between healthy runs (its three
// samples move 2 to 5 times less than whole runs do). The prior is, per testcase, the largest
// run-to-run and within-run spread of any of its cells in the committed reports of unchanged
// machines (tests/golden/run_to_run: 4 default runs of one H200; tests/golden/run_to_run_x2: 3
// of two H200s), as tools/run_to_run_priors.py measures them; a testcase they do not have takes
// its family's largest (kFamilyPriors).
//
// Several baseline reports. Their spread is evidence of its own, weighed against the prior as
// a variance estimate with degrees of freedom: the prior counts as kPriorDegrees (the four runs
// it was measured from), K reports as K - 1:
//     pooled = sqrt((kPriorDegrees x prior^2 + (K - 1) x observed^2) / (kPriorDegrees + K - 1))
// and never less than what the reports themselves show. One report: the prior; two or three:
// mostly the prior (two close runs of a cell that moves 11% say little); tens: their own spread.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace nvbw {

// band = max(tolerance, kBandFactor x healthy spread): a spread is about the range of four
// runs, and a fifth run (or one judged against a single earlier run) may fall a little outside
// it; 1.5 keeps the worst pair of the references (host bidirectional copies, 11.8% apart) and
// of six more runs of another H200 (10.8%) inside the band.
inline constexpr double kBandFactor = 1.5;
// UNSTABLE: the run's spread above max(kUnstableFloorPercent, tolerance, kUnstableFactor x the
// healthy within-run spread). Three times the largest spread healthy runs showed is well beyond
// what they do; the floor keeps 0.05% against 0.2% (a cell that never moves) from counting, and
// a spread below the tolerance cannot move a median beyond any band.
inline constexpr double kUnstableFactor = 3.0;
inline constexpr double kUnstableFloorPercent = 5.0;
inline constexpr double kPriorDegrees = 3.0;

// The prior run-to-run and within-run spreads of a testcase, percent.
struct SpreadPrior {
  double runToRunPercent = 0.0;
  double withinRunPercent = 0.0;
};

// One row of the measured table: a testcase, or a family (run_to_run_priors.cpp).
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
SpreadPrior spreadPrior(const std::string& testcase);

// The spread of `values` (see above); 0 for fewer than 2 values or a median not above 0.
double spreadPercent(const std::vector<double>& values);

// The prior pooled with the spread `observed` of `reports` reports (see above).
double pooledSpread(double prior, double observed, std::size_t reports);

// The healthy side of one cell: its value in each baseline report that has it and, for the
// reports whose cell has samples, their within-run spreads.
struct HealthySide {
  std::vector<double> values;
  std::vector<double> withinRun;
};

// What a cell is judged against.
struct HealthyBand {
  double reference = 0.0;      // the median of the baseline values
  std::size_t reports = 0;     // how many baseline reports have the cell
  double runToRunPercent = 0;  // prior, pooled with the reports' spread where there are several
  double healthySpreadPercent = 0;  // max(run-to-run, median within-run spread of the reports)
  double bandPercent = 0;           // max(tolerance, kBandFactor x healthy spread)
  // What the band is: "tolerance", "run-to-run" (the spread between runs) or "samples" (the
  // baseline reports' own samples, where they spread more).
  std::string basis;
  double healthyWithinRunPercent = 0;  // pooled like run-to-run, at least the largest observed
  double unstableLimitPercent = 0;     // beyond it the run's own spread is UNSTABLE
};

// `side.values` must not be empty; `tolerancePercent` >= 0.
HealthyBand healthyBand(const HealthySide& side, const SpreadPrior& prior, double tolerancePercent);

}  // namespace nvbw
