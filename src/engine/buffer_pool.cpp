#include "engine/buffer_pool.h"

#include <algorithm>
#include <cerrno>
#include <exception>
#include <optional>

#include "facts/affinity.h"
#include "facts/host_facts.h"
#include "platform/host_page_reserve.h"

namespace nvbw {

namespace {

std::size_t& slotOf(MemoryNeed& need, const BufferSpec& s) {
  return s.kind == MemoryKind::Host ? need.host : need.device[s.device];
}

bool sameMemory(const BufferSpec& a, const BufferSpec& b) {
  return a.kind == b.kind && (a.kind == MemoryKind::Host || a.device == b.device);
}

// Raises each resource of `need` to what `other` needs of it, where that is more.
void raiseTo(MemoryNeed& need, const MemoryNeed& other) {
  need.host = std::max(need.host, other.host);
  for (const auto& [device, bytes] : other.device)
    need.device[device] = std::max(need.device[device], bytes);
}

// The failing call and the driver's (or the system's) words; returns the error's detail.
std::string describeCause(const std::exception_ptr& cause, AllocationFailure& f) {
  f.call = "allocation";
  try {
    std::rethrow_exception(cause);
  } catch (const CudaError& e) {
    f.call = e.call();
    f.driverError = e.driverError();
    f.outOfMemory = e.code() == CUDA_ERROR_OUT_OF_MEMORY;
    return e.detail();
  } catch (const SystemError& e) {
    f.call = e.call();
    f.driverError = e.text();
    f.outOfMemory = e.errnum() == ENOMEM;
    return e.detail();
  } catch (const Error& e) {
    f.driverError = e.what();
    return e.detail();
  } catch (const std::exception& e) {
    f.driverError = e.what();
  } catch (...) {
    f.driverError = "unknown exception";
  }
  return "";
}

}  // namespace

MemoryNeed memoryNeedOf(const Measurement& m) {
  MemoryNeed need;
  for (const CopySpec& c : m.copies) {
    slotOf(need, c.src) += c.src.bytes;
    slotOf(need, c.dst) += c.dst.bytes;
  }
  if (m.latency) slotOf(need, m.latency->target) += m.latency->target.bytes;
  return need;
}

MemoryNeed memoryNeedOf(const Plan& plan) {
  MemoryNeed need;
  for (const Measurement& m : plan.measurements) raiseTo(need, memoryNeedOf(m));
  return need;
}

std::size_t BufferPool::heldDeviceBytes(int device) const {
  const auto it = held_.device.find(device);
  return it == held_.device.end() ? 0 : it->second;
}

BufferPool::Key BufferPool::keyOf(const BufferSpec& s) {
  if (s.kind == MemoryKind::Host)
    return {static_cast<int>(s.kind), allocator_.hostPlacement(s.device), s.bytes};
  return {static_cast<int>(s.kind), std::to_string(s.device), s.bytes};
}

void BufferPool::count(const BufferSpec& spec, bool adding) {
  std::size_t& slot = slotOf(held_, spec);
  slot = adding ? slot + spec.bytes : slot - spec.bytes;
  if (!adding) return;
  const bool host = spec.kind == MemoryKind::Host;
  (host ? stats_.hostBytesAllocated : stats_.deviceBytesAllocated) += spec.bytes;
  ++(host ? stats_.hostAllocations : stats_.deviceAllocations);
  std::size_t& peak = host ? stats_.peakHostBytes : stats_.peakDeviceBytes;
  peak = std::max(peak, slot);
}

void BufferPool::allowFor(const Plan& plan) { raiseTo(limit_, memoryNeedOf(plan)); }

void BufferPool::clear() {
  for (auto& [key, bucket] : free_)
    for (const std::unique_ptr<Allocation>& a : bucket) count(a->spec, false);
  free_.clear();
  limit_ = {};
}

bool BufferPool::fits(const BufferSpec& spec, std::size_t extra) {
  return slotOf(held_, spec) + extra <= slotOf(limit_, spec);
}

void BufferPool::makeRoom(const BufferSpec& spec, std::size_t extra, const std::vector<Key>& keep) {
  auto fits = [&] { return this->fits(spec, extra); };
  for (int pass = 0; pass < 2 && !fits(); ++pass) {
    for (auto& [key, bucket] : free_) {
      const bool kept = std::find(keep.begin(), keep.end(), key) != keep.end();
      if (kept != (pass == 1)) continue;  // buffers to keep are freed only in the second pass
      while (!bucket.empty() && !fits() && sameMemory(bucket.back()->spec, spec)) {
        count(bucket.back()->spec, false);
        bucket.pop_back();
      }
    }
  }
}

std::unique_ptr<Allocation> BufferPool::takeCached(const BufferSpec& spec) {
  auto it = free_.find(keyOf(spec));
  if (it == free_.end() || it->second.empty()) return nullptr;
  std::unique_ptr<Allocation> a = std::move(it->second.back());
  it->second.pop_back();
  a->spec = spec;  // same kind, placement and size; keep the plan's affinity device
  return a;
}

std::unique_ptr<Allocation> BufferPool::takeLarger(const BufferSpec& spec) {
  const Key wanted = keyOf(spec);
  // In key order: the smallest size of a placement first.
  const auto best = std::find_if(free_.begin(), free_.end(), [&](const auto& entry) {
    const Key& key = entry.first;
    return std::get<0>(key) == std::get<0>(wanted) && std::get<1>(key) == std::get<1>(wanted) &&
           std::get<2>(key) > std::get<2>(wanted) && !entry.second.empty();
  });
  if (best == free_.end()) return nullptr;
  std::unique_ptr<Allocation> a = std::move(best->second.back());
  best->second.pop_back();
  a->spec.device = spec.device;  // the plan's affinity device; the size stays the allocation's
  return a;
}

BufferPool::Lease BufferPool::acquire(const std::vector<BufferSpec>& specs,
                                      BufferSizeOrigin origin) {
  std::vector<std::unique_ptr<Allocation>> out(specs.size());
  std::vector<Key> keys;
  for (const BufferSpec& s : specs) keys.push_back(keyOf(s));
  for (std::size_t i = 0; i < specs.size(); ++i) out[i] = takeCached(specs[i]);
  for (std::size_t i = 0; i < specs.size(); ++i) {
    if (out[i]) continue;
    // Where a lone buffer would not fit beside the kept ones, a larger kept one serves instead
    // of being freed to make room (a 2 MiB pointer chain in a 512 MiB copy buffer). Not among
    // several: a borrowed buffer cannot be freed for the others, which could pass the bound.
    if (specs.size() == 1 && !fits(specs[i], specs[i].bytes) && (out[i] = takeLarger(specs[i])))
      continue;
    makeRoom(specs[i], specs[i].bytes, keys);
    try {
      out[i] = allocator_.allocate(specs[i]);
    } catch (...) {
      release(std::move(out));  // what was taken or made so far goes back to the pool
      throwAllocationFailure(specs, i, origin);
    }
    count(specs[i], true);
  }
  return Lease(*this, std::move(out));
}

void BufferPool::throwAllocationFailure(const std::vector<BufferSpec>& specs, std::size_t failed,
                                        BufferSizeOrigin origin) {
  const std::exception_ptr cause = std::current_exception();
  const BufferSpec& spec = specs[failed];
  AllocationFailure f;
  f.kind = spec.kind;
  f.device = spec.device;
  for (const BufferSpec& s : specs) {
    if (!sameMemory(s, spec)) continue;
    f.buffers.push_back(s.bytes);
    if (std::find(f.devices.begin(), f.devices.end(), s.device) == f.devices.end())
      f.devices.push_back(s.device);
  }
  std::sort(f.devices.begin(), f.devices.end());
  f.heldByRun = spec.kind == MemoryKind::Host ? heldHostBytes() : heldDeviceBytes(spec.device);
  f.origin = origin;
  const std::string detail = describeCause(cause, f);
  try {
    f.memory = allocator_.memoryState(spec);
  } catch (...) {
    // Nothing more is known: the message says what was asked for and why it failed.
  }
  throw AllocationError(allocationFailureMessage(f), detail);
}

void BufferPool::release(std::vector<std::unique_ptr<Allocation>> buffers) {
  for (auto& b : buffers)
    if (b) free_[keyOf(b->spec)].push_back(std::move(b));
}

namespace {

class GpuAllocator final : public Allocator {
 public:
  GpuAllocator(const Gpu& gpu, bool affinity, std::function<void(const std::string&)> note,
               std::size_t hugePageBytes, HostPageReserve* reserve)
      : gpu_(gpu), affinity_(affinity), note_(std::move(note)), hugePageBytes_(hugePageBytes),
        reserve_(reserve) {}

