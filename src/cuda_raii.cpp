#include "nvbandwidth/cuda_raii.h"

namespace nvbw {

ContextScope::ContextScope(const Gpu& gpu, int device) : api_(gpu.api()) {
  NVBW_CU(api_, cuCtxGetCurrent, &previous_);
  gpu.makeCurrent(device);
}

ContextScope::~ContextScope() { api_.cuCtxSetCurrent(previous_); }

DeviceBuffer::DeviceBuffer(const Gpu& gpu, int device, std::size_t bytes)
    : gpu_(&gpu), bytes_(bytes), device_(device) {
  ContextScope scope(gpu, device);
  NVBW_CU(gpu.api(), cuMemAlloc, &ptr_, bytes);
}

DeviceBuffer::~DeviceBuffer() {
  if (!ptr_) return;
  const DriverApi& api = gpu_->api();
  CUcontext previous = nullptr;
  api.cuCtxGetCurrent(&previous);
  api.cuCtxSetCurrent(gpu_->context(device_));
  api.cuMemFree(ptr_);
  api.cuCtxSetCurrent(previous);
}

HostBuffer::HostBuffer(const Gpu& gpu, std::size_t bytes) : gpu_(&gpu), bytes_(bytes) {
  // cuMemHostAlloc needs a current context; PORTABLE makes the memory usable from all of them.
  ContextScope scope(gpu, 0);
  // PORTABLE: usable from every context, as upstream allocates it. Under unified addressing the
  // pages are mapped for the GPUs too and the host pointer is their device address.
  NVBW_CU(gpu.api(), cuMemHostAlloc, &ptr_, bytes, CU_MEMHOSTALLOC_PORTABLE);
}

HostBuffer::~HostBuffer() {
  if (ptr_) gpu_->api().cuMemFreeHost(ptr_);
}

Stream::Stream(const Gpu& gpu, int device) : gpu_(&gpu), device_(device) {
  ContextScope scope(gpu, device);
  NVBW_CU(gpu.api(), cuStreamCreate, &stream_, CU_STREAM_NON_BLOCKING);
}

Stream::~Stream() {
  if (stream_) gpu_->api().cuStreamDestroy(stream_);
}

void Stream::synchronize() const { NVBW_CU(gpu_->api(), cuStreamSynchronize, stream_); }

Event::Event(const Gpu& gpu, int device) : gpu_(&gpu) {
  ContextScope scope(gpu, device);
  NVBW_CU(gpu.api(), cuEventCreate, &event_, CU_EVENT_DEFAULT);
}

Event::~Event() {
  if (event_) gpu_->api().cuEventDestroy(event_);
}

void Event::record(CUstream stream) const { NVBW_CU(gpu_->api(), cuEventRecord, event_, stream); }

float Event::elapsedSince(const Event& start) const {
  float ms = 0.0f;
  NVBW_CU(gpu_->api(), cuEventElapsedTime, &ms, start.event_, event_);
  return ms;
}

}  // namespace nvbw
