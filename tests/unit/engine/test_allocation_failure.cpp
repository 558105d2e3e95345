// Allocations that fail, as a user reads them: the message of each kind of failure (device out of
// memory, another driver error, host pinning with the locked-memory limit, sweeps and fixed
// sizes), and the buffer pool turning an allocator's driver error into that message, with the
// driver's call as the detail.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <string>

#include "engine/allocation_failure.h"
#include "engine/buffer_pool.h"
#include "platform/driver.h"

namespace nvbw {
namespace test_allocation_failure {

constexpr std::size_t kMiB = std::size_t{1} << 20;

AllocationFailure deviceOutOfMemory() {
  AllocationFailure f;
  f.kind = MemoryKind::Device;
  f.device = 0;
  f.buffers = {90000 * kMiB, 90000 * kMiB};
  f.memory.totalBytes = 143771 * kMiB;
  f.memory.freeBytes = 53000 * kMiB;  // the first buffer is held by the run
  f.heldByRun = 90000 * kMiB;
  f.call = "cuMemAlloc";
  f.driverError = "CUDA_ERROR_OUT_OF_MEMORY (out of memory)";
  f.outOfMemory = true;
  return f;
}

TEST(AllocationFailure, DeviceOutOfMemorySaysWhatWasAskedWhatThereIsAndTheOption) {
  EXPECT_EQ(allocationFailureMessage(deviceOutOfMemory()),
            "GPU 0 cannot hold this testcase's 2 buffers of 90000 MiB (180000 MiB in all): it has "
            "143771 MiB, 143000 MiB of it free (cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (out of "
            "memory)); buffers of at most about 71500 MiB would fit: --bufferSize (-b) sets their "
            "size in MiB");
}

TEST(AllocationFailure, NoSourceLocationOrExpressionInTheMessage) {
  const std::string text = allocationFailureMessage(deviceOutOfMemory());
  EXPECT_EQ(text.find(".cpp"), std::string::npos);
  EXPECT_EQ(text.find("&ptr"), std::string::npos);
}

TEST(AllocationFailure, BuffersOfSeveralSizesAreCountedBySize) {
  AllocationFailure f = deviceOutOfMemory();
  f.buffers = {200000 * kMiB, 1 * kMiB};
  f.heldByRun = 0;
  f.memory.freeBytes = 143000 * kMiB;
  EXPECT_EQ(allocationFailureMessage(f),
            "GPU 0 cannot hold this testcase's 2 buffers (1 of 200000 MiB, 1 of 1 MiB; 200001 MiB "
            "in all): it has 143771 MiB, 143000 MiB of it free (cuMemAlloc: "
            "CUDA_ERROR_OUT_OF_MEMORY (out of memory)); buffers of at most about 142999 MiB would "
            "fit: --bufferSize (-b) sets their size in MiB");
  f.buffers = {200000 * kMiB};
  EXPECT_NE(allocationFailureMessage(f).find("this testcase's buffer of 200000 MiB: "),
            std::string::npos);
}

TEST(AllocationFailure, AnotherDriverErrorSaysWhatWasAskedAndTheError) {
  AllocationFailure f = deviceOutOfMemory();
  f.outOfMemory = false;
  f.driverError = "CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was encountered)";
  EXPECT_EQ(allocationFailureMessage(f),
            "GPU 0 cannot hold this testcase's 2 buffers of 90000 MiB (180000 MiB in all) "
            "(cuMemAlloc: CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was encountered)); "
            "--bufferSize (-b) sets their size in MiB");
}

TEST(AllocationFailure, NothingFreeSaysAnotherProcessMayUseTheGpu) {
  AllocationFailure f = deviceOutOfMemory();
  f.buffers = {2 * kMiB};
  f.memory.freeBytes = 1024;
  f.heldByRun = 0;
  EXPECT_NE(allocationFailureMessage(f).find(
                "almost nothing is free there: another process may be using it (nvidia-smi"),
            std::string::npos)
      << allocationFailureMessage(f);
}

TEST(AllocationFailure, SweepAndFixedSizesNameWhatSetsThem) {
  AllocationFailure f = deviceOutOfMemory();
  f.origin = BufferSizeOrigin::Sweep;
  EXPECT_NE(allocationFailureMessage(f).find("would fit: --sweep sets their sizes in MiB"),
            std::string::npos);
  f.origin = BufferSizeOrigin::Fixed;
  EXPECT_NE(allocationFailureMessage(f).find("these buffers have a fixed size"), std::string::npos);
  EXPECT_EQ(allocationFailureMessage(f).find("--bufferSize"), std::string::npos);
}

AllocationFailure hostPinning() {
  AllocationFailure f;
  f.kind = MemoryKind::Host;
  f.device = 1;
  f.devices = {1};
  f.buffers = {512 * kMiB};
  f.memory.totalBytes = 2048 * 1024 * kMiB;
  f.memory.freeBytes = 1900 * 1024 * kMiB;
  f.call = "cuMemHostRegister";
  f.driverError = "CUDA_ERROR_OUT_OF_MEMORY (out of memory)";
  f.outOfMemory = true;
  return f;
}

TEST(AllocationFailure, HostPinningSaysHowMuchForWhichGpuAndTheHostsMemory) {
  EXPECT_EQ(allocationFailureMessage(hostPinning()),
            "cannot pin this testcase's host buffer of 512 MiB for GPU 1: the host has 2097152 "
            "MiB, 1945600 MiB of it available (cuMemHostRegister: CUDA_ERROR_OUT_OF_MEMORY (out "
            "of memory)); --bufferSize (-b) sets their size in MiB");
}

TEST(AllocationFailure, TheLockedMemoryLimitIsNamedWhenBelowWhatWasAsked) {
  AllocationFailure f = hostPinning();
  f.memory.lockLimitBytes = 64 * 1024;
  EXPECT_NE(allocationFailureMessage(f).find(
                "; this process may lock only 64 KiB of memory (ulimit -l), which may be why: "
                "raise it (ulimit -l unlimited, or --ulimit memlock=-1 for a container)"),
            std::string::npos)
      << allocationFailureMessage(f);
  f.memory.lockLimitBytes = 1024 * kMiB;  // above the 512 MiB asked: not the cause
  EXPECT_EQ(allocationFailureMessage(f).find("ulimit"), std::string::npos);
}

TEST(AllocationFailure, HostBuffersForSeveralGpusNameThemAll) {
  AllocationFailure f = hostPinning();
  f.buffers = {512 * kMiB, 512 * kMiB, 512 * kMiB};
  f.devices = {0, 1, 2};
  EXPECT_NE(allocationFailureMessage(f).find(
                "cannot pin this testcase's 3 host buffers of 512 MiB (1536 MiB in all) for GPUs "
                "0, 1, 2: "),
            std::string::npos)
      << allocationFailureMessage(f);
}

// An allocator that fails as a driver would, from the n-th allocation on.
class FailingAllocator final : public Allocator {
 public:
  int failAt = 0;
  int calls = 0;
  std::exception_ptr error;
  MemoryState state;
  std::unique_ptr<Allocation> allocate(const BufferSpec& spec) override {
    if (calls++ >= failAt) std::rethrow_exception(error);
    auto a = std::make_unique<Allocation>();
    a->spec = spec;
    return a;
  }
  std::string hostPlacement(int) override { return "anywhere"; }
  MemoryState memoryState(const BufferSpec&) override { return state; }
};

TEST(BufferPoolFailure, ADriverErrorBecomesTheMessageAndItsCallTheDetail) {
  FailingAllocator allocator;
  allocator.failAt = 1;
  allocator.error = std::make_exception_ptr(
      CudaError(CUDA_ERROR_OUT_OF_MEMORY, "cuMemAlloc", "CUDA_ERROR_OUT_OF_MEMORY (out of memory)",
                "cuMemAlloc(&ptr, bytes) at src/platform/cuda_raii.cpp:51"));
  allocator.state.totalBytes = 1000 * kMiB;
  allocator.state.freeBytes = 200 * kMiB;
  BufferPool pool(allocator);
  const std::vector<BufferSpec> specs = {BufferSpec::onDevice(3, 600 * kMiB),
                                         BufferSpec::onDevice(3, 600 * kMiB),
                                         BufferSpec::host(3, 600 * kMiB)};
  try {
    pool.acquire(specs);
    FAIL() << "no error";
  } catch (const AllocationError& e) {
    // The first buffer went back to the pool, which would free it: counted as free.
    EXPECT_EQ(std::string(e.what()),
              "GPU 3 cannot hold this testcase's 2 buffers of 600 MiB (1200 MiB in all): it has "
              "1000 MiB, 800 MiB of it free (cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (out of "
              "memory)); buffers of at most about 400 MiB would fit: --bufferSize (-b) sets their "
              "size in MiB");
    EXPECT_EQ(e.detail(), "cuMemAlloc(&ptr, bytes) at src/platform/cuda_raii.cpp:51");
  }
  EXPECT_EQ(pool.heldDeviceBytes(3), 600 * kMiB);  // held, and usable by the next testcase
}

TEST(BufferPoolFailure, AFailedMapOfHostMemoryIsAPinningFailure) {
  FailingAllocator allocator;
  allocator.error =
      std::make_exception_ptr(SystemError("mmap", ENOMEM, "", "mmap(...) at cuda_raii.cpp:88"));
  BufferPool pool(allocator);
  try {
    pool.acquire({BufferSpec::host(0, 4 * kMiB)}, BufferSizeOrigin::Sweep);
    FAIL() << "no error";
  } catch (const AllocationError& e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot pin this testcase's host buffer of 4 MiB for GPU 0 (mmap: " +
                  std::string(std::strerror(ENOMEM)) + "); --sweep sets their sizes in MiB");
    EXPECT_EQ(e.detail(), "mmap(...) at cuda_raii.cpp:88");
  }
}

}  // namespace test_allocation_failure
}  // namespace nvbw