  std::unique_ptr<Allocation> allocate(const BufferSpec& spec) override {
    auto a = std::make_unique<Allocation>();
    a->spec = spec;
    if (spec.kind == MemoryKind::Device) {
      a->device = DeviceBuffer(gpu_, spec.device, spec.bytes);
      return a;
    }
    const std::optional<std::vector<int>> cpus = localCpus(spec.device);
    // Pages touched while the driver started, where the run reserved them (4 KiB pages, on a
    // machine of one NUMA node, where their placement cannot differ).
    if (reserve_ && hugePageBytes_ == 0) {
      if (void* touched = reserve_->take(spec.bytes)) {
        a->host = HostBuffer(gpu_, touched, spec.bytes);
        return a;
      }
      // A size the forecast did not name: the run holds other buffers than forecast, so what is
      // left of the reserve goes rather than stay beside them.
      reserve_->releaseRest();
    }
    // The guard binds this thread to the GPU's CPUs so the pinned pages are first touched (and
    // placed) on its NUMA node, then restores the previous mask.
    AffinityGuard guard(cpus ? *cpus : std::vector<int>{});
    a->host = HostBuffer(gpu_, spec.bytes, hugePageBytes_);
    return a;
  }

  MemoryState memoryState(const BufferSpec& spec) override {
    if (spec.kind == MemoryKind::Host) return hostMemoryState();
    MemoryState facts;
    ContextScope scope(gpu_, spec.device);
    std::size_t free = 0;
    std::size_t total = 0;
    if (gpu_.api().cuMemGetInfo(&free, &total) == CUDA_SUCCESS) {
      facts.totalBytes = total;
      facts.freeBytes = free;
    }
    return facts;
  }

