#include "nvbandwidth/cuda_raii.h"

namespace nvbw {

ContextScope::ContextScope(const Gpu& gpu, int device) : api_(gpu.api()) {
  NVBW_CU(api_, cuCtxGetCurrent, &previous_);
  gpu.makeCurrent(device);
}

ContextScope::~ContextScope() { api_.cuCtxSetCurrent(previous_); }

namespace detail {

void FreeDeviceMemory::operator()(CUdeviceptr ptr) const noexcept {
  const DriverApi& api = gpu->api();
  CUcontext previous = nullptr;
  api.cuCtxGetCurrent(&previous);
  api.cuCtxSetCurrent(gpu->context(device));
  api.cuMemFree(ptr);
  api.cuCtxSetCurrent(previous);
}

void FreeHostMemory::operator()(void* ptr) const noexcept { gpu->api().cuMemFreeHost(ptr); }

void DestroyStream::operator()(CUstream stream) const noexcept {
  gpu->api().cuStreamDestroy(stream);
}

void DestroyEvent::operator()(CUevent event) const noexcept { gpu->api().cuEventDestroy(event); }

}  // namespace detail

DeviceBuffer::DeviceBuffer(const Gpu& gpu, int device, std::size_t bytes) : bytes_(bytes) {
  ContextScope scope(gpu, device);
  CUdeviceptr ptr = 0;
  NVBW_CU(gpu.api(), cuMemAlloc, &ptr, bytes);
  memory_ = {ptr, {&gpu, device}};
}

HostBuffer::HostBuffer(const Gpu& gpu, std::size_t bytes) : bytes_(bytes) {
  // cuMemHostAlloc needs a current context. PORTABLE makes the memory usable from every context,
  // as upstream allocates it; under unified addressing the host pointer is the GPUs' address too.
  ContextScope scope(gpu, 0);
  void* ptr = nullptr;
  NVBW_CU(gpu.api(), cuMemHostAlloc, &ptr, bytes, CU_MEMHOSTALLOC_PORTABLE);
  memory_ = {ptr, {&gpu}};
}

Stream::Stream(const Gpu& gpu, int device) : device_(device) {
  ContextScope scope(gpu, device);
  CUstream stream = nullptr;
  NVBW_CU(gpu.api(), cuStreamCreate, &stream, CU_STREAM_NON_BLOCKING);
  stream_ = {stream, {&gpu}};
}

void Stream::synchronize() const {
  NVBW_CU(stream_.releaser().gpu->api(), cuStreamSynchronize, stream_.get());
}

Event::Event(const Gpu& gpu, int device) {
  ContextScope scope(gpu, device);
  CUevent event = nullptr;
  NVBW_CU(gpu.api(), cuEventCreate, &event, CU_EVENT_DEFAULT);
  event_ = {event, {&gpu}};
}

void Event::record(CUstream stream) const {
  NVBW_CU(event_.releaser().gpu->api(), cuEventRecord, event_.get(), stream);
}

float Event::elapsedSince(const Event& start) const {
  float ms = 0.0f;
  NVBW_CU(event_.releaser().gpu->api(), cuEventElapsedTime, &ms, start.event_.get(), event_.get());
  return ms;
}

}  // namespace nvbw
