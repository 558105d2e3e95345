// One copy of a measurement at run time: its buffers, stream and events, and the steps the
// sample protocol applies to it (private to the executor).
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "engine/buffer_pool.h"
#include "engine/kernels/kernels.h"
#include "plans/pattern.h"
#include "plans/plan.h"
#include "plans/sm_geometry.h"
#include "platform/buffer_view.h"
#include "platform/cuda_raii.h"

namespace nvbw::engine {

// Per-device pattern buffers (2 MiB each, source and destination seeds, and the write-only
// pass's constant), made on first use.
class PatternCache {
 public:
  explicit PatternCache(const Gpu& gpu) : gpu_(gpu) {}
  CUdeviceptr get(int device, std::uint32_t seed);

 private:
  const Gpu& gpu_;
  std::map<std::pair<int, std::uint32_t>, DeviceBuffer> buffers_;
};

// Compares buffers with the source pattern on the GPU; counters live in mapped host memory.
class Verifier {
 public:
  Verifier(const Gpu& gpu, PatternCache& patterns);
  // Throws VerificationError naming `what` and the sample when any word differs from the
  // pattern of `seed` (the source pattern, or kWriteOnlyValue everywhere).
  void check(int device, CUdeviceptr buf, std::size_t bytes, const std::string& what,
             unsigned sample, std::uint32_t seed = kSourceSeed);

 private:
  const Gpu& gpu_;
  PatternCache& patterns_;
  HostBuffer result_;              // one kernels::CheckResult
  std::map<int, Stream> streams_;  // one per device, made on first use
};

// The view of a pooled allocation.
inline BufferView viewOf(const Allocation& a) {
  return {a.ptr(), a.spec.kind == MemoryKind::Host ? a.host.data() : nullptr, 0};
}

struct CopyRun {
  const CopySpec* spec = nullptr;  // as this process runs it (its own GPU numbering)
  BufferView src;
  BufferView dst;
  SmCopyGeometry geometry;  // SM methods only
  std::size_t bytes = 0;    // bytes moved per iteration (after SM truncation)
  std::size_t checked = 0;  // bytes filled and verified
  std::optional<Stream> stream;
  std::optional<Event> start;
  std::optional<Event> end;
  std::optional<DeviceBuffer> readSum;  // SmReadOnly: the sum of the words read (on its GPU)
};

// Enables peer access, computes the sizes and creates the stream and events.
void prepareCopy(const Gpu& gpu, CopyRun& c);
// Queues the pattern fills of a sample on the copy's stream: the destination every time, the
// source only with `withSource` (the first sample), since a copy never writes its source; a
// split-warp copy writes both, so both are refilled every time.
void fillCopy(const Gpu& gpu, PatternCache& patterns, CopyRun& c, bool withSource);
// Queues `loops` iterations of the copy on its stream (the current context is the issuer's).
void enqueueCopy(const Gpu& gpu, CopyRun& c, unsigned long long loops);
// Checks what the copy wrote: the destination (and, for split-warp copies, the source) against
// the source pattern; a write-only pass's destination against its value; a read-only pass's
// sum against `passes` times the source pattern's.
void verifyCopy(const Gpu& gpu, Verifier& verifier, const CopyRun& c, unsigned sample,
                unsigned long long passes);

}  // namespace nvbw::engine
