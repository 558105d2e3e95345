// Device-to-device testcases: peer copies between GPU pairs, the all-to-one / one-to-all fans and
// the peer pointer-chase latency. Directions, issuing contexts and titles are upstream v0.8's
// (the TMA variants' titles, unknown upstream, follow them with TMA in place of SM).
#include "plans/testcases_d2d.h"

#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "plans/pattern.h"
#include "plans/plan_shapes.h"

namespace nvbw::plans {
namespace {

// The method's name in titles. Every bandwidth builder goes through here, so it also rejects
// methods these testcases do not have.
const char* engineName(CopyMethod method) {
  switch (method) {
  case CopyMethod::CopyEngine:
    return "CE";
  case CopyMethod::SmCopy:
    return "SM";
  case CopyMethod::Tma:
    return "TMA";
  case CopyMethod::SmSplitWarp:
  case CopyMethod::SmMulticast:
  case CopyMethod::SmReadOnly:
  case CopyMethod::SmWriteOnly:
    break;
  }
  throw std::invalid_argument(
      "device-to-device testcases run on the copy engine, the SM copy kernel or the TMA only");
}

// "memcpy CE GPU(row) -> GPU(column) bandwidth (GB/s)"; `label` ("Read1 ", "Total ") goes
// before "bandwidth".
std::string titleFor(CopyMethod method, const char* arrow, const std::string& label = "") {
  return std::string("memcpy ") + engineName(method) + " GPU(row) " + arrow + " GPU(column) " +
         label + "bandwidth (GB/s)";
}

std::size_t deviceCount(const PlanContext& ctx) {
  const int n = ctx.topology.deviceCount();
  return n > 0 ? static_cast<std::size_t>(n) : 0;
}

// Matrix keys are suffixes: the runner prefixes the testcase key ("" or "_read1", ...).
MatrixSpec squareMatrix(const PlanContext& ctx, std::string keySuffix, std::string title,
                        Unit unit = Unit::GBps) {
  return {std::move(keySuffix), std::move(title), unit, deviceCount(ctx), deviceCount(ctx), {}};
}

BufferSpec dev(int device, std::size_t bytes) { return BufferSpec::onDevice(device, bytes); }

// Two GPUs are used together only when each can access the other. Upstream checks one direction
// (the row's, or the "one" GPU's) but then enables access both ways, aborting if the reverse is
// unsupported; the executor enables both ways too. On symmetric topologies (every real one we
// know) this is exactly upstream's check; on an asymmetric one the cell becomes N/A instead.
bool arePeers(const Topology& topo, int a, int b) {
  return a != b && topo.canAccessPeer(a, b) && topo.canAccessPeer(b, a);
}

// N×N testcases: one measurement per ordered pair of peers (r, c), writing `perCell` (row and
// column filled in) at [r][c]. Other cells, the diagonal included, stay N/A.
Plan pairwise(const PlanContext& ctx, std::vector<MatrixSpec> matrices,
              const std::vector<OutputTarget>& perCell,
              const std::function<Measurement(int r, int c)>& measure) {
  Plan plan;
  plan.matrices = std::move(matrices);
  const Topology& topo = ctx.topology;
  const auto peers = [&topo](int a, int b) { return arePeers(topo, a, b); };
  const PairSet chosen = choosePairs(ctx.pairs, PairScope::Devices, topo.deviceCount(), peers);
  addPairMeasurements(plan, topo.deviceCount(), chosen, peers, perCell, measure);
  applySchedule(plan, ctx.schedule.devices, topo.deviceCount());
  return plan;
}

Measurement copying(std::vector<CopySpec> copies) {
  Measurement m;
  m.copies = std::move(copies);
  return m;
}

// Single-direction N×N: `transfer(r, c)` is the one copy measured at [r][c].
Plan singleCopyPairs(const PlanContext& ctx, std::string title,
                     const std::function<CopySpec(int r, int c)>& transfer) {
  return pairwise(ctx, {squareMatrix(ctx, "", std::move(title))}, {{0, 0, 0, ValueSource::Copy, 0}},
                  [&](int r, int c) { return copying({transfer(r, c)}); });
}

// Bidirectional N×N: copies [c -> r, r -> c] at once; matrices _<label>1 (copy 0), _<label>2
// (copy 1) and _total (their sum). Upstream builds the same buffer lists for read and write; only
// the issuing context (`pref`) differs.
Plan bidirectionalPairs(const PlanContext& ctx, CopyMethod method, const std::string& keyLabel,
                        const std::string& titleLabel, ContextPreference pref) {
  const std::size_t s = ctx.bufferBytes;
  return pairwise(
      ctx,
      {squareMatrix(ctx, "_" + keyLabel + "1", titleFor(method, "<->", titleLabel + "1 ")),
       squareMatrix(ctx, "_" + keyLabel + "2", titleFor(method, "<->", titleLabel + "2 ")),
       squareMatrix(ctx, "_total", titleFor(method, "<->", "Total "))},
      {{0, 0, 0, ValueSource::Copy, 0},
       {1, 0, 0, ValueSource::Copy, 1},
       {2, 0, 0, ValueSource::SumOfCopies, 0}},
      [&](int r, int c) {
        return copying({makeCopy(dev(c, s), dev(r, s), method, pref),
                        makeCopy(dev(r, s), dev(c, s), method, pref)});
      });
}

// 1×N fans: for each GPU d, the copies `transfer(d, k)` for every peer k of d run at once, and
// [0][d] reports their aggregate bandwidth. A GPU without peers stays N/A. --pair leaves each
// GPU of the pair with the other as its only peer; -P does not apply (a fan is per GPU).
Plan fan(const PlanContext& ctx, std::string title,
         const std::function<CopySpec(int d, int k)>& transfer) {
  Plan plan;
  plan.matrices = {{"", std::move(title), Unit::GBps, 1, deviceCount(ctx), {}}};
  const Topology& topo = ctx.topology;
  const PairSet chosen = chooseFanPartners(ctx.pairs, PairScope::Devices, topo.deviceCount(),
                                           [&](int a, int b) { return arePeers(topo, a, b); });
  for (int d = 0; d < topo.deviceCount(); ++d) {
    Measurement m;
    for (int k = 0; k < topo.deviceCount(); ++k) {
      if (arePeers(topo, d, k) && chosen.allows(d, k)) m.copies.push_back(transfer(d, k));
    }
    if (m.copies.empty()) continue;
    m.outputs = {{0, 0, static_cast<std::size_t>(d), ValueSource::Total, 0}};
    plan.measurements.push_back(std::move(m));
  }
  return plan;
}

// The read fans pull in the CE variants, but upstream issues the SM variants from the source's
// context, so there the source GPU pushes. Kept: numbers must match upstream's.
ContextPreference readFanContext(CopyMethod method) {
  return method == CopyMethod::CopyEngine ? kDst : kSrc;
}

// N×N pointer chases: row r chases the 2 MiB chain in column c's memory. -b does not apply.
Plan peerLatency(const PlanContext& ctx, const char* title, ChaseAccess access) {
  return pairwise(ctx, {squareMatrix(ctx, "", title, Unit::Nanoseconds)},
                  {{0, 0, 0, ValueSource::Copy, 0}}, [access](int r, int c) {
                    Measurement m;
                    m.latency = LatencySpec{dev(c, kLatencyBufferBytes), r, access};
                    return m;
                  });
}

}  // namespace

Plan deviceToDeviceRead(const PlanContext& ctx, CopyMethod method) {
  const std::size_t s = ctx.bufferBytes;
  return singleCopyPairs(ctx, titleFor(method, "->"), [&](int r, int c) {
    return makeCopy(dev(c, s), dev(r, s), method, kDst);
  });
}

Plan deviceToDeviceWrite(const PlanContext& ctx, CopyMethod method) {
  const std::size_t s = ctx.bufferBytes;
  return singleCopyPairs(ctx, titleFor(method, "<-"), [&](int r, int c) {
    return makeCopy(dev(r, s), dev(c, s), method, kSrc);
  });
}

Plan deviceToDeviceBidirectionalRead(const PlanContext& ctx, CopyMethod method) {
  return bidirectionalPairs(ctx, method, "read", "Read", kDst);
}

Plan deviceToDeviceBidirectionalWrite(const PlanContext& ctx, CopyMethod method) {
  return bidirectionalPairs(ctx, method, "write", "Write", kSrc);
}

Plan allToOneWrite(const PlanContext& ctx, CopyMethod method) {
  const std::size_t s = ctx.bufferBytes;
  return fan(ctx, titleFor(method, "<-"),
             [&](int d, int k) { return makeCopy(dev(k, s), dev(d, s), method, kSrc); });
}

Plan allToOneRead(const PlanContext& ctx, CopyMethod method) {
  const std::size_t s = ctx.bufferBytes;
  const ContextPreference pref = readFanContext(method);
  return fan(ctx, titleFor(method, "->"),
             [&](int d, int k) { return makeCopy(dev(d, s), dev(k, s), method, pref); });
}

Plan oneToAllWrite(const PlanContext& ctx, CopyMethod method) {
  const std::size_t s = ctx.bufferBytes;
  return fan(ctx, titleFor(method, "->"),
             [&](int d, int k) { return makeCopy(dev(d, s), dev(k, s), method, kSrc); });
}

Plan oneToAllRead(const PlanContext& ctx, CopyMethod method) {
  const std::size_t s = ctx.bufferBytes;
  const ContextPreference pref = readFanContext(method);
  return fan(ctx, titleFor(method, "<-"),
             [&](int d, int k) { return makeCopy(dev(k, s), dev(d, s), method, pref); });
}

Plan deviceToDeviceLatencySm(const PlanContext& ctx) {
  return peerLatency(ctx, "Device to Device Latency SM GPU(row) <-> GPU(column) (ns)",
                     ChaseAccess::SmLoad);
}

// Not titled after the SM chase's "Device to Device Latency SM ...": SuperBench reads a latency
// matrix only under a title starting "memory latency" (docs/compatibility.md#k3).
Plan deviceToDeviceLatencyTma(const PlanContext& ctx) {
  return peerLatency(ctx, "memory latency TMA GPU(row) <-> GPU(column) (ns)",
                     ChaseAccess::TmaBulkCopy);
}

}  // namespace nvbw::plans
