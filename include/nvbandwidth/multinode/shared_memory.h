// GPU memory that the processes of a run share, owned by RAII types. Construction is collective
// (every rank constructs the same objects in the same order) and each step ends in agreement,
// so a failure on one rank makes every rank throw instead of waiting: the failing rank its own
// error, the others PeerFailed. Destruction is local: imported handles keep the memory alive
// until the last process releases its own.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <utility>

#include "core/unique_handle.h"
#include "multinode/fd_channel.h"
#include "multinode/process_layout.h"
#include "platform/buffer_view.h"
#include "platform/communicator.h"
#include "platform/gpu.h"

namespace nvbw::multinode {

// What every shared object needs to know about this process.
struct SharingContext {
  const Gpu& gpu;
  int device;  // this rank's GPU
  Communicator& comm;
  MemorySharing sharing;
  FdChannel* fds;  // with MemorySharing::PosixFd
};

// Releasers of a mapping's two steps: the mapping is undone before its address range is freed.
struct FreeAddressRange {
  const DriverApi* api = nullptr;
  std::size_t bytes = 0;
  void operator()(CUdeviceptr ptr) const noexcept { api->cuMemAddressFree(ptr, bytes); }
};
struct Unmap {
  const DriverApi* api = nullptr;
  std::size_t bytes = 0;
  void operator()(CUdeviceptr ptr) const noexcept { api->cuMemUnmap(ptr, bytes); }
};

// A virtual address range with memory mapped into it, readable and writable by `device`.
class Mapping {
 public:
  Mapping() = default;
  Mapping(const SharingContext& ctx, CUmemGenericAllocationHandle handle, std::size_t bytes);
  Mapping(Mapping&&) noexcept = default;
  // The members in reverse order, as the destructor releases them: a defaulted assignment would
  // free the old address range while its memory is still mapped into it.
  Mapping& operator=(Mapping&& other) noexcept {
    mapped_ = std::move(other.mapped_);
    range_ = std::move(other.range_);
    return *this;
  }
  CUdeviceptr ptr() const { return range_.get(); }

 private:
  UniqueHandle<CUdeviceptr, FreeAddressRange> range_;  // declared first: released last
  UniqueHandle<CUdeviceptr, Unmap> mapped_;
};

// A physical allocation handle, released with the object.
struct ReleaseHandle {
  const DriverApi* api = nullptr;
  void operator()(CUmemGenericAllocationHandle handle) const noexcept { api->cuMemRelease(handle); }
};
using AllocationHandle = UniqueHandle<CUmemGenericAllocationHandle, ReleaseHandle>;

// A multicast object's binding of one GPU's memory, undone with the object.
struct UnbindMemory {
  const DriverApi* api = nullptr;
  CUdevice device = 0;
  std::size_t bytes = 0;
  void operator()(CUmemGenericAllocationHandle multicast) const noexcept {
    api->cuMulticastUnbind(multicast, device, 0, bytes);
  }
};

// Unicast memory on rank `owner`'s GPU, mapped by every rank (upstream's unicast fabric buffer,
// or the same through a POSIX file descriptor).
class SharedAllocation {
 public:
  SharedAllocation(const SharingContext& ctx, int owner, std::size_t bytes);
  BufferView view() const { return {mapping_.ptr(), nullptr, 0}; }
  CUdeviceptr ptr() const { return mapping_.ptr(); }

 private:
  AllocationHandle handle_;
  Mapping mapping_;
};

// A multicast object created by rank `owner`, backed by memory on every rank's GPU: stores to
// its view's ptr reach all of them; its checkPtr is this rank's own backing memory.
class MulticastObject {
 public:
  MulticastObject(const SharingContext& ctx, int owner, std::size_t bytes);
  BufferView view() const { return {multicastMapping_.ptr(), nullptr, localMapping_.ptr()}; }

 private:
  // Released in reverse order, also when the constructor throws half-way: the mappings, then the
  // binding, then the memory and the object.
  AllocationHandle multicast_;
  AllocationHandle memory_;
  UniqueHandle<CUmemGenericAllocationHandle, UnbindMemory> binding_;
  Mapping multicastMapping_;
  Mapping localMapping_;
};

// Creates and exports a small allocation with `sharing`'s handle type, then frees it: whether
// this rank can share memory that way (the device attribute alone is not enough: without an
// IMEX channel fabric allocations fail with CUDA_ERROR_NOT_PERMITTED). Returns the error.
std::optional<std::string> probeSharing(const Gpu& gpu, int device, MemorySharing sharing);

}  // namespace nvbw::multinode
