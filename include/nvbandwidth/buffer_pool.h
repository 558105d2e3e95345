// Allocation of the buffers a measurement needs, reused across measurements and testcases.
//
// Pinned host allocations of hundreds of MiB take longer than the copies that use them, and
// upstream allocates afresh for every cell. Reuse changes nothing that is measured (every sample
// refills the buffers with the pattern first) and removes most of the set-up time of a run.
#pragma once

#include <cuda.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "nvbandwidth/cuda_raii.h"
#include "nvbandwidth/plan.h"

namespace nvbw {

// One allocation, host or device, with the address the GPUs use.
struct Allocation {
  BufferSpec spec;
  DeviceBuffer device;
  HostBuffer host;
  CUdeviceptr ptr() const {
    return spec.kind == MemoryKind::Host ? host.devicePtr() : device.ptr();
  }
};

class BufferPool {
 public:
  // `affinity`: bind to the GPU's local CPUs while allocating host memory. `note` receives a
  // one-line message the first time affinity cannot be applied for a GPU.
  BufferPool(const Gpu& gpu, bool affinity, std::function<void(const std::string&)> note);

  // The buffers of one measurement, in the order of `specs`. They go back to the pool when the
  // lease ends, however the measurement ends.
  class Lease {
   public:
    Lease(BufferPool& pool, std::vector<std::unique_ptr<Allocation>> buffers)
        : pool_(pool), buffers_(std::move(buffers)) {}
    ~Lease() { pool_.release(std::move(buffers_)); }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    Allocation& operator[](std::size_t i) const { return *buffers_.at(i); }

   private:
    BufferPool& pool_;
    std::vector<std::unique_ptr<Allocation>> buffers_;
  };
  Lease acquire(const std::vector<BufferSpec>& specs);
  // Frees everything held (after an error the buffers may belong to a broken context).
  void clear() { free_.clear(); }

 private:
  void release(std::vector<std::unique_ptr<Allocation>> buffers);
  std::unique_ptr<Allocation> allocate(const BufferSpec& spec);
  using Key = std::tuple<int, int, std::size_t>;
  static Key keyOf(const BufferSpec& s) { return {static_cast<int>(s.kind), s.device, s.bytes}; }

  const Gpu& gpu_;
  bool affinity_;
  std::function<void(const std::string&)> note_;
  std::map<int, bool> affinityNoted_;
  std::map<Key, std::vector<std::unique_ptr<Allocation>>> free_;
};

}  // namespace nvbw
