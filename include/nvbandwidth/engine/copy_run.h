// One copy of a measurement at run time: its buffers, stream and events, and the steps the
// sample protocol applies to it (private to the executor).
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/buffer_content.h"
#include "engine/host_check.h"
#include "engine/kernels/kernels.h"
#include "plans/plan.h"
#include "plans/sm_geometry.h"
#include "platform/buffer_view.h"
#include "platform/cuda_raii.h"

namespace nvbw::engine {

// The pattern a check compares with: one of buffer_content.h's, or the write-only pass's value
// in every word.
constexpr int kWriteOnlyPattern = kPatterns;

// The 2 MiB patterns, per device on first use, and their words on the host (for host checks).
class PatternCache {
 public:
  explicit PatternCache(const Gpu& gpu) : gpu_(gpu) {}
  CUdeviceptr get(int device, int pattern);
  const std::vector<std::uint32_t>& words(int pattern);

 private:
  const Gpu& gpu_;
  std::map<std::pair<int, int>, DeviceBuffer> buffers_;
  std::map<int, std::vector<std::uint32_t>> words_;
};

// One buffer a sample's verification compares with a pattern: on its GPU, or by the CPU where
// `host` is set (pinned host memory, read where it is); or a read-only pass's sum.
struct Check {
  int device = 0;  // the GPU that runs a GPU check (and whose memory holds a sum)
  CUdeviceptr buffer = 0;
  const void* host = nullptr;
  std::size_t bytes = 0;
  int pattern = 0;
  std::string what;                               // "the destination of Host -> Device 0"
  std::optional<unsigned long long> sumExpected;  // a read-only pass: `buffer` holds its sum
};

// Runs a sample's checks: the GPUs' and the CPU's at once. A host buffer is checked by both:
// its GPU reads the leading part across its link while the CPU compares the rest where it is.
class Verifier {
 public:
  Verifier(const Gpu& gpu, PatternCache& patterns) : gpu_(gpu), patterns_(patterns) {}
  // Throws VerificationError for the first of `checks`, in their order, that found a word that
  // differs (or a sum that is not the expected one). Without `hostOnGpu` the CPU compares all of
  // host memory (a GPU cannot read it correctly on a confidential-computing host).
  void run(const std::vector<Check>& checks, unsigned sample, bool hostOnGpu = true);

 private:
  // Per device, made on first use: the stream of its checks, and the events that time how long
  // its GPU took for its host parts.
  struct Lane {
    Stream stream;
    Event start;
    Event end;
  };
  Lane& laneOf(int device);
  // Queues the GPUs' parts: host memory first, between each GPU's timer events, then device
  // memory; `slot[i]` gets the result index of check i (or stays `kNoSlot`). Returns the devices
  // whose GPUs check host memory.
  std::vector<int> launchGpuParts(const std::vector<Check>& checks,
                                  const std::vector<std::size_t>& onGpu,
                                  std::vector<std::size_t>& slot);
  std::vector<PatternCheck> checkOnHost(const std::vector<Check>& checks,
                                        const std::vector<std::size_t>& onGpu,
                                        const std::vector<int>& timed);
  void checkSum(const Check& c, unsigned sample);
  const Gpu& gpu_;
  PatternCache& patterns_;
  std::optional<HostBuffer> results_;  // one kernels::CheckResult per GPU check
  std::size_t capacity_ = 0;
  std::map<int, Lane> lanes_;
  HostCheckShare share_;
};

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
  std::optional<Event> filled;          // recorded after the sample's fills, before its spin kernel
  std::optional<DeviceBuffer> readSum;  // SmReadOnly: the sum of the words read (on its GPU)
  // What the two buffers hold (the pool's record of a kept buffer, or the measurement's own) and
  // this sample's fills.
  BufferContent* srcContent = nullptr;
  BufferContent* dstContent = nullptr;
  SampleFills fills;
};

// The bytes one pass of a copy moves (after SM truncation), and the launch shape of the SM
// methods, on a GPU of `sms` SMs.
struct CopyShape {
  SmCopyGeometry geometry;
  std::size_t bytes = 0;
};
CopyShape copyShape(const CopySpec& c, int sms);

// Enables peer access, computes the sizes and creates the stream and events.
void prepareCopy(const Gpu& gpu, CopyRun& c);
// How far buffer `b` of copy `c` is from the GPU that issues the copy (and fills it).
Reach reachOf(const BufferSpec& b, const CopySpec& c);
// Decides and counts this sample's fills from what the buffers hold (c.fills).
void planFills(CopyRun& c, bool verify, OperationCounts& counts);
// Queues this sample's fills on the copy's stream; with `hostByCpu` the CPU writes those of host
// memory at once instead (where a kernel cannot reach it).
void fillCopy(const Gpu& gpu, PatternCache& patterns, CopyRun& c, bool hostByCpu = false);
// Queues `loops` iterations of the copy on its stream (the current context is the issuer's).
void enqueueCopy(const Gpu& gpu, CopyRun& c, unsigned long long loops);
// The checks of what the copy wrote: the destination (and, for split-warp copies, the source)
// against this sample's variant; a write-only pass's destination against its value; a read-only
// pass's sum against `passes` times variant 0's.
void addChecks(const CopyRun& c, unsigned long long passes, std::vector<Check>& checks);
// After a good sample: the buffers hold what the copy wrote (and, `verified`, the host buffers
// the CPU read to check them are marked so: BufferContent::readByCpu).
void recordCopied(CopyRun& c, bool verified);

}  // namespace nvbw::engine
