// Host <-> device testcases (upstream tests 0-3, 8-11, 16-19, 24-27).
#include <functional>
#include <string>
#include <vector>

#include "plans/plan_shapes.h"
#include "plans/testcases.h"

namespace nvbw::plans {
namespace {

constexpr const char* kTitleH2D = "CPU(row) -> GPU(column) bandwidth (GB/s)";
constexpr const char* kTitleD2H = "CPU(row) <- GPU(column) bandwidth (GB/s)";
constexpr const char* kTitleBidir = "CPU(row) <-> GPU(column) bandwidth (GB/s)";

enum class Direction { ToHost, ToDevice };

// GPU d's copy with its own host buffer (pinned near d) in `dir`.
CopySpec copyOf(Direction dir, int d, std::size_t bytes, CopyMethod m) {
  const BufferSpec host = BufferSpec::host(d, bytes), gpu = BufferSpec::onDevice(d, bytes);
  return dir == Direction::ToHost ? makeCopy(gpu, host, m) : makeCopy(host, gpu, m);
}

Direction opposite(Direction dir) {
  return dir == Direction::ToHost ? Direction::ToDevice : Direction::ToHost;
}

// GPU d's copy in `dir` (measured, S); with `withOthers`, every other GPU copies in the same
// direction (2S) at the same time.
Plan oneWay(const PlanContext& ctx, CopyMethod method, Direction dir, bool withOthers) {
  const int n = ctx.topology.deviceCount();
  const std::size_t s = ctx.bufferBytes;
  const char* title = dir == Direction::ToHost ? kTitleD2H : kTitleH2D;
  return oneRowPerGpu(ctx, std::string("memcpy ") + engineName(method) + " " + title, [&](int d) {
    std::vector<CopySpec> copies{copyOf(dir, d, s, method)};
    for (int k = 0; withOthers && k < n; ++k)
      if (k != d) copies.push_back(copyOf(dir, k, 2 * s, method));
    return copies;
  });
}

// Copy engine: GPU d's copy in `dir` (measured, S) and its opposite (2S: twice the size, as
// upstream, so it is still running when the measured copy finishes); with `withOthers`, every
// other GPU copies both ways at the same time (2S each, device-to-host first, as upstream lists
// them).
Plan bothWaysCe(const PlanContext& ctx, Direction dir, bool withOthers) {
  const int n = ctx.topology.deviceCount();
  const std::size_t s = ctx.bufferBytes;
  constexpr CopyMethod ce = CopyMethod::CopyEngine;
  return oneRowPerGpu(ctx, std::string("memcpy CE ") + kTitleBidir, [&](int d) {
    std::vector<CopySpec> copies{copyOf(dir, d, s, ce), copyOf(opposite(dir), d, 2 * s, ce)};
    for (int k = 0; withOthers && k < n; ++k) {
      if (k == d) continue;
      copies.push_back(copyOf(Direction::ToHost, k, 2 * s, ce));
      copies.push_back(copyOf(Direction::ToDevice, k, 2 * s, ce));
    }
    return copies;
  });
}

// Split-warp: GPU d's bidirectional copy (src in `dir`, measured); with `withOthers`, every other
// GPU runs a device-to-host split-warp copy at the same time; all of size S, as upstream.
Plan splitWarp(const PlanContext& ctx, Direction dir, bool withOthers) {
  const int n = ctx.topology.deviceCount();
  const std::size_t s = ctx.bufferBytes;
  constexpr CopyMethod split = CopyMethod::SmSplitWarp;
  return oneRowPerGpu(ctx, std::string("memcpy SM ") + kTitleBidir, [&](int d) {
    std::vector<CopySpec> copies{copyOf(dir, d, s, split)};
    for (int k = 0; withOthers && k < n; ++k)
      if (k != d) copies.push_back(copyOf(Direction::ToHost, k, s, split));
    return copies;
  });
}

}  // namespace

Plan hostToDevice(const PlanContext& ctx, CopyMethod method) {
  return oneWay(ctx, method, Direction::ToDevice, false);
}

Plan deviceToHost(const PlanContext& ctx, CopyMethod method) {
  return oneWay(ctx, method, Direction::ToHost, false);
}

Plan hostToDeviceBidirectionalCe(const PlanContext& ctx) {
  return bothWaysCe(ctx, Direction::ToDevice, false);
}

Plan deviceToHostBidirectionalCe(const PlanContext& ctx) {
  return bothWaysCe(ctx, Direction::ToHost, false);
}

Plan hostDeviceBidirectionalSm(const PlanContext& ctx) {
  return splitWarp(ctx, Direction::ToDevice, false);
}

Plan allToHost(const PlanContext& ctx, CopyMethod method) {
  return oneWay(ctx, method, Direction::ToHost, true);
}

Plan allToHostBidirectionalCe(const PlanContext& ctx) {
  return bothWaysCe(ctx, Direction::ToHost, true);
}

Plan allToHostBidirectionalSm(const PlanContext& ctx) {
  return splitWarp(ctx, Direction::ToHost, true);
}

Plan hostToAll(const PlanContext& ctx, CopyMethod method) {
  return oneWay(ctx, method, Direction::ToDevice, true);
}

Plan hostToAllBidirectionalCe(const PlanContext& ctx) {
  return bothWaysCe(ctx, Direction::ToDevice, true);
}

Plan hostToAllBidirectionalSm(const PlanContext& ctx) {
  return splitWarp(ctx, Direction::ToDevice, true);
}

}  // namespace nvbw::plans
