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

std::string engineTag(CopyMethod method) {
  return method == CopyMethod::CopyEngine ? "memcpy CE " : "memcpy SM ";
}

BufferSpec hostBuf(int d, std::size_t bytes) { return BufferSpec::host(d, bytes); }
BufferSpec devBuf(int d, std::size_t bytes) { return BufferSpec::onDevice(d, bytes); }

CopySpec h2d(int d, std::size_t bytes, CopyMethod m) {
  return makeCopy(hostBuf(d, bytes), devBuf(d, bytes), m);
}
CopySpec d2h(int d, std::size_t bytes, CopyMethod m) {
  return makeCopy(devBuf(d, bytes), hostBuf(d, bytes), m);
}

}  // namespace

Plan hostToDevice(const PlanContext& ctx, CopyMethod method) {
  return oneRowPerGpu(ctx, engineTag(method) + kTitleH2D, [&](int d) {
    return std::vector<CopySpec>{h2d(d, ctx.bufferBytes, method)};
  });
}

Plan deviceToHost(const PlanContext& ctx, CopyMethod method) {
  return oneRowPerGpu(ctx, engineTag(method) + kTitleD2H, [&](int d) {
    return std::vector<CopySpec>{d2h(d, ctx.bufferBytes, method)};
  });
}

// The opposite-direction interference copy uses buffers twice the size, as upstream, so it is
// still running when the measured copy finishes.
Plan hostToDeviceBidirectionalCe(const PlanContext& ctx) {
  const std::size_t s = ctx.bufferBytes;
  return oneRowPerGpu(ctx, engineTag(CopyMethod::CopyEngine) + kTitleBidir, [&](int d) {
    return std::vector<CopySpec>{h2d(d, s, CopyMethod::CopyEngine),
                                 d2h(d, 2 * s, CopyMethod::CopyEngine)};
  });
}

Plan deviceToHostBidirectionalCe(const PlanContext& ctx) {
  const std::size_t s = ctx.bufferBytes;
  return oneRowPerGpu(ctx, engineTag(CopyMethod::CopyEngine) + kTitleBidir, [&](int d) {
    return std::vector<CopySpec>{d2h(d, s, CopyMethod::CopyEngine),
                                 h2d(d, 2 * s, CopyMethod::CopyEngine)};
  });
}

Plan hostDeviceBidirectionalSm(const PlanContext& ctx) {
  return oneRowPerGpu(ctx, engineTag(CopyMethod::SmCopy) + kTitleBidir, [&](int d) {
    return std::vector<CopySpec>{h2d(d, ctx.bufferBytes, CopyMethod::SmSplitWarp)};
  });
}

namespace {

enum class Direction { ToHost, ToDevice };

CopySpec copyOf(Direction dir, int d, std::size_t bytes, CopyMethod m) {
  return dir == Direction::ToHost ? d2h(d, bytes, m) : h2d(d, bytes, m);
}

Direction opposite(Direction dir) {
  return dir == Direction::ToHost ? Direction::ToDevice : Direction::ToHost;
}

// GPU d's copy in `dir` (measured, S) while every other GPU copies in the same direction (2S).
Plan withAllOthers(const PlanContext& ctx, CopyMethod method, Direction dir) {
  const int n = ctx.topology.deviceCount();
  const std::size_t s = ctx.bufferBytes;
  const char* title = dir == Direction::ToHost ? kTitleD2H : kTitleH2D;
  return oneRowPerGpu(ctx, engineTag(method) + title, [&](int d) {
    std::vector<CopySpec> copies{copyOf(dir, d, s, method)};
    for (int k = 0; k < n; ++k)
      if (k != d) copies.push_back(copyOf(dir, k, 2 * s, method));
    return copies;
  });
}

// Copy engine: GPU d's copy in `dir` (measured, S) and its opposite (2S), while every other GPU
// copies both ways (2S each, device-to-host first, as upstream lists them).
Plan bidirectionalWithAllOthersCe(const PlanContext& ctx, Direction dir) {
  const int n = ctx.topology.deviceCount();
  const std::size_t s = ctx.bufferBytes;
  constexpr CopyMethod ce = CopyMethod::CopyEngine;
  return oneRowPerGpu(ctx, engineTag(ce) + kTitleBidir, [&](int d) {
    std::vector<CopySpec> copies{copyOf(dir, d, s, ce), copyOf(opposite(dir), d, 2 * s, ce)};
    for (int k = 0; k < n; ++k) {
      if (k == d) continue;
      copies.push_back(d2h(k, 2 * s, ce));
      copies.push_back(h2d(k, 2 * s, ce));
    }
    return copies;
  });
}

// Split-warp: GPU d's bidirectional copy (src in `dir`, measured) while every other GPU runs a
// device-to-host split-warp copy; all of size S, as upstream.
Plan bidirectionalWithAllOthersSm(const PlanContext& ctx, Direction dir) {
  const int n = ctx.topology.deviceCount();
  const std::size_t s = ctx.bufferBytes;
  constexpr CopyMethod split = CopyMethod::SmSplitWarp;
  return oneRowPerGpu(ctx, engineTag(CopyMethod::SmCopy) + kTitleBidir, [&](int d) {
    std::vector<CopySpec> copies{copyOf(dir, d, s, split)};
    for (int k = 0; k < n; ++k)
      if (k != d) copies.push_back(d2h(k, s, split));
    return copies;
  });
}

}  // namespace

Plan allToHost(const PlanContext& ctx, CopyMethod method) {
  return withAllOthers(ctx, method, Direction::ToHost);
}

Plan allToHostBidirectionalCe(const PlanContext& ctx) {
  return bidirectionalWithAllOthersCe(ctx, Direction::ToHost);
}

Plan allToHostBidirectionalSm(const PlanContext& ctx) {
  return bidirectionalWithAllOthersSm(ctx, Direction::ToHost);
}

Plan hostToAll(const PlanContext& ctx, CopyMethod method) {
  return withAllOthers(ctx, method, Direction::ToDevice);
}

Plan hostToAllBidirectionalCe(const PlanContext& ctx) {
  return bidirectionalWithAllOthersCe(ctx, Direction::ToDevice);
}

Plan hostToAllBidirectionalSm(const PlanContext& ctx) {
  return bidirectionalWithAllOthersSm(ctx, Direction::ToDevice);
}

}  // namespace nvbw::plans
