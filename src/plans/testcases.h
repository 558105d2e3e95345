// Plan builders, one per testcase (see registry.cpp for the order and descriptions).
// Each is pure: it reads the topology and buffer size and returns what to measure.
#pragma once

#include <functional>

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
Plan deviceLocalCopy(const PlanContext& ctx);

// One GPU's own memory (testcases_local.cpp): a TMA copy and an SM copy kernel (bytes copied
// count, as device_local_copy's), and read-only and write-only SM passes (bandwidth counts the
// bytes read or written).
Plan deviceLocalCopyTma(const PlanContext& ctx);
Plan deviceLocalCopySm(const PlanContext& ctx);
Plan deviceLocalRead(const PlanContext& ctx);
Plan deviceLocalWrite(const PlanContext& ctx);

// Latency (testcases_latency.cpp).
Plan hostDeviceLatencySm(const PlanContext& ctx);

// Titles shared by several families.
inline constexpr const char* kTitleH2D = "CPU(row) -> GPU(column) bandwidth (GB/s)";
inline constexpr const char* kTitleD2H = "CPU(row) <- GPU(column) bandwidth (GB/s)";
inline constexpr const char* kTitleBidir = "CPU(row) <-> GPU(column) bandwidth (GB/s)";

}  // namespace nvbw::plans
