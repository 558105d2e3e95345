#include "plans/plan.h"

#include <algorithm>

namespace nvbw {

CopySpec makeCopy(BufferSpec src, BufferSpec dst, CopyMethod method, ContextPreference pref) {
  CopySpec copy{src, dst, method, 0, 0};
  const BufferSpec& preferred = pref == ContextPreference::PreferSrc ? src : dst;
  const BufferSpec& other = pref == ContextPreference::PreferSrc ? dst : src;
  // Host buffers have no context: fall back to the other side, as upstream does.
  const BufferSpec& issuer = preferred.kind == MemoryKind::Device ? preferred : other;
  copy.execDevice = issuer.device;
  copy.execProcess = issuer.process;
  return copy;
}

bool usesHostMemory(const Plan& plan) {
  for (const Measurement& m : plan.measurements) {
    if (m.latency && m.latency->target.kind == MemoryKind::Host) return true;
    for (const CopySpec& c : m.copies)
      if (c.src.kind == MemoryKind::Host || c.dst.kind == MemoryKind::Host) return true;
  }
  return false;
}

bool isReportedCopy(const Measurement& m, std::size_t i) {
  return std::any_of(m.outputs.begin(), m.outputs.end(), [i](const OutputTarget& out) {
    return out.source != ValueSource::Copy || out.copyIndex == i;
  });
}

std::vector<std::vector<std::size_t>> measurementGroups(const Plan& plan) {
  if (!plan.rounds.empty()) return plan.rounds;
  std::vector<std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < plan.measurements.size(); ++i) groups.push_back({i});
  return groups;
}

}  // namespace nvbw
