// The host copy family: copies between pinned host memory and GPUs, and their plan builders.
// Each builder is pure: it reads the topology and buffer size and returns what to measure.
#pragma once

#include "plans/plan.h"
#include "plans/plan_context.h"
#include "plans/testcase.h"

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

namespace nvbw {

// What a host testcase sends across the bus, which decides what confidential computing allows.
enum class HostTraffic {
  OneWayCe,    // copy-engine copies one way at a time: measured, timed in order
  BothWaysCe,  // copy-engine copies both ways at once: waived, as upstream v0.10 waives them
  Kernel,      // copy kernels reading or writing host memory: waived
};

// Upstream v0.10's reason, verbatim (Google's CI for a confidential VM asserts it).
inline constexpr const char* kBounceBufferWaiver = "bounce-buffer confidential computing enabled";

// One GPU or all at once, copying to, from or both ways with the host: GB/s, CPU rows and GPU
// columns, one matrix (a bidirectional testcase reports one direction). On a confidential-
// computing host (host traffic through encrypted bounce buffers, where a host copy blocks its
// thread until its stream is idle and a kernel reads wrong data across the bus) the one-way
// copy-engine testcases are timed in order (Plan::timing) and the others waived.
class HostCopyTestcase final : public Testcase {
 public:
  HostCopyTestcase(TestcaseListing listing, PlanBuilder build, HostTraffic traffic);
  std::optional<std::string> waiveReason(const Topology& topo) const override;
  Plan plan(const PlanContext& ctx) const override;

 private:
  HostTraffic traffic_;
};

}  // namespace nvbw
