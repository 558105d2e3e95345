// Plan shapes several testcase families share: a row of one cell per GPU (host, local, fan and
// multinode testcases), and a square of one cell per ordered pair (device-to-device and multinode
// ones). A shape spans the context's GPUs (PairScope::Devices) or its ranks, one GPU each
// (PairScope::Ranks: then the plan is a multi-process one).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "plans/pair_selection.h"
#include "plans/plan.h"
#include "plans/testcase.h"

namespace nvbw::plans {

// The method's name in titles ("CE", "SM", "TMA"); throws std::invalid_argument for the methods
// of the split-warp, multicast and one-way kernels, which no title names so.
const char* engineName(CopyMethod method);

// How many GPUs or ranks `scope` spans (0 when none).
std::size_t membersOf(const PlanContext& ctx, PairScope scope);

// An n x n matrix, n the scope's members. Its key is a suffix for the runner to qualify ("" or
// "_read1", ...).
MatrixSpec squareMatrix(const PlanContext& ctx, PairScope scope, std::string keySuffix,
                        std::string title, Unit unit = Unit::GBps);

// A 1 x n matrix titled `title`, n the scope's members: per member d one measurement of
// `copies(d)`, whose `source` (copy 0 by default) is reported at [0][d]; a member without copies
// stays N/A.
Plan oneRowPerGpu(const PlanContext& ctx, const std::string& title,
                  const std::function<std::vector<CopySpec>(int device)>& copies,
                  ValueSource source = ValueSource::Copy, PairScope scope = PairScope::Devices);

// A fan: per member d, the copies `transfer(d, k)` with each partner k at once (every member
// pairable with d; --pair leaves each of the pair with the other only; -P does not apply, a fan is
// per GPU), `source` reported at [0][d] of a 1 x n matrix titled `title`.
Plan fanPlan(const PlanContext& ctx, PairScope scope, std::string title,
             const std::function<CopySpec(int d, int k)>& transfer, ValueSource source);

// Per ordered pair (r, c) of the scope's members that are pairable and that the run's pair rule
// allows, one measurement (`measure(r, c)`) writing `perCell` (row and column filled in) at
// [r][c] of `matrices`; every other cell, the diagonal included, stays N/A. Scheduled as the run
// asks for the scope.
Plan pairPlan(const PlanContext& ctx, PairScope scope, std::vector<MatrixSpec> matrices,
              const std::vector<OutputTarget>& perCell,
              const std::function<Measurement(int r, int c)>& measure);

// One n x n matrix titled `title`: `transfer(r, c)` is the one copy measured at [r][c].
Plan copyPairPlan(const PlanContext& ctx, PairScope scope, std::string title,
                  const std::function<CopySpec(int r, int c)>& transfer);

// Both directions of each pair at once, `copies(r, c)` (two): three n x n matrices, _<keyLabel>1
// (copy 0), _<keyLabel>2 (copy 1) and _total (their per-sample sum), titled `titleBase` then
// "<titleLabel>1 ", "<titleLabel>2 " or "Total ", then "bandwidth (GB/s)".
Plan bidirectionalPairPlan(const PlanContext& ctx, PairScope scope, const std::string& keyLabel,
                           const std::string& titleBase, const std::string& titleLabel,
                           const std::function<std::vector<CopySpec>(int r, int c)>& copies);

}  // namespace nvbw::plans
