// The plan builders of the host copy family: copies between pinned host memory and GPUs.
// Each builder is pure: it reads the topology and buffer size and returns what to measure.
#pragma once

#include "plans/plan.h"
#include "plans/plan_context.h"

namespace nvbw::plans {

// Host <-> device (testcases_host.cpp): copy engine and SM copy kernels.
Plan hostToDevice(const PlanContext& ctx, CopyMethod method);
Plan deviceToHost(const PlanContext& ctx, CopyMethod method);
Plan hostToDeviceBidirectionalCe(const PlanContext& ctx);
Plan deviceToHostBidirectionalCe(const PlanContext& ctx);
Plan hostDeviceBidirectionalSm(const PlanContext& ctx);  // tests 18 and 19 (identical upstream)
Plan allToHost(const PlanContext& ctx, CopyMethod method);
Plan allToHostBidirectionalCe(const PlanContext& ctx);
Plan allToHostBidirectionalSm(const PlanContext& ctx);
Plan hostToAll(const PlanContext& ctx, CopyMethod method);
Plan hostToAllBidirectionalCe(const PlanContext& ctx);
Plan hostToAllBidirectionalSm(const PlanContext& ctx);

}  // namespace nvbw::plans
