#include "plans/host_buffer_forecast.h"

#include <map>

namespace nvbw {
namespace {

// One GPU of no model in particular: the least any GPU answers (one SM, no compute capability,
// which waives the TMA testcases). What a testcase holds in host memory depends on neither
// (HostBufferForecast.TheSameOnEveryGpuModel checks every testcase over the models), so the
// forecast needs no model, and assumes none.
class AnyOneGpu final : public Topology {
 public:
  int computeCapability(int) const override { return 0; }
  bool confidentialComputing() const override { return false; }
  int deviceCount() const override { return 1; }
  bool canAccessPeer(int, int) const override { return false; }
  int smCount(int) const override { return 1; }
};

}  // namespace

std::vector<std::size_t> oneGpuHostBuffers(const std::vector<const TestcaseDef*>& testcases,
                                           std::size_t bufferBytes) {
  const AnyOneGpu topology;
  const PlanContext context{topology, bufferBytes};
  std::vector<std::size_t> sizes;
  std::map<std::size_t, std::size_t> counted;  // size -> how many `sizes` has
  for (const TestcaseDef* def : testcases) {
    if (waiveReasonFor(*def, topology)) continue;
    Plan plan;
    try {
      plan = def->plan(context);
    } catch (...) {
      continue;  // the run will say why; nothing is forecast for it
    }
    for (const Measurement& m : plan.measurements) {
      std::map<std::size_t, std::size_t> held;
      std::vector<std::size_t> order;
      for (const CopySpec& c : m.copies)
        for (const BufferSpec* b : {&c.src, &c.dst})
          if (b->kind == MemoryKind::Host && held[b->bytes]++ == 0) order.push_back(b->bytes);
      for (std::size_t bytes : order)
        while (counted[bytes] < held[bytes]) {
          sizes.push_back(bytes);
          ++counted[bytes];
        }
    }
  }
  return sizes;
}

}  // namespace nvbw
