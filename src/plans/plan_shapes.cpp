#include "plans/plan_shapes.h"

#include <utility>

namespace nvbw::plans {

Plan oneRowPerGpu(const PlanContext& ctx, const std::string& title,
                  const std::function<std::vector<CopySpec>(int device)>& copies) {
  const int n = ctx.topology.deviceCount();
  Plan plan;
  plan.matrices.push_back({"", title, Unit::GBps, 1, static_cast<std::size_t>(n), {}});
  for (int d = 0; d < n; ++d) {
    Measurement m;
    m.copies = copies(d);
    m.outputs.push_back({0, 0, static_cast<std::size_t>(d), ValueSource::Copy, 0});
    plan.measurements.push_back(std::move(m));
  }
  return plan;
}

void addPairMeasurements(Plan& plan, int n, const PairSet& chosen,
                         const std::function<bool(int r, int c)>& eligible,
                         const std::vector<OutputTarget>& perCell,
                         const std::function<Measurement(int r, int c)>& measure) {
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < n; ++c) {
      if (!eligible(r, c) || !chosen.allows(r, c)) continue;
      Measurement m = measure(r, c);
      for (OutputTarget out : perCell) {
        out.row = static_cast<std::size_t>(r);
        out.col = static_cast<std::size_t>(c);
        m.outputs.push_back(out);
      }
      plan.measurements.push_back(std::move(m));
    }
  }
}

}  // namespace nvbw::plans
