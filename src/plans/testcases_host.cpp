// Host <-> device testcases (upstream tests 0-3, 8-11, 16-19, 24-27) and the host latency (32).
#include <string>
#include <vector>

#include "plans/pattern.h"
#include "plans/plan_shapes.h"
#include "plans/testcases.h"

namespace nvbw::plans {
namespace {

constexpr const char* kTitleH2D = "CPU(row) -> GPU(column) bandwidth (GB/s)";
constexpr const char* kTitleD2H = "CPU(row) <- GPU(column) bandwidth (GB/s)";
constexpr const char* kTitleBidir = "CPU(row) <-> GPU(column) bandwidth (GB/s)";

// GPU d's copy with its own host buffer (pinned near d) in `dir`.
CopySpec copyOf(HostDirection dir, int d, std::size_t bytes, CopyMethod m) {
  const BufferSpec host = BufferSpec::host(d, bytes), gpu = BufferSpec::onDevice(d, bytes);
  return dir == HostDirection::ToHost ? makeCopy(gpu, host, m) : makeCopy(host, gpu, m);
}

HostDirection opposite(HostDirection dir) {
  return dir == HostDirection::ToHost ? HostDirection::ToDevice : HostDirection::ToHost;
}

}  // namespace

PlanBuilder hostOneWay(CopyMethod method, HostDirection dir, HostGpus gpus) {
  return [=](const PlanContext& ctx) {
    const int n = ctx.topology.deviceCount();
    const std::size_t s = ctx.bufferBytes;
    const char* title = dir == HostDirection::ToHost ? kTitleD2H : kTitleH2D;
    return oneRowPerGpu(ctx, std::string("memcpy ") + engineName(method) + " " + title, [&](int d) {
      std::vector<CopySpec> copies{copyOf(dir, d, s, method)};
      for (int k = 0; gpus == HostGpus::All && k < n; ++k)
        if (k != d) copies.push_back(copyOf(dir, k, 2 * s, method));
      return copies;
    });
  };
}

PlanBuilder hostBothWaysCe(HostDirection dir, HostGpus gpus) {
  return [=](const PlanContext& ctx) {
    const int n = ctx.topology.deviceCount();
    const std::size_t s = ctx.bufferBytes;
    constexpr CopyMethod ce = CopyMethod::CopyEngine;
    return oneRowPerGpu(ctx, std::string("memcpy CE ") + kTitleBidir, [&](int d) {
      std::vector<CopySpec> copies{copyOf(dir, d, s, ce), copyOf(opposite(dir), d, 2 * s, ce)};
      for (int k = 0; gpus == HostGpus::All && k < n; ++k) {
        if (k == d) continue;
        copies.push_back(copyOf(HostDirection::ToHost, k, 2 * s, ce));
        copies.push_back(copyOf(HostDirection::ToDevice, k, 2 * s, ce));
      }
      return copies;
    });
  };
}

PlanBuilder hostSplitWarp(HostDirection dir, HostGpus gpus) {
  return [=](const PlanContext& ctx) {
    const int n = ctx.topology.deviceCount();
    const std::size_t s = ctx.bufferBytes;
    constexpr CopyMethod split = CopyMethod::SmSplitWarp;
    return oneRowPerGpu(ctx, std::string("memcpy SM ") + kTitleBidir, [&](int d) {
      std::vector<CopySpec> copies{copyOf(dir, d, s, split)};
      for (int k = 0; gpus == HostGpus::All && k < n; ++k)
        if (k != d) copies.push_back(copyOf(HostDirection::ToHost, k, s, split));
      return copies;
    });
  };
}

Plan hostDeviceLatencySm(const PlanContext& ctx) {
  const std::size_t n = membersOf(ctx, PairScope::Devices);
  Plan plan;
  plan.matrices.push_back(
      {"", "memory latency SM CPU(row) <-> GPU(column) (ns)", Unit::Nanoseconds, 1, n, {}});
  for (int d = 0; d < static_cast<int>(n); ++d) {
    Measurement m;
    // The chain lives in host memory allocated near the chasing GPU; -b does not apply.
    m.latency = LatencySpec{BufferSpec::host(d, kLatencyBufferBytes), d, ChaseAccess::SmLoad};
    m.outputs.push_back({0, 0, static_cast<std::size_t>(d), ValueSource::Copy, 0});
    plan.measurements.push_back(std::move(m));
  }
  return plan;
}

}  // namespace nvbw::plans
