#include "nvbandwidth/buffer_pool.h"

#include <optional>

#include "nvbandwidth/affinity.h"

namespace nvbw {

BufferPool::BufferPool(const Gpu& gpu, bool affinity, std::function<void(const std::string&)> note)
    : gpu_(gpu), affinity_(affinity), note_(std::move(note)) {}

std::unique_ptr<Allocation> BufferPool::allocate(const BufferSpec& spec) {
  auto a = std::make_unique<Allocation>();
  a->spec = spec;
  if (spec.kind == MemoryKind::Device) {
    a->device = DeviceBuffer(gpu_, spec.device, spec.bytes);
    return a;
  }
  std::optional<std::vector<int>> cpus;
  if (affinity_) {
    cpus = localCpusOf(gpu_.info(spec.device));
    if (!cpus && !affinityNoted_[spec.device] && note_) {
      affinityNoted_[spec.device] = true;
      note_("NOTE: CPU affinity not applied for GPU " + std::to_string(spec.device) +
            ": sysfs does not list its local CPUs");
    }
  }
  // The guard binds this thread to the GPU's CPUs so the pinned pages are first touched (and
  // placed) on its NUMA node, then restores the previous mask.
  AffinityGuard guard(cpus ? *cpus : std::vector<int>{});
  a->host = HostBuffer(gpu_, spec.bytes);
  return a;
}

BufferPool::Lease BufferPool::acquire(const std::vector<BufferSpec>& specs) {
  std::vector<std::unique_ptr<Allocation>> out;
  out.reserve(specs.size());
  for (const BufferSpec& spec : specs) {
    auto& bucket = free_[keyOf(spec)];
    if (!bucket.empty()) {
      out.push_back(std::move(bucket.back()));
      bucket.pop_back();
    } else {
      out.push_back(allocate(spec));
    }
  }
  return Lease(*this, std::move(out));
}

void BufferPool::release(std::vector<std::unique_ptr<Allocation>> buffers) {
  for (auto& b : buffers)
    if (b) free_[keyOf(b->spec)].push_back(std::move(b));
}

}  // namespace nvbw
