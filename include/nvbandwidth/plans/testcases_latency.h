// The plan builder of the host <-> device pointer chase (latency family). Pure,
// like every plan builder.
#pragma once

#include "plans/plan.h"
#include "plans/plan_context.h"

namespace nvbw::plans {

// Host <-> device pointer-chase latency (testcases_latency.cpp); the device-to-device chases are
// in testcases_d2d.h.
Plan hostDeviceLatencySm(const PlanContext& ctx);

}  // namespace nvbw::plans
