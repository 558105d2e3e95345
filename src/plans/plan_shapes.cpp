#include "plans/plan_shapes.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "plans/schedule.h"

namespace nvbw::plans {
namespace {

int count(const PlanContext& ctx, PairScope scope) {
  return scope == PairScope::Devices ? ctx.topology.deviceCount()
                                     : ctx.topology.processFacts().processes;
}

// Whether two of them are used together: two GPUs only when each can access the other
// (testcases.h says why), two ranks whenever they differ.
bool pairable(const PlanContext& ctx, PairScope scope, int a, int b) {
  if (scope == PairScope::Ranks) return a != b;
  return a != b && ctx.topology.canAccessPeer(a, b) && ctx.topology.canAccessPeer(b, a);
}

}  // namespace

const char* engineName(CopyMethod method) {
  if (method == CopyMethod::CopyEngine) return "CE";
  if (method == CopyMethod::SmCopy) return "SM";
  if (method == CopyMethod::Tma) return "TMA";
  throw std::invalid_argument(
      "these testcases run on the copy engine, the SM copy kernel or the TMA only");
}

std::size_t membersOf(const PlanContext& ctx, PairScope scope) {
  return static_cast<std::size_t>(std::max(0, count(ctx, scope)));
}

MatrixSpec squareMatrix(const PlanContext& ctx, PairScope scope, std::string keySuffix,
                        std::string title, Unit unit) {
  const std::size_t n = membersOf(ctx, scope);
  return {std::move(keySuffix), std::move(title), unit, n, n, {}};
}

Plan oneRowPerGpu(const PlanContext& ctx, const std::string& title,
                  const std::function<std::vector<CopySpec>(int device)>& copies,
                  ValueSource source, PairScope scope) {
  Plan plan;
  plan.matrices.push_back({"", title, Unit::GBps, 1, membersOf(ctx, scope), {}});
  plan.multiProcess = scope == PairScope::Ranks;
  for (int d = 0; d < count(ctx, scope); ++d) {
    Measurement m{copies(d), std::nullopt, {}};
    if (m.copies.empty()) continue;
    m.outputs.push_back({0, 0, static_cast<std::size_t>(d), source, 0});
    plan.measurements.push_back(std::move(m));
  }
  return plan;
}

Plan fanPlan(const PlanContext& ctx, PairScope scope, std::string title,
             const std::function<CopySpec(int d, int k)>& transfer, ValueSource source) {
  const int n = count(ctx, scope);
  const auto peers = [&](int a, int b) { return pairable(ctx, scope, a, b); };
  // -P samples pairs, and a fan is per GPU: only --pair chooses its partners.
  const PairSet chosen =
      ctx.pairs.pairGiven ? choosePairs(ctx.pairs, scope, n, peers) : PairSet::all();
  return oneRowPerGpu(
      ctx, title,
      [&](int d) {
        std::vector<CopySpec> copies;
        for (int k = 0; k < n; ++k)
          if (peers(d, k) && chosen.allows(d, k)) copies.push_back(transfer(d, k));
        return copies;
      },
      source, scope);
}

Plan pairPlan(const PlanContext& ctx, PairScope scope, std::vector<MatrixSpec> matrices,
              const std::vector<OutputTarget>& perCell,
              const std::function<Measurement(int r, int c)>& measure) {
  Plan plan;
  plan.matrices = std::move(matrices);
  plan.multiProcess = scope == PairScope::Ranks;
  const int n = count(ctx, scope);
  const PairSet chosen =
      choosePairs(ctx.pairs, scope, n, [&](int a, int b) { return pairable(ctx, scope, a, b); });
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < n; ++c) {
      if (!pairable(ctx, scope, r, c) || !chosen.allows(r, c)) continue;
      Measurement m = measure(r, c);
      for (OutputTarget out : perCell) {
        out.row = static_cast<std::size_t>(r);
        out.col = static_cast<std::size_t>(c);
        m.outputs.push_back(out);
      }
      plan.measurements.push_back(std::move(m));
    }
  }
  applySchedule(plan, scope == PairScope::Devices ? ctx.schedule.devices : ctx.schedule.ranks, n);
  return plan;
}

Plan copyPairPlan(const PlanContext& ctx, PairScope scope, std::string title,
                  const std::function<CopySpec(int r, int c)>& transfer) {
  return pairPlan(ctx, scope, {squareMatrix(ctx, scope, "", std::move(title))},
                  {{0, 0, 0, ValueSource::Copy, 0}}, [&](int r, int c) {
                    return Measurement{{transfer(r, c)}, std::nullopt, {}};
                  });
}

Plan bidirectionalPairPlan(const PlanContext& ctx, PairScope scope, const std::string& keyLabel,
                           const std::string& titleBase, const std::string& titleLabel,
                           const std::function<std::vector<CopySpec>(int r, int c)>& copies) {
  const auto matrix = [&](const std::string& key, const std::string& label) {
    return squareMatrix(ctx, scope, "_" + key, titleBase + label + " bandwidth (GB/s)");
  };
  return pairPlan(ctx, scope,
                  {matrix(keyLabel + "1", titleLabel + "1"),
                   matrix(keyLabel + "2", titleLabel + "2"), matrix("total", "Total")},
                  {{0, 0, 0, ValueSource::Copy, 0},
                   {1, 0, 0, ValueSource::Copy, 1},
                   {2, 0, 0, ValueSource::SumOfCopies, 0}},
                  [&](int r, int c) {
                    return Measurement{copies(r, c), std::nullopt, {}};
                  });
}

}  // namespace nvbw::plans
