// The buffers of the measurements, kept from one testcase to the next while they fit.
//
// Pinned host allocations of hundreds of MiB take longer than the copies that use them, and
// upstream allocates afresh for every cell. Reuse changes nothing that is measured (every sample
// fills what it needs first; engine/buffer_content.h says what a kept buffer still holds). The
// pool is bounded: it never holds more pinned host memory, or more memory on any GPU, than the
// largest single measurement of the testcases run so far needs, which is what upstream holds at
// its peak; it frees a kept buffer only to make room, and what it holds at the end goes with it.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/phase_times.h"
#include "engine/allocation_failure.h"
#include "engine/buffer_content.h"
#include "plans/plan.h"
#include "platform/cuda_raii.h"

namespace nvbw {

class HostPageReserve;

// One allocation, host or device, with the address the GPUs use.
struct Allocation {
  BufferSpec spec;
  DeviceBuffer device;
  HostBuffer host;
  engine::BufferContent content;  // what it holds, as far as the run knows
  CUdeviceptr ptr() const {
    return spec.kind == MemoryKind::Host ? host.devicePtr() : device.ptr();
  }
};

// Makes allocations; the pool decides when. Tests count instead of allocating.
class Allocator {
 public:
  virtual ~Allocator() = default;
  virtual std::unique_ptr<Allocation> allocate(const BufferSpec& spec) = 0;
  // Host buffers with the same placement are interchangeable (the same NUMA node, or no affinity
  // at all): a buffer allocated near GPU 0 can serve GPU 1 when both have the same local CPUs.
  virtual std::string hostPlacement(int device) = 0;
  // What the memory `spec` draws from holds and has free now (for the message when an
  // allocation fails); nothing known by default.
  virtual MemoryState memoryState(const BufferSpec& /*spec*/) { return {}; }
};

// The most memory one measurement of a plan needs: pinned host bytes and bytes per GPU.
struct MemoryNeed {
  std::size_t host = 0;
  std::map<int, std::size_t> device;  // GPU -> bytes
};
MemoryNeed memoryNeedOf(const Measurement& m);
MemoryNeed memoryNeedOf(const Plan& plan);  // per resource, the maximum over the measurements

class BufferPool {
 public:
  explicit BufferPool(Allocator& allocator) : allocator_(allocator) {}

  // The buffers of one measurement, in the order of `specs`. They go back to the pool when the
  // lease ends, however the measurement ends.
  class Lease {
   public:
    Lease(BufferPool& pool, std::vector<std::unique_ptr<Allocation>> buffers)
        : pool_(&pool), buffers_(std::move(buffers)) {}
    ~Lease() {
      if (pool_) pool_->release(std::move(buffers_));
    }
    Lease(Lease&& other) noexcept
        : pool_(std::exchange(other.pool_, nullptr)), buffers_(std::move(other.buffers_)) {}
    Lease& operator=(Lease&&) = delete;
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    Allocation& operator[](std::size_t i) const { return *buffers_.at(i); }

   private:
    BufferPool* pool_;
    std::vector<std::unique_ptr<Allocation>> buffers_;
  };

  // Raises the bound to what one measurement of `plan` needs, where that is more (it is never
  // lowered: a later testcase may use what an earlier one left).
  void allowFor(const Plan& plan);
  // Frees every kept buffer and lowers the bound to nothing: before memory is shared between
  // processes (which the pool does not hold), and after an error, when the buffers may belong
  // to a broken context.
  void clear();
  // Throws AllocationError, in the user's terms (allocation_failure.h), when one cannot be had.
  Lease acquire(const std::vector<BufferSpec>& specs,
                BufferSizeOrigin origin = BufferSizeOrigin::BufferSizeOption);

  std::size_t heldHostBytes() const { return held_.host; }
  std::size_t heldDeviceBytes(int device) const;
  const MemoryStats& stats() const { return stats_; }

 private:
  using Key = std::tuple<int, std::string, std::size_t>;  // kind, placement, bytes
  Key keyOf(const BufferSpec& s);
  void release(std::vector<std::unique_ptr<Allocation>> buffers);
  std::unique_ptr<Allocation> takeCached(const BufferSpec& spec);
  // The smallest kept buffer of `spec`'s kind and placement that is larger than it asks for; its
  // spec keeps the allocation's size, so that it goes back where it came from.
  std::unique_ptr<Allocation> takeLarger(const BufferSpec& spec);
  // Whether `extra` more bytes of `spec`'s resource stay within the limit.
  bool fits(const BufferSpec& spec, std::size_t extra);
  // Frees cached buffers of `spec`'s resource (host, or its GPU) until `extra` more bytes fit
  // the limit; buffers whose key is in `keep` go last.
  void makeRoom(const BufferSpec& spec, std::size_t extra, const std::vector<Key>& keep);
  void count(const BufferSpec& spec, bool add);
  // The AllocationError for `specs[failed]`, after what was acquired went back to the pool.
  [[noreturn]] void throwAllocationFailure(const std::vector<BufferSpec>& specs, std::size_t failed,
                                           BufferSizeOrigin origin);

  Allocator& allocator_;
  std::map<Key, std::vector<std::unique_ptr<Allocation>>> free_;
  MemoryNeed held_;   // everything allocated, leased or cached
  MemoryNeed limit_;  // the largest need of the testcases so far
  MemoryStats stats_;
};

// The allocator of a real run: cuMemAlloc, and pinned host memory (HostBuffer) with the thread
// bound to the GPU's local CPUs (`affinity`), with a note the first time a GPU's CPUs are
// unknown. `hugePageBytes` non-zero: host buffers come from huge pages of that size (-H).
// `reserve` (may be null): pages touched ahead of need, taken for host buffers of their size.
std::unique_ptr<Allocator> makeGpuAllocator(const Gpu& gpu, bool affinity,
                                            std::function<void(const std::string&)> note,
                                            std::size_t hugePageBytes = 0,
                                            HostPageReserve* reserve = nullptr);

}  // namespace nvbw
