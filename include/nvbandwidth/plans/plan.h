// The copy plan: a pure description of what a testcase measures.
//
// A testcase turns (topology, buffer size) into a Plan without touching the GPU. The executor
// (executor.h) then allocates the buffers and runs each Measurement. Keeping the plan pure lets
// unit tests inspect every copy of every testcase against a faked topology.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/unit.h"

namespace nvbw {

enum class MemoryKind { Host, Device };

// Who can reach a device buffer. Private: a single-process run's buffer. In a multi-process run:
// ProcessLocal lives on its owner's GPU and only the owner uses it; Exported is a unicast buffer
// that every process maps (fabric or POSIX file-descriptor handle); Multicast is a multicast
// object that every process's GPU backs and whose stores reach all of them.
enum class Sharing { Private, ProcessLocal, Exported, Multicast };

// A buffer to allocate for one measurement. For host buffers `device` is the GPU whose local
// CPUs the pinned pages are allocated from (CPU affinity); for device buffers it is the owner.
// `process` owns the memory: 0 in a single-process run. In a multi-process plan a buffer is named
// by its owning rank, `process` and `device` alike (the world's GPU r is rank r's GPU), which each
// rank maps onto the GPU it uses; the other ranks reach it through an exported handle.
struct BufferSpec {
  MemoryKind kind = MemoryKind::Device;
  int device = 0;
  std::size_t bytes = 0;
  int process = 0;
  Sharing sharing = Sharing::Private;

  static BufferSpec host(int affinityDevice, std::size_t bytes) {
    return {MemoryKind::Host, affinityDevice, bytes, 0, Sharing::Private};
  }
  static BufferSpec onDevice(int device, std::size_t bytes) {
    return {MemoryKind::Device, device, bytes, 0, Sharing::Private};
  }
  // Multi-process plans: memory of rank `rank`, reached as `sharing` says.
  static BufferSpec ofRank(int rank, std::size_t bytes, Sharing sharing) {
    return {MemoryKind::Device, rank, bytes, rank, sharing};
  }
  bool operator==(const BufferSpec& o) const {
    return kind == o.kind && device == o.device && bytes == o.bytes && process == o.process &&
           sharing == o.sharing;
  }
};

enum class CopyMethod {
  CopyEngine,   // cuMemcpyAsync, loopCount calls per sample
  SmCopy,       // copy kernel (simple under 64 MiB, striding otherwise)
  SmSplitWarp,  // bidirectional kernel: odd warps src->dst, even warps dst->src; bandwidth halved
  SmMulticast,  // multimem stores of 4-byte words into a multicast object (multi-process only)
  Tma,          // bulk asynchronous copies through shared memory (compute capability 9.0+)
  SmReadOnly,   // a kernel that only reads src (dst is unused); bytes read count
  SmWriteOnly,  // a kernel that only writes dst (src is unused); bytes written count
};

// Which context issues a copy. PreferSrc: the src buffer's device if it is device memory, else
// the dst's. PreferDst: the other way round. Upstream's rule, kept because it decides which GPU
// runs the SM kernel and which copy engine is used.
enum class ContextPreference { PreferSrc, PreferDst };

struct CopySpec {
  BufferSpec src;
  BufferSpec dst;
  CopyMethod method = CopyMethod::CopyEngine;
  int execDevice = 0;   // resolved from the context preference by makeCopy()
  int execProcess = 0;  // the process that issues the copy (the preferred buffer's owner)
};

CopySpec makeCopy(BufferSpec src, BufferSpec dst, CopyMethod method,
                  ContextPreference pref = ContextPreference::PreferSrc);

// How a measurement's per-copy timings become cell values.
enum class ValueSource {
  Copy,        // the bandwidth of copies[copyIndex] (start_i .. end_i)
  Total,       // sum of all copies' bytes over the time from start_0 to the last copy's end
  SumOfCopies  // per sample, the sum of every copy's bandwidth (bidirectional "total" matrices);
               // the cell reports the statistic of these per-sample sums
};

// One cell a measurement writes.
struct OutputTarget {
  std::size_t matrix = 0;
  std::size_t row = 0;
  std::size_t col = 0;
  ValueSource source = ValueSource::Copy;
  std::size_t copyIndex = 0;
};

// How each access of a pointer chase is made: a load by the SM (ld.global.cg), or a bulk copy of
// the node into shared memory through the TMA (compute capability 9.0+), the next address then
// read from shared memory.
enum class ChaseAccess { SmLoad, TmaBulkCopy };

// Pointer-chase latency: `chaseDevice` follows a chain laid out in `target` (2 MiB).
struct LatencySpec {
  BufferSpec target;
  int chaseDevice = 0;
  ChaseAccess access = ChaseAccess::SmLoad;
};

// Everything that runs simultaneously for one or more cells. Copies not named by any output are
// interference traffic: they run and are verified but not reported (unless source is Total,
// which reports the aggregate of all of them).
struct Measurement {
  std::vector<CopySpec> copies;
  std::optional<LatencySpec> latency;  // set instead of copies for latency testcases
  std::vector<OutputTarget> outputs;
};

struct MatrixSpec {
  std::string key;    // SUM-line key: the testcase key, or key + "_read1" etc.
  std::string title;  // the description line printed above the matrix
  Unit unit = Unit::GBps;
  std::size_t rows = 1;
  std::size_t cols = 1;
  std::vector<std::string> rowLabels;  // empty: rows are labelled by their index
};

// How a pair testcase measures its GPU pairs: one pair after another, or in rounds of disjoint
// pairs that run at once (plans/schedule.h).
enum class PairSchedule { PairByPair, Rounds };

// How a sample times its copies. Latched (upstream's method): every stream is held by a spin
// kernel until all the copies are queued, then released together, each timed by its events.
// InOrder: no latch; each stream's copies are issued by the host one after another between its
// events, as a confidential-computing host needs (there a host copy blocks the issuing thread
// until everything before it on its stream has finished, so a latch would never open).
enum class SampleTiming { Latched, InOrder };

struct Plan {
  std::vector<MatrixSpec> matrices;
  std::vector<Measurement> measurements;
  // Every process of a multi-process run takes part (buffers of several ranks, cross-process
  // timing); otherwise one process measures and the others wait.
  bool multiProcess = false;
  // Measurements that run at once, by index: each round a group of measurements of which no two
  // use the same GPU, every measurement in exactly one round. Empty: each measurement on its own,
  // in order. The executor runs a round as it runs one measurement, its copies released together.
  std::vector<std::vector<std::size_t>> rounds;
  // The schedule of a pair testcase (for the report); nullopt for the other testcases.
  std::optional<PairSchedule> schedule;
  SampleTiming timing = SampleTiming::Latched;
};

// The measurements of `plan` as the executor runs them: its rounds, or each one alone.
std::vector<std::vector<std::size_t>> measurementGroups(const Plan& plan);

// True when any buffer of `plan` (copy or latency chain) is host memory.
bool usesHostMemory(const Plan& plan);

// True when copy `i` of `m` is reported (named by an output, or part of a Total).
bool isReportedCopy(const Measurement& m, std::size_t i);

}  // namespace nvbw