  std::string hostPlacement(int device) override {
    const std::optional<std::vector<int>> cpus = localCpus(device);
    if (!cpus) return "anywhere";
    std::string text;
    for (int cpu : *cpus) text += std::to_string(cpu) + ",";
    return text;
  }

 private:
  std::optional<std::vector<int>> localCpus(int device) {
    if (!affinity_) return std::nullopt;
    auto it = cpus_.find(device);
    if (it != cpus_.end()) return it->second;
    std::optional<std::vector<int>> cpus = localCpusOf(gpu_.info(device));
    if (!cpus && note_)
      note_("NOTE: CPU affinity not applied for GPU " + std::to_string(device) +
            ": sysfs does not list its local CPUs");
    cpus_.emplace(device, cpus);
    return cpus;
  }

  const Gpu& gpu_;
  bool affinity_;
  std::function<void(const std::string&)> note_;
  std::size_t hugePageBytes_;
  HostPageReserve* reserve_;
  std::map<int, std::optional<std::vector<int>>> cpus_;
};

}  // namespace

std::unique_ptr<Allocator> makeGpuAllocator(const Gpu& gpu, bool affinity,
                                            std::function<void(const std::string&)> note,
                                            std::size_t hugePageBytes, HostPageReserve* reserve) {
  return std::make_unique<GpuAllocator>(gpu, affinity, std::move(note), hugePageBytes, reserve);
}

}  // namespace nvbw
