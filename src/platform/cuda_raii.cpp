#include "platform/cuda_raii.h"

#include <sys/mman.h>

#include <cerrno>
#include <string>

#include "platform/host_page_reserve.h"
#include "platform/huge_pages.h"

namespace nvbw {

ContextScope::ContextScope(const Gpu& gpu, int device) : api_(gpu.api()) {
  NVBW_CU(api_, cuCtxGetCurrent, &previous_);
  gpu.makeCurrent(device);
}

ContextScope::~ContextScope() { api_.cuCtxSetCurrent(previous_); }

namespace platform {

void FreeDeviceMemory::operator()(CUdeviceptr ptr) const noexcept {
  const DriverApi& api = gpu->api();
  CUcontext previous = nullptr;
  api.cuCtxGetCurrent(&previous);
  api.cuCtxSetCurrent(gpu->context(device));
  api.cuMemFree(ptr);
  api.cuCtxSetCurrent(previous);
}

void FreeHostMemory::operator()(void* ptr) const noexcept {
  gpu->api().cuMemHostUnregister(ptr);
  munmap(ptr, bytes);
}

}  // namespace platform

DeviceBuffer::DeviceBuffer(const Gpu& gpu, int device, std::size_t bytes) {
  ContextScope scope(gpu, device);
  CUdeviceptr ptr = 0;
  NVBW_CU(gpu.api(), cuMemAlloc, &ptr, bytes);
  memory_ = {ptr, {&gpu, device}};
}

HostBuffer::HostBuffer(const Gpu& gpu, std::size_t bytes, std::size_t hugePageBytes) {
  if (bytes == 0) throw Error("a host buffer of 0 bytes was requested");
  const bool huge = hugePageBytes > 0;
  const std::size_t mapped = huge ? roundUpToPages(bytes, hugePageBytes) : bytes;
  void* raw = mmap(nullptr, mapped, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | (huge ? MAP_HUGETLB : 0), -1, 0);
  if (raw == MAP_FAILED) {
    const int saved = errno;
    std::string also;
    if (huge) {
      const HugePageInfo now = readHugePageInfo();
      also = std::to_string(now.free) + " of " + std::to_string(now.total) + " huge pages of " +
             std::to_string(hugePageBytes / 1024) + " KiB free";
    }
    throw SystemError("mmap", saved, also,
                      "mmap(nullptr, " + std::to_string(mapped) +
                          ", PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS" +
                          (huge ? " | MAP_HUGETLB" : "") + ", -1, 0) at " + __FILE__ + ":" +
                          std::to_string(__LINE__));
  }
  // 4 KiB pages, as cuMemHostAlloc gives: larger pages would change what the GPU's page walks
  // cost, and so the figures (huge pages are -H's).
  if (!huge) madvise(raw, mapped, MADV_NOHUGEPAGE);
  touchPages(static_cast<char*>(raw), mapped);
  pin(gpu, raw, mapped);
}

HostBuffer::HostBuffer(const Gpu& gpu, void* touched, std::size_t bytes) {
  pin(gpu, touched, bytes);
}

void HostBuffer::pin(const Gpu& gpu, void* raw, std::size_t mapped) {
  ContextScope scope(gpu, 0);  // registering needs a current context
  // PORTABLE: usable from every context, as upstream's allocation; DEVICEMAP: mapped for the GPUs.
  const CUresult rc = gpu.api().cuMemHostRegister(
      raw, mapped, CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP);
  if (rc != CUDA_SUCCESS) {
    munmap(raw, mapped);
    throwCudaError(gpu.api(), rc, "cuMemHostRegister",
                   "cuMemHostRegister(raw, mapped, PORTABLE | DEVICEMAP)", __FILE__, __LINE__);
  }
  memory_ = {raw, {&gpu, mapped}};
  NVBW_CU(gpu.api(), cuMemHostGetDevicePointer, &devicePtr_, raw, 0);
}

Stream::Stream(const Gpu& gpu, int device) {
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

void Event::synchronize() const {
  NVBW_CU(event_.releaser().gpu->api(), cuEventSynchronize, event_.get());
}

float Event::elapsedSince(const Event& start) const {
  float ms = 0.0f;
  NVBW_CU(event_.releaser().gpu->api(), cuEventElapsedTime, &ms, start.event_.get(), event_.get());
  return ms;
}

}  // namespace nvbw
