// The multi-process testcases (docs/compatibility.md#u7).
#include <string>

#include "core/format.h"
#include "plans/plan_shapes.h"
#include "plans/testcases.h"

namespace nvbw::plans {
namespace {

constexpr PairScope kRanks = PairScope::Ranks;

BufferSpec unicast(int rank, std::size_t bytes) {
  return BufferSpec::ofRank(rank, bytes, Sharing::Exported);
}
BufferSpec local(int rank, std::size_t bytes) {
  return BufferSpec::ofRank(rank, bytes, Sharing::ProcessLocal);
}

// Rank `rank` broadcasting its own buffer through its multicast object.
CopySpec broadcastFrom(int rank, std::size_t bytes) {
  return makeCopy(local(rank, bytes), BufferSpec::ofRank(rank, bytes, Sharing::Multicast),
                  CopyMethod::SmMulticast, kDst);
}

Plan multiProcessPlan(std::vector<MatrixSpec> matrices) {
  Plan plan;
  plan.matrices = std::move(matrices);
  plan.multiProcess = true;
  return plan;
}

Plan bidirectional(const PlanContext& ctx, CopyMethod method, const std::string& keyLabel,
                   const std::string& titleLabel, bool write) {
  const std::size_t s = ctx.bufferBytes;
  // Upstream's titles read "CPU(row)" here; kept, as scripts match on them.
  const std::string base =
      std::string("memcpy ") + engineName(method) + " CPU(row) <-> GPU(column) ";
  return bidirectionalPairPlan(ctx, kRanks, keyLabel, base, titleLabel, [&](int r, int c) {
    // Read: [c -> r issued by r, r -> c issued by c]. Write: [r -> c issued by r, c -> r issued
    // by c] (unlike the single-node write, copy 0 flows r -> c).
    if (write)
      return std::vector<CopySpec>{makeCopy(unicast(r, s), unicast(c, s), method, kSrc),
                                   makeCopy(unicast(c, s), unicast(r, s), method, kSrc)};
    return std::vector<CopySpec>{makeCopy(unicast(c, s), unicast(r, s), method, kDst),
                                 makeCopy(unicast(r, s), unicast(c, s), method, kDst)};
  });
}

}  // namespace

Plan multinodeRead(const PlanContext& ctx, CopyMethod method) {
  const std::size_t s = ctx.bufferBytes;
  // Upstream's SM read testcase is titled "CE" too; kept.
  return copyPairPlan(
      ctx, kRanks, "memcpy CE GPU(row) -> GPU(column) bandwidth (GB/s)",
      [&](int r, int c) { return makeCopy(unicast(c, s), unicast(r, s), method, kDst); });
}

Plan multinodeWrite(const PlanContext& ctx, CopyMethod method) {
  const std::size_t s = ctx.bufferBytes;
  return copyPairPlan(
      ctx, kRanks,
      std::string("memcpy ") + engineName(method) + " GPU(row) <- GPU(column) bandwidth (GB/s)",
      [&](int r, int c) { return makeCopy(unicast(r, s), unicast(c, s), method, kSrc); });
}

Plan multinodeBidirectionalRead(const PlanContext& ctx, CopyMethod method) {
  return bidirectional(ctx, method, "read", "Read", false);
}

Plan multinodeBidirectionalWrite(const PlanContext& ctx, CopyMethod method) {
  // Upstream titles the CE variant's matrices Read1/Read2 and the SM variant's Write1/Write2.
  return bidirectional(ctx, method, "write", method == CopyMethod::CopyEngine ? "Read" : "Write",
                       true);
}

Plan multinodeAllToOneWrite(const PlanContext& ctx) {
  const std::size_t s = ctx.bufferBytes;
  return fanPlan(
      ctx, kRanks, "memcpy SM All Gpus -> GPU(column) total bandwidth (GB/s)",
      [&](int d, int k) { return makeCopy(local(k, s), unicast(d, s), CopyMethod::SmCopy, kSrc); },
      ValueSource::SumOfCopies);
}

Plan multinodeAllFromOneRead(const PlanContext& ctx) {
  const std::size_t s = ctx.bufferBytes;
  return fanPlan(
      ctx, kRanks, "memcpy SM All Gpus <- GPU(column) total bandwidth (GB/s)",
      [&](int d, int k) { return makeCopy(unicast(d, s), local(k, s), CopyMethod::SmCopy, kDst); },
      ValueSource::SumOfCopies);
}

Plan multinodeBroadcastOneToAll(const PlanContext& ctx) {
  const std::size_t s = ctx.bufferBytes;
  return oneRowPerGpu(
      ctx, "multicast SM GPU(column) -> All Gpus total bandwidth (GB/s)",
      [&](int r) { return std::vector<CopySpec>{broadcastFrom(r, s)}; }, ValueSource::SumOfCopies,
      kRanks);
}

Plan multinodeBroadcastAllToAll(const PlanContext& ctx) {
  const std::size_t s = ctx.bufferBytes;
  Plan plan = multiProcessPlan(
      {{"", "multicast SM All -> All Gpus total bandwidth (GB/s)", Unit::GBps, 1, 1, {}}});
  Measurement m;
  for (int r = 0; r < ctx.topology.processFacts().processes; ++r)
    m.copies.push_back(broadcastFrom(r, s));
  m.outputs = {{0, 0, 0, ValueSource::SumOfCopies, 0}};
  if (!m.copies.empty()) plan.measurements.push_back(std::move(m));
  return plan;
}

std::string bisectLabel(int from, int to, int processes) {
  const int width = static_cast<int>(std::to_string(std::max(0, processes - 1)).size());
  return rightAligned(std::to_string(from), width) + "->" + rightAligned(std::to_string(to), width);
}

Plan multinodeBisectWrite(const PlanContext& ctx) {
  const std::size_t s = ctx.bufferBytes;
  const int n = ctx.topology.processFacts().processes;
  const std::size_t rows = membersOf(ctx, kRanks);
  MatrixSpec spec{"", "Bisect benchmarking, simultaneous write CE BW", Unit::GBps, rows, 1, {}};
  Measurement m;
  for (int i = 0; i < n; ++i) {
    const int peer = (i + n / 2) % n;
    // Upstream passes src = B (memory of `peer`) and dst = A (memory of i) with PREFER_SRC: the
    // peer writes into rank i. The label says so (upstream printed "i->peer").
    m.copies.push_back(makeCopy(unicast(peer, s), unicast(i, s), CopyMethod::CopyEngine, kSrc));
    m.outputs.push_back(
        {0, static_cast<std::size_t>(i), 0, ValueSource::Copy, static_cast<std::size_t>(i)});
    spec.rowLabels.push_back(bisectLabel(peer, i, n));
  }
  Plan plan = multiProcessPlan({spec});
  if (!m.copies.empty()) plan.measurements.push_back(std::move(m));
  return plan;
}

}  // namespace nvbw::plans
