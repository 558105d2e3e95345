// host_device_latency_sm (upstream test 32). The device-to-device latency testcase lives with the
// device-to-device family.
#include "plans/pattern.h"
#include "plans/plan_shapes.h"
#include "plans/testcases.h"

namespace nvbw::plans {

Plan hostDeviceLatencySm(const PlanContext& ctx) {
  const std::size_t n = membersOf(ctx, PairScope::Devices);
  Plan plan;
  plan.matrices.push_back(
      {"", "memory latency SM CPU(row) <-> GPU(column) (ns)", Unit::Nanoseconds, 1, n, {}});
  for (int d = 0; d < static_cast<int>(n); ++d) {
    Measurement m;
    // The chain lives in host memory allocated near the chasing GPU; -b does not apply.
    m.latency = LatencySpec{BufferSpec::host(d, kLatencyBufferBytes), d, ChaseAccess::SmLoad};
    m.outputs.push_back({0, 0, static_cast<std::size_t>(d), ValueSource::Copy, 0});
    plan.measurements.push_back(std::move(m));
  }
  return plan;
}

}  // namespace nvbw::plans
