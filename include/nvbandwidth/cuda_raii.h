// Move-only owners of driver handles. Destructors never throw and never exit: a failure while
// releasing is ignored (the context may already be broken by the error being reported).
#pragma once

#include <cuda.h>

#include <cstddef>
#include <utility>

#include "nvbandwidth/gpu.h"

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

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(const Gpu& gpu, int device, std::size_t bytes);
  DeviceBuffer(DeviceBuffer&& o) noexcept { swap(o); }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    swap(o);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer();
  CUdeviceptr ptr() const { return ptr_; }
  std::size_t bytes() const { return bytes_; }
  int device() const { return device_; }

 private:
  void swap(DeviceBuffer& o) noexcept {
    std::swap(gpu_, o.gpu_);
    std::swap(ptr_, o.ptr_);
    std::swap(bytes_, o.bytes_);
    std::swap(device_, o.device_);
  }
  const Gpu* gpu_ = nullptr;
  CUdeviceptr ptr_ = 0;
  std::size_t bytes_ = 0;
  int device_ = -1;
};

// Portable pinned host memory (cuMemHostAlloc, PORTABLE).
class HostBuffer {
 public:
  HostBuffer() = default;
  HostBuffer(const Gpu& gpu, std::size_t bytes);
  HostBuffer(HostBuffer&& o) noexcept { swap(o); }
  HostBuffer& operator=(HostBuffer&& o) noexcept {
    swap(o);
    return *this;
  }
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;
  ~HostBuffer();
  void* data() const { return ptr_; }
  // Unified addressing: the host pointer is valid on every device.
  CUdeviceptr devicePtr() const { return reinterpret_cast<CUdeviceptr>(ptr_); }
  std::size_t bytes() const { return bytes_; }

 private:
  void swap(HostBuffer& o) noexcept {
    std::swap(gpu_, o.gpu_);
    std::swap(ptr_, o.ptr_);
    std::swap(bytes_, o.bytes_);
  }
  const Gpu* gpu_ = nullptr;
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

// A non-blocking stream in a device's primary context.
class Stream {
 public:
  Stream(const Gpu& gpu, int device);
  Stream(Stream&& o) noexcept { swap(o); }
  Stream& operator=(Stream&& o) noexcept {
    swap(o);
    return *this;
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  ~Stream();
  CUstream get() const { return stream_; }
  int device() const { return device_; }
  void synchronize() const;

 private:
  void swap(Stream& o) noexcept {
    std::swap(gpu_, o.gpu_);
    std::swap(stream_, o.stream_);
    std::swap(device_, o.device_);
  }
  const Gpu* gpu_ = nullptr;
  CUstream stream_ = nullptr;
  int device_ = -1;
};

// A timing event in a device's primary context.
class Event {
 public:
  Event(const Gpu& gpu, int device);
  Event(Event&& o) noexcept { swap(o); }
  Event& operator=(Event&& o) noexcept {
    swap(o);
    return *this;
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  ~Event();
  CUevent get() const { return event_; }
  void record(CUstream stream) const;
  // Milliseconds from `start` to this event (both completed).
  float elapsedSince(const Event& start) const;

 private:
  void swap(Event& o) noexcept {
    std::swap(gpu_, o.gpu_);
    std::swap(event_, o.event_);
  }
  const Gpu* gpu_ = nullptr;
  CUevent event_ = nullptr;
};

}  // namespace nvbw
