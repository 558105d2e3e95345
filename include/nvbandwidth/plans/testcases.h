// The plan builders of every testcase, by family, each family's in its testcases_<family>.cpp.
// A builder is pure: it reads the topology, the buffer size and the pair rule (PlanContext) and
// returns what to measure. Matrix keys are suffixes for the runner to qualify: "" for one matrix,
// "_read1"/"_read2"/"_total" (or "_write1"/...) for the bidirectional testcases.
#pragma once

#include <string>

#include "plans/plan.h"
#include "plans/testcase.h"

namespace nvbw::plans {

// Which side's context issues a copy, as the testcase builders and the registry spell it.
inline constexpr ContextPreference kSrc = ContextPreference::PreferSrc;
inline constexpr ContextPreference kDst = ContextPreference::PreferDst;

// Host copies (testcases_host.cpp): GPU d's copy with its own host buffer in `dir` is measured;
// with HostGpus::All every other GPU copies at the same time, as each builder says.
enum class HostDirection { ToHost, ToDevice };
enum class HostGpus { One, All };
// One way on the copy engine or the SM copy kernel (S); the others copy the same way (2S).
PlanBuilder hostOneWay(CopyMethod method, HostDirection dir, HostGpus gpus);
// Copy engine: the measured copy (S) with its opposite (2S: twice the size, as upstream, so it is
// still running when the measured copy finishes); the others copy both ways (2S each,
// device-to-host first, as upstream lists them).
PlanBuilder hostBothWaysCe(HostDirection dir, HostGpus gpus);
// Split-warp: the measured GPU's bidirectional copy (src in `dir`); the others each run a
// device-to-host split-warp copy; all of size S, as upstream (tests 18 and 19 are identical).
PlanBuilder hostSplitWarp(HostDirection dir, HostGpus gpus);

// Host <-> device pointer-chase latency.
Plan hostDeviceLatencySm(const PlanContext& ctx);

// Device-local (testcases_local.cpp), one GPU's own memory: the copy engine (device_local_copy),
// a TMA copy and an SM copy kernel (bytes copied count), and read-only and write-only SM passes
// (bandwidth counts the bytes read or written).
Plan deviceLocalCopy(const PlanContext& ctx, CopyMethod method);
Plan deviceLocalPass(const PlanContext& ctx, CopyMethod method);  // SmReadOnly or SmWriteOnly

// Device-to-device (testcases_d2d.cpp): the peer copies, the one-to-all/all-to-one fans and the
// peer chases. Each bandwidth builder serves the copy engine ("_ce"), the SM copy kernel ("_sm")
// and the TMA ("_tma") variant of a testcase; any other method throws std::invalid_argument.
//
// Two GPUs are paired only when cuDeviceCanAccessPeer holds in both directions; other cells are
// N/A. Upstream checks one direction, then enables access both ways and aborts if that fails, so
// the two rules differ only on asymmetric topologies, where upstream cannot run.

// N×N, one copy per cell [r][c]. Read: c -> r issued by r. Write: r -> c issued by r.
Plan deviceToDeviceRead(const PlanContext& ctx, CopyMethod method);
Plan deviceToDeviceWrite(const PlanContext& ctx, CopyMethod method);

// Three N×N matrices (direction 1, direction 2, their sum) from copies [c -> r, r -> c] running at
// once. Read: each copy is issued by its destination; write: by its source.
Plan deviceToDeviceBidirectionalRead(const PlanContext& ctx, CopyMethod method);
Plan deviceToDeviceBidirectionalWrite(const PlanContext& ctx, CopyMethod method);

// 1×N, cell [0][d]: the aggregate bandwidth of the copies between d and all its peers at once,
// into d or out of it, each issued in the context `issuer` prefers (upstream's per-variant choice,
// which the registry's rows spell out).
enum class Flow { IntoEach, OutOfEach };
PlanBuilder fan(CopyMethod method, Flow flow, ContextPreference issuer);

// N×N pointer-chase latency in ns: row r chases a 2 MiB chain on column c. Ignores bufferBytes.
// SmLoad: each access a load; TmaBulkCopy: each access a bulk copy of the node into shared memory.
PlanBuilder peerLatency(ChaseAccess access);

// Multinode (testcases_multinode.cpp): the multi-process testcases (upstream indices 35-47), one
// process per GPU. The world's GPU r is rank r's GPU: buffers are named by their owning rank
// (BufferSpec::ofRank) and matrices are indexed by rank. Unicast buffers are Exported (every rank
// maps them), buffers only their owner touches are ProcessLocal, and the broadcast testcases
// write to Multicast objects. Which rank issues a copy follows upstream's context preference: the
// owner of the preferred buffer. Titles keep upstream's (typos included); the bisect rows are
// labelled the way the data flows (docs/compatibility.md#c13).

// 35/39 read and 36/40 write: N×N, one copy per ordered pair of ranks; CE or SM.
Plan multinodeRead(const PlanContext& ctx, CopyMethod method);
Plan multinodeWrite(const PlanContext& ctx, CopyMethod method);
// 37/41 and 38/42: both directions of a pair at once; _read1/_read2/_total (_write1/...).
Plan multinodeBidirectionalRead(const PlanContext& ctx, CopyMethod method);
Plan multinodeBidirectionalWrite(const PlanContext& ctx, CopyMethod method);
// 43: every other rank writes into rank d's memory at once; 44: every other rank reads rank s's.
Plan multinodeAllToOneWrite(const PlanContext& ctx);
Plan multinodeAllFromOneRead(const PlanContext& ctx);
// 45: rank r broadcasts through its multicast object; 46: every rank at once, one cell.
Plan multinodeBroadcastOneToAll(const PlanContext& ctx);
Plan multinodeBroadcastAllToAll(const PlanContext& ctx);
// 47: rank i's memory is written from rank (i + N/2) mod N, all pairs at once; N×1.
Plan multinodeBisectWrite(const PlanContext& ctx);

// "<from>-><to>", each rank padded to the width of the largest rank number.
std::string bisectLabel(int from, int to, int processes);

}  // namespace nvbw::plans
