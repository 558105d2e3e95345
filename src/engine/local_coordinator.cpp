// The sample steps of a single-process run: a pinned, mapped host flag that this process sets,
// and cuStreamSynchronize.
#include <atomic>
#include <cstddef>

#include "engine/coordinator.h"
#include "platform/cuda_raii.h"

namespace nvbw {
namespace {

struct HostFlags {
  volatile int latch;
  int timedOut;
};

class LocalCoordinator final : public SampleCoordinator {
 public:
  explicit LocalCoordinator(const Gpu& gpu) : gpu_(gpu), flags_(gpu, sizeof(HostFlags)) {
    beginSample(true);
  }

  void beginSample(bool) override {
    flags()->latch = 0;
    flags()->timedOut = 0;
    std::atomic_thread_fence(std::memory_order_seq_cst);
  }

  // The GPUs reach the mapped flags at the device address of the registered memory.
  SpinFlags spinFlags(int) override {
    const CUdeviceptr base = flags_.devicePtr();
    return {reinterpret_cast<const volatile int*>(base + offsetof(HostFlags, latch)),
            reinterpret_cast<int*>(base + offsetof(HostFlags, timedOut))};
  }

  // A failure to queue was already followed by abandon(); the protocol reports it.
  void release(bool ok) override {
    if (ok) open();
  }
  void abandon() noexcept override { open(); }
  void checkpoint(bool) override {}

  void waitFor(const std::vector<CUstream>& streams) override {
    for (CUstream s : streams) NVBW_CU(gpu_.api(), cuStreamSynchronize, s);
  }

  bool timedOut() override { return flags()->timedOut != 0; }
  void combine(const Measurement&, MeasurementSamples&) override {}

 private:
  HostFlags* flags() { return static_cast<HostFlags*>(flags_.data()); }
  void open() noexcept {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    flags()->latch = 1;
    std::atomic_thread_fence(std::memory_order_seq_cst);
  }

  const Gpu& gpu_;
  HostBuffer flags_;
};

}  // namespace

std::unique_ptr<SampleCoordinator> makeLocalCoordinator(const Gpu& gpu) {
  return std::make_unique<LocalCoordinator>(gpu);
}

}  // namespace nvbw
