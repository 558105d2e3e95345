#include "plans/testcase.h"

namespace nvbw {

const char* axisName(Axis axis) {
  constexpr const char* names[] = {"", "CPU", "GPU"};  // in Axis's order
  return names[static_cast<int>(axis)];
}

PlanBuilder withMethod(MethodPlanBuilder build, CopyMethod method) {
  return [build, method](const PlanContext& ctx) { return build(ctx, method); };
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

std::optional<std::string> needsPeerPairs(const Topology& topo) {
  const int n = topo.deviceCount();
  if (n < 2)
    return "needs two GPUs with peer access; this system has " + std::to_string(n) +
           (n == 1 ? " GPU" : " GPUs");
  // Peer access is enabled both ways for every measured pair, so a pair counts only when each
  // GPU can access the other.
  for (const auto& [r, c] : accessiblePairs(topo))
    if (topo.canAccessPeer(c, r)) return std::nullopt;
  return "needs two GPUs with peer access; no pair of the " + std::to_string(n) +
         " GPUs can access each other both ways (cuDeviceCanAccessPeer)";
}

std::optional<std::string> needsTma(const Topology& topo) {
  for (int d = 0; d < topo.deviceCount(); ++d) {
    const int cc = topo.computeCapability(d);
    if (cc < 90)
      return "needs the Tensor Memory Accelerator (compute capability 9.0 or later); GPU " +
             std::to_string(d) + " is " + std::to_string(cc / 10) + "." + std::to_string(cc % 10);
  }
  return std::nullopt;
}

std::optional<std::string> bothWaysCeNotUnderConfidentialComputing(const Topology& topo) {
  if (!topo.confidentialComputing()) return std::nullopt;
  return std::string("bounce-buffer confidential computing enabled");
}

std::optional<std::string> hostKernelsNotUnderConfidentialComputing(const Topology& topo) {
  if (!topo.confidentialComputing()) return std::nullopt;
  return std::string("confidential computing is on: a copy kernel reads and writes host memory "
                     "across the bus, which goes through encrypted bounce buffers, so it cannot "
                     "be measured");
}

std::optional<std::string> notUnderConfidentialComputing(const Topology& topo) {
  if (!topo.confidentialComputing()) return std::nullopt;
  return std::string("confidential computing is on: GPU memory accesses across the bus go "
                     "through encrypted bounce buffers, so a pointer chase does not measure "
                     "memory latency");
}

std::optional<std::string> needsSharedMemory(const Topology& topo) {
  const ProcessFacts& world = topo.processFacts();
  if (world.processes < 2)
    return "needs at least 2 processes, one per GPU (this run has " +
           std::to_string(world.processes) + "): launch it with mpirun or srun";
  if (world.sharingProblem)
    return "cannot share GPU memory between the processes: " + *world.sharingProblem;
  return std::nullopt;
}

std::optional<std::string> needsMulticast(const Topology& topo) {
  if (auto reason = needsSharedMemory(topo)) return reason;
  if (topo.processFacts().multicastProblem)
    return "needs multicast objects: " + *topo.processFacts().multicastProblem;
  return std::nullopt;
}

}  // namespace nvbw
