// Owners of driver objects (context scope, device and pinned host memory, streams, events), all
// built on UniqueHandle. Destructors never throw and never exit: a failure while releasing is
// ignored (the context may already be broken by the error being reported).
#pragma once

#include <cuda.h>

#include <cstddef>

#include "core/unique_handle.h"
#include "platform/gpu.h"

namespace nvbw {

// Makes a device's primary context current for the scope, restoring the previous one.
class ContextScope {
 public:
  ContextScope(const Gpu& gpu, int device);
  ~ContextScope();
  ContextScope(const ContextScope&) = delete;
  ContextScope& operator=(const ContextScope&) = delete;

 private:
  const DriverApi& api_;
  CUcontext previous_ = nullptr;
};

namespace platform {
// Releasers: each knows the GPU and the device whose context the release runs in.
struct FreeDeviceMemory {
  const Gpu* gpu = nullptr;
  int device = -1;
  void operator()(CUdeviceptr ptr) const noexcept;
};
struct FreeHostMemory {
  const Gpu* gpu = nullptr;
  std::size_t bytes = 0;
  void operator()(void* ptr) const noexcept;  // unregister, then unmap
};
struct DestroyStream {
  const Gpu* gpu = nullptr;
  void operator()(CUstream stream) const noexcept { gpu->api().cuStreamDestroy(stream); }
};
struct DestroyEvent {
  const Gpu* gpu = nullptr;
  void operator()(CUevent event) const noexcept { gpu->api().cuEventDestroy(event); }
};
}  // namespace platform

// cuMemAlloc in a device's primary context.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(const Gpu& gpu, int device, std::size_t bytes);
  CUdeviceptr ptr() const { return memory_.get(); }

 private:
  UniqueHandle<CUdeviceptr, platform::FreeDeviceMemory> memory_;
};

// Portable pinned host memory: 4 KiB pages mapped by this process, first touched in parallel by
// threads that inherit the calling thread's CPU affinity (so the pages land where upstream's
// cuMemHostAlloc, several times slower as it faults them from one thread, would put them), then
// pinned and mapped for every GPU with cuMemHostRegister.
class HostBuffer {
 public:
  HostBuffer() = default;
  // `hugePageBytes` non-zero: the pages come from the hugetlb pool in pages of that size (-H),
  // the mapping rounded up to whole pages.
  HostBuffer(const Gpu& gpu, std::size_t bytes, std::size_t hugePageBytes = 0);
  // Takes `bytes` of 4 KiB pages mapped and touched already (HostPageReserve::take), and pins
  // them: the buffer unmaps them when it goes, and on a failure here.
  HostBuffer(const Gpu& gpu, void* touched, std::size_t bytes);
  void* data() const { return memory_.get(); }
  // The address the GPUs use (under unified addressing, the host address).
  CUdeviceptr devicePtr() const { return devicePtr_; }

 private:
  UniqueHandle<void*, platform::FreeHostMemory> memory_;
  CUdeviceptr devicePtr_ = 0;
  void pin(const Gpu& gpu, void* raw, std::size_t mapped);
};

// A non-blocking stream in a device's primary context.
class Stream {
 public:
  Stream(const Gpu& gpu, int device);
  CUstream get() const { return stream_.get(); }
  void synchronize() const;

 private:
  UniqueHandle<CUstream, platform::DestroyStream> stream_;
};

// A timing event in a device's primary context.
class Event {
 public:
  Event(const Gpu& gpu, int device);
  CUevent get() const { return event_.get(); }
  void record(CUstream stream) const;
  // Returns once the work before its last record has finished.
  void synchronize() const;
  // Milliseconds from `start` to this event (both completed), as the driver reports them.
  float elapsedSince(const Event& start) const;

 private:
  UniqueHandle<CUevent, platform::DestroyEvent> event_;
};

}  // namespace nvbw
