// One GPU's own memory: the copy engine (34), the TMA and one-way SM passes (52-54), and the SM
// copy kernel (55).
#include <vector>

#include "plans/plan_shapes.h"
#include "plans/testcases.h"

namespace nvbw::plans {
namespace {

// What a one-way pass leaves unused: a small buffer, so the plan still has its two ends.
constexpr std::size_t kUnusedBytes = 4096;

// A 1 x N matrix: for each GPU d, one copy (`copy(d)`) in column d.
Plan perGpu(const PlanContext& ctx, const std::string& title,
            const std::function<CopySpec(int device)>& copy) {
  return oneRowPerGpu(ctx, title, [&copy](int d) { return std::vector<CopySpec>{copy(d)}; });
}

BufferSpec on(int d, std::size_t bytes) { return BufferSpec::onDevice(d, bytes); }

}  // namespace

Plan deviceLocalCopy(const PlanContext& ctx, CopyMethod method) {
  const std::size_t s = ctx.bufferBytes;
  const std::string engine =
      method == CopyMethod::CopyEngine ? "" : std::string(engineName(method)) + " ";
  return perGpu(ctx, "memcpy " + engine + "local GPU(column) bandwidth (GB/s)",
                [&](int d) { return makeCopy(on(d, s), on(d, s), method); });
}

// The titles of the one-way passes start with "memcpy" although nothing is copied: SuperBench
// types a matrix by its title's first word (docs/compatibility.md#k3) and names the SUM of any
// other `..._sum_None`.
Plan deviceLocalPass(const PlanContext& ctx, CopyMethod method) {
  const std::size_t s = ctx.bufferBytes;
  const bool read = method == CopyMethod::SmReadOnly;
  return perGpu(ctx,
                std::string("memcpy SM local ") + (read ? "read" : "write") +
                    "-only GPU(column) bandwidth (GB/s)",
                [&](int d) {
                  return makeCopy(on(d, read ? s : kUnusedBytes), on(d, read ? kUnusedBytes : s),
                                  method);
                });
}

}  // namespace nvbw::plans
