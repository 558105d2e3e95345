// A testcase's buffers that could not be allocated, said in the user's terms: what was asked for
// on which GPU (or pinned on the host for which GPU), what that memory holds and has free, and
// the option that sets the size. The driver's error name stays in the message; the failing call
// as the source writes it is the error's detail.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "plans/plan.h"

namespace nvbw {

// What the memory an allocation draws from looked like when it failed; nullopt: not known.
struct MemoryState {
  std::optional<std::uint64_t> totalBytes;
  // Device: free as the driver says (cuMemGetInfo). Host: MemAvailable of /proc/meminfo.
  std::optional<std::uint64_t> freeBytes;
  // Host: the soft RLIMIT_MEMLOCK of this process (`ulimit -l`); nullopt when unlimited.
  std::optional<std::uint64_t> lockLimitBytes;
};

// This host's memory (/proc/meminfo, RLIMIT_MEMLOCK) as a failed pinning reports it.
MemoryState hostMemoryState();

// Where a buffer's size comes from: -b/--bufferSize, --sweep's sizes, or a fixed size.
enum class BufferSizeOrigin { BufferSizeOption, Sweep, Fixed };

struct AllocationFailure {
  MemoryKind kind = MemoryKind::Device;
  int device = 0;                    // the GPU of device buffers; the GPU host buffers are for
  std::vector<std::size_t> buffers;  // the sizes of the measurement's buffers of that memory
  std::vector<int> devices;          // the GPUs those buffers are for, ascending
  // Bytes of that memory this run already holds and would give back (cached buffers): counted
  // as free, since the buffers of the testcase may use them.
  std::size_t heldByRun = 0;
  MemoryState memory;
  std::string call;         // "cuMemAlloc", "cuMemHostRegister", "mmap"
  std::string driverError;  // "CUDA_ERROR_OUT_OF_MEMORY (out of memory)", or strerror's text
  bool outOfMemory = false;
  BufferSizeOrigin origin = BufferSizeOrigin::BufferSizeOption;
};

// "GPU 0 cannot hold this testcase's 2 buffers of 90000 MiB (180000 MiB): ..." (see the .cpp).
std::string allocationFailureMessage(const AllocationFailure& failure);

// Thrown by BufferPool::acquire: what() is allocationFailureMessage(), detail() the driver
// call's.
class AllocationError : public Error {
 public:
  using Error::Error;
};

}  // namespace nvbw
