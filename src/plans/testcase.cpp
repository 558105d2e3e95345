#include "plans/testcase.h"

namespace nvbw {

const char* axisName(Axis axis) {
  switch (axis) {
  case Axis::Cpu:
    return "CPU";
  case Axis::Gpu:
    return "GPU";
  case Axis::None:
    break;
  }
  return "";
}

std::optional<std::string> Testcase::waiveReason(const Topology& topo) const {
  for (WaiveCheck check : facts_.waivers)
    if (std::optional<std::string> reason = check(topo)) return reason;
  return std::nullopt;
}

Plan Testcase::plan(const PlanContext& ctx) const {
  Plan plan = build_(ctx);
  if (facts_.inOrderUnderConfidentialComputing && ctx.topology.confidentialComputing())
    plan.timing = SampleTiming::InOrder;
  return plan;
}

}  // namespace nvbw
