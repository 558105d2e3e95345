// Device-to-device testcases: peer copies between GPU pairs, the all-to-one / one-to-all fans and
// the peer pointer-chase latency. Directions, issuing contexts and titles are upstream v0.8's
// (the TMA variants' titles, unknown upstream, follow them with TMA in place of SM).
#include <cstddef>
#include <string>
#include <vector>

#include "plans/pattern.h"
#include "plans/plan_shapes.h"
#include "plans/testcases.h"

namespace nvbw::plans {
namespace {

// "memcpy CE GPU(row) -> GPU(column) bandwidth (GB/s)".
std::string titleFor(CopyMethod method, const char* arrow) {
  return std::string("memcpy ") + engineName(method) + " GPU(row) " + arrow +
         " GPU(column) bandwidth (GB/s)";
}

constexpr PairScope kGpus = PairScope::Devices;

BufferSpec dev(int device, std::size_t bytes) { return BufferSpec::onDevice(device, bytes); }

// Bidirectional N×N: copies [c -> r, r -> c] at once (plan_shapes.h). Upstream builds the same
// buffer lists for read and write; only the issuing context (`pref`) differs.
Plan bidirectionalPairs(const PlanContext& ctx, CopyMethod method, const std::string& keyLabel,
                        const std::string& titleLabel, ContextPreference pref) {
  const std::size_t s = ctx.bufferBytes;
  return bidirectionalPairPlan(
      ctx, kGpus, keyLabel,
      std::string("memcpy ") + engineName(method) + " GPU(row) <-> GPU(column) ", titleLabel,
      [&](int r, int c) {
        return std::vector<CopySpec>{makeCopy(dev(c, s), dev(r, s), method, pref),
                                     makeCopy(dev(r, s), dev(c, s), method, pref)};
      });
}

}  // namespace

Plan deviceToDeviceRead(const PlanContext& ctx, CopyMethod method) {
  const std::size_t s = ctx.bufferBytes;
  return copyPairPlan(ctx, kGpus, titleFor(method, "->"),
                      [&](int r, int c) { return makeCopy(dev(c, s), dev(r, s), method, kDst); });
}

Plan deviceToDeviceWrite(const PlanContext& ctx, CopyMethod method) {
  const std::size_t s = ctx.bufferBytes;
  return copyPairPlan(ctx, kGpus, titleFor(method, "<-"),
                      [&](int r, int c) { return makeCopy(dev(r, s), dev(c, s), method, kSrc); });
}

Plan deviceToDeviceBidirectionalRead(const PlanContext& ctx, CopyMethod method) {
  return bidirectionalPairs(ctx, method, "read", "Read", kDst);
}

Plan deviceToDeviceBidirectionalWrite(const PlanContext& ctx, CopyMethod method) {
  return bidirectionalPairs(ctx, method, "write", "Write", kSrc);
}

PlanBuilder fan(CopyMethod method, Flow flow, ContextPreference issuer) {
  return [=](const PlanContext& ctx) {
    const std::size_t s = ctx.bufferBytes;
    const bool into = flow == Flow::IntoEach;
    return fanPlan(
        ctx, kGpus, titleFor(method, into ? "<-" : "->"),
        [&](int d, int k) {
          return into ? makeCopy(dev(k, s), dev(d, s), method, issuer)
                      : makeCopy(dev(d, s), dev(k, s), method, issuer);
        },
        ValueSource::Total);
  };
}

PlanBuilder peerLatency(ChaseAccess access) {
  // The TMA chase is not titled after the SM chase's: SuperBench reads a latency matrix only
  // under a title starting "memory latency" (docs/compatibility.md#k3).
  const char* title = access == ChaseAccess::SmLoad
                          ? "Device to Device Latency SM GPU(row) <-> GPU(column) (ns)"
                          : "memory latency TMA GPU(row) <-> GPU(column) (ns)";
  return [=](const PlanContext& ctx) {
    return pairPlan(
        ctx, kGpus, {squareMatrix(ctx, kGpus, "", title, Unit::Nanoseconds)},
        {{0, 0, 0, ValueSource::Copy, 0}}, [access](int r, int c) {
          return Measurement{{}, LatencySpec{dev(c, kLatencyBufferBytes), r, access}, {}};
        });
  };
}

}  // namespace nvbw::plans
