// The latency family (pointer chases) and the plan builder of the host <-> device chase. Pure,
// like every plan builder.
#pragma once

#include "plans/plan.h"
#include "plans/plan_context.h"
#include "plans/testcase.h"

namespace nvbw::plans {

// Host <-> device pointer-chase latency (testcases_latency.cpp); the device-to-device chases are
// in testcases_d2d.h.
Plan hostDeviceLatencySm(const PlanContext& ctx);

}  // namespace nvbw::plans

namespace nvbw {

// What a chase reads: pinned host memory, a peer GPU's memory, or that through the TMA.
enum class Chase { Host, Peer, PeerTma };

// A pointer chase through a 2 MiB buffer: ns, CPU or GPU rows and GPU columns; --bufferSize does
// not apply. Waived under confidential computing, and as the peer copies and the TMA ones are.
class LatencyTestcase final : public Testcase {
 public:
  LatencyTestcase(TestcaseListing listing, PlanBuilder build, Chase chase);
  std::optional<std::string> waiveReason(const Topology& topo) const override;

 private:
  Chase chase_;
};

}  // namespace nvbw
