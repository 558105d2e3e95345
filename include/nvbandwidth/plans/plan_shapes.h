// Plan shapes several testcase families share: a row of one cell per GPU (host and local
// testcases), and a square of one cell per ordered pair (device-to-device and multinode ones).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "plans/pair_selection.h"
#include "plans/plan.h"
#include "plans/plan_context.h"

namespace nvbw::plans {

// Which side's context issues a copy, as the testcase builders spell it.
inline constexpr ContextPreference kSrc = ContextPreference::PreferSrc;
inline constexpr ContextPreference kDst = ContextPreference::PreferDst;

// A 1 x N matrix titled `title`, N the context's GPUs: per GPU d one measurement of `copies(d)`,
// whose copy 0 is reported in column d.
Plan oneRowPerGpu(const PlanContext& ctx, const std::string& title,
                  const std::function<std::vector<CopySpec>(int device)>& copies);

// Per ordered pair (r, c) of `n` GPUs or ranks that `eligible(r, c)` admits and the run's pair
// rule (`chosen`) allows, one measurement (`measure(r, c)`) writing `perCell` (row and column
// filled in) at [r][c]; every other cell, the diagonal included, stays N/A.
void addPairMeasurements(Plan& plan, int n, const PairSet& chosen,
                         const std::function<bool(int r, int c)>& eligible,
                         const std::vector<OutputTarget>& perCell,
                         const std::function<Measurement(int r, int c)>& measure);

}  // namespace nvbw::plans
