#include "plans/registry.h"

#include <sstream>

#include "plans/testcases_d2d.h"
#include "plans/testcases_host.h"
#include "plans/testcases_latency.h"
#include "plans/testcases_local.h"
#include "plans/testcases_multinode.h"

namespace nvbw {

std::optional<std::string> needsPeerPairs(const Topology& topo) {
  const int n = topo.deviceCount();
  if (n < 2) {
    std::ostringstream s;
    s << "needs two GPUs with peer access; this system has " << n << (n == 1 ? " GPU" : " GPUs");
    return s.str();
  }
  // Peer access is enabled both ways for every measured pair, so a pair counts only when each
  // GPU can access the other.
  for (const auto& [r, c] : accessiblePairs(topo))
    if (topo.canAccessPeer(c, r)) return std::nullopt;
  return "needs two GPUs with peer access; no pair of the " + std::to_string(n) +
         " GPUs can access each other both ways (cuDeviceCanAccessPeer)";
}

std::optional<std::string> needsTma(const Topology& topo) {
  for (int d = 0; d < topo.deviceCount(); ++d) {
    const int cc = topo.computeCapability(d);
    if (cc < 90)
      return "needs the Tensor Memory Accelerator (compute capability 9.0 or later); GPU " +
             std::to_string(d) + " is " + std::to_string(cc / 10) + "." + std::to_string(cc % 10);
  }
  return std::nullopt;
}

std::optional<std::string> notUnderConfidentialComputing(const Topology& topo) {
  if (!topo.confidentialComputing()) return std::nullopt;
  return std::string("confidential computing is on: GPU memory accesses across the bus go "
                     "through encrypted bounce buffers, so a pointer chase does not measure "
                     "memory latency");
}

WaiveCheck firstOf(std::vector<WaiveCheck> checks) {
  return [checks = std::move(checks)](const Topology& topo) -> std::optional<std::string> {
    for (const WaiveCheck& check : checks)
      if (auto reason = check(topo)) return reason;
    return std::nullopt;
  };
}

std::optional<std::string> needsSharedMemory(const Topology& topo) {
  const ProcessFacts& world = topo.processFacts();
  if (world.processes < 2)
    return "needs at least 2 processes, one per GPU (this run has " +
           std::to_string(world.processes) + "): launch it with mpirun or srun";
  if (world.sharingProblem)
    return "cannot share GPU memory between the processes: " + *world.sharingProblem;
  return std::nullopt;
}

std::optional<std::string> needsMulticast(const Topology& topo) {
  if (auto reason = needsSharedMemory(topo)) return reason;
  if (topo.processFacts().multicastProblem)
    return "needs multicast objects: " + *topo.processFacts().multicastProblem;
  return std::nullopt;
}

std::optional<std::string> waiveReasonFor(const TestcaseDef& def, const Topology& topo) {
  if (def.waiveReason) return def.waiveReason(topo);
  return std::nullopt;
}

namespace {

PlanBuilder with(Plan (*fn)(const PlanContext&, CopyMethod), CopyMethod method) {
  return [fn, method](const PlanContext& ctx) { return fn(ctx, method); };
}

constexpr CopyMethod kCe = CopyMethod::CopyEngine;
constexpr CopyMethod kSm = CopyMethod::SmCopy;

// Host <-> device through the copy engines (indices 0-3).
std::vector<TestcaseDef> hostCopyEngine() {
  return {
      {"host_to_device_memcpy_ce",
       "Copy engine (cuMemcpyAsync) bandwidth from pinned host memory to each GPU.",
       {},
       with(plans::hostToDevice, kCe)},
      {"device_to_host_memcpy_ce",
       "Copy engine (cuMemcpyAsync) bandwidth from each GPU to pinned host memory.",
       {},
       with(plans::deviceToHost, kCe)},
      {"host_to_device_bidirectional_memcpy_ce",
       R"(Host-to-GPU copy engine bandwidth, measured while a GPU-to-host copy runs at the same time.
Only the host-to-GPU direction is reported.)",
       {},
       plans::hostToDeviceBidirectionalCe},
      {"device_to_host_bidirectional_memcpy_ce",
       R"(GPU-to-host copy engine bandwidth, measured while a host-to-GPU copy runs at the same time.
Only the GPU-to-host direction is reported.)",
       {},
       plans::deviceToHostBidirectionalCe},
  };
}

// Device <-> device through the copy engines (4-7).
std::vector<TestcaseDef> peerCopyEngine() {
  const WaiveCheck peers = needsPeerPairs;
  return {
      {"device_to_device_memcpy_read_ce",
       R"(Copy engine bandwidth between every pair of GPUs with peer access.
Read: the row GPU pulls from the column GPU, issued in the row GPU's context.)",
       peers, with(plans::deviceToDeviceRead, kCe)},
      {"device_to_device_memcpy_write_ce",
       R"(Copy engine bandwidth between every pair of GPUs with peer access.
Write: the row GPU pushes to the column GPU, issued in the row GPU's context.)",
       peers, with(plans::deviceToDeviceWrite, kCe)},
      {"device_to_device_bidirectional_memcpy_read_ce",
       R"(Copy engine bandwidth between every pair of GPUs with peer access, with a copy in the
opposite direction running at the same time. Read: each GPU pulls in its own context.)",
       peers, with(plans::deviceToDeviceBidirectionalRead, kCe)},
      {"device_to_device_bidirectional_memcpy_write_ce",
       R"(Copy engine bandwidth between every pair of GPUs with peer access, with a copy in the
opposite direction running at the same time. Write: each GPU pushes in its own context.)",
       peers, with(plans::deviceToDeviceBidirectionalWrite, kCe)},
  };
}

// Host <-> device with every GPU copying at once, copy engines (8-11).
std::vector<TestcaseDef> hostCopyEngineAll() {
  return {
      {"all_to_host_memcpy_ce",
       R"(GPU-to-host copy engine bandwidth of one GPU while every other GPU also copies to the host.)",
       {},
       with(plans::allToHost, kCe)},
      {"all_to_host_bidirectional_memcpy_ce",
       R"(GPU-to-host copy engine bandwidth of one GPU while it also receives from the host, and every
other GPU copies to and from the host at the same time. Only the measured GPU-to-host copy
is reported.)",
       {},
       plans::allToHostBidirectionalCe},
      {"host_to_all_memcpy_ce",
       R"(Host-to-GPU copy engine bandwidth of one GPU while the host also copies to every other GPU.)",
       {},
       with(plans::hostToAll, kCe)},
      {"host_to_all_bidirectional_memcpy_ce",
       R"(Host-to-GPU copy engine bandwidth of one GPU while it also sends to the host, and every
other GPU copies to and from the host at the same time. Only the measured host-to-GPU copy
is reported.)",
       {},
       plans::hostToAllBidirectionalCe},
  };
}

// All-to-one and one-to-all between GPUs, copy engines (12-15).
std::vector<TestcaseDef> fansCopyEngine() {
  const WaiveCheck peers = needsPeerPairs;
  return {
      {"all_to_one_write_ce",
       R"(Total copy engine bandwidth into each GPU while all its peers write to it at once.
Each copy is issued by the writing peer.)",
       peers, with(plans::allToOneWrite, kCe)},
      {"all_to_one_read_ce",
       R"(Total copy engine bandwidth out of each GPU while all its peers read from it at once.
Each copy is issued by the reading peer.)",
       peers, with(plans::allToOneRead, kCe)},
      {"one_to_all_write_ce",
       R"(Total copy engine bandwidth out of each GPU while it writes to all its peers at once.
Each copy is issued by the writing GPU.)",
       peers, with(plans::oneToAllWrite, kCe)},
      {"one_to_all_read_ce",
       R"(Total copy engine bandwidth into each GPU while it reads from all its peers at once.
Each copy is issued by the reading GPU.)",
       peers, with(plans::oneToAllRead, kCe)},
  };
}

// Host <-> device through SM copy kernels (16-19).
std::vector<TestcaseDef> hostSm() {
  return {
      {"host_to_device_memcpy_sm",
       "Copy kernel (SM) bandwidth from pinned host memory to each GPU.",
       {},
       with(plans::hostToDevice, kSm)},
      {"device_to_host_memcpy_sm",
       "Copy kernel (SM) bandwidth from each GPU to pinned host memory.",
       {},
       with(plans::deviceToHost, kSm)},
      {"host_to_device_bidirectional_memcpy_sm",
       R"(Copy kernel bandwidth between host and GPU in both directions at once (alternate warps
copy opposite ways); half of the bytes moved per second is reported.)",
       {},
       plans::hostDeviceBidirectionalSm},
      {"device_to_host_bidirectional_memcpy_sm",
       R"(Copy kernel bandwidth between host and GPU in both directions at once (alternate warps
copy opposite ways); half of the bytes moved per second is reported. Upstream measures
exactly the same as host_to_device_bidirectional_memcpy_sm here.)",
       {},
       plans::hostDeviceBidirectionalSm},
  };
}

// Device <-> device through SM copy kernels (20-23).
std::vector<TestcaseDef> peerSm() {
  const WaiveCheck peers = needsPeerPairs;
  return {
      {"device_to_device_memcpy_read_sm",
       R"(Copy kernel bandwidth between every pair of GPUs with peer access.
Read: the kernel runs on the row GPU and pulls from the column GPU.)",
       peers, with(plans::deviceToDeviceRead, kSm)},
      {"device_to_device_memcpy_write_sm",
       R"(Copy kernel bandwidth between every pair of GPUs with peer access.
Write: the kernel runs on the row GPU and pushes to the column GPU.)",
       peers, with(plans::deviceToDeviceWrite, kSm)},
      {"device_to_device_bidirectional_memcpy_read_sm",
       R"(Copy kernel bandwidth between every pair of GPUs with peer access, both directions at
once; each direction and their sum are reported. Read: each GPU pulls.)",
       peers, with(plans::deviceToDeviceBidirectionalRead, kSm)},
      {"device_to_device_bidirectional_memcpy_write_sm",
       R"(Copy kernel bandwidth between every pair of GPUs with peer access, both directions at
once; each direction and their sum are reported. Write: each GPU pushes.)",
       peers, with(plans::deviceToDeviceBidirectionalWrite, kSm)},
  };
}

// Host <-> device with every GPU copying at once, SM copy kernels (24-27).
std::vector<TestcaseDef> hostSmAll() {
  return {
      {"all_to_host_memcpy_sm",
       R"(GPU-to-host copy kernel bandwidth of one GPU while every other GPU also copies to the host.)",
       {},
       with(plans::allToHost, kSm)},
      {"all_to_host_bidirectional_memcpy_sm",
       R"(Bidirectional (split-warp) host copy kernel bandwidth of one GPU while every other GPU runs
the same bidirectional traffic with the host. Only the measured GPU is reported.)",
       {},
       plans::allToHostBidirectionalSm},
      {"host_to_all_memcpy_sm",
       R"(Host-to-GPU copy kernel bandwidth of one GPU while the host also copies to every other GPU.)",
       {},
       with(plans::hostToAll, kSm)},
      {"host_to_all_bidirectional_memcpy_sm",
       R"(Bidirectional (split-warp) host copy kernel bandwidth of one GPU while every other GPU runs
the same bidirectional traffic with the host. Only the measured GPU is reported.)",
       {},
       plans::hostToAllBidirectionalSm},
  };
}

// All-to-one and one-to-all between GPUs, SM copy kernels (28-31).
std::vector<TestcaseDef> fansSm() {
  const WaiveCheck peers = needsPeerPairs;
  return {
      {"all_to_one_write_sm",
       "Total copy kernel bandwidth into each GPU while all its peers write to it at once.", peers,
       with(plans::allToOneWrite, kSm)},
      {"all_to_one_read_sm",
       R"(Total copy kernel bandwidth out of each GPU to all its peers at once. As upstream, the
kernels run on the GPU that owns the source, so this pushes rather than pulls.)",
       peers, with(plans::allToOneRead, kSm)},
      {"one_to_all_write_sm",
       R"(Total copy kernel bandwidth out of each GPU while it writes to all its peers at once.)",
       peers, with(plans::oneToAllWrite, kSm)},
      {"one_to_all_read_sm",
       R"(Total copy kernel bandwidth into each GPU from all its peers at once. As upstream, the
kernels run on the peers that own the sources, so this pushes rather than pulls.)",
       peers, with(plans::oneToAllRead, kSm)},
  };
}

// Pointer-chase latency, and copies within one GPU (32-34).
std::vector<TestcaseDef> latencyAndLocal() {
  const WaiveCheck peers = needsPeerPairs;
  return {
      {"host_device_latency_sm",
       R"(Latency of a GPU reading pinned host memory: a pointer chase through a 2 MiB host buffer
with a 128-byte stride. --bufferSize does not apply.)",
       notUnderConfidentialComputing, plans::hostDeviceLatencySm},
      {"device_to_device_latency_sm",
       R"(Latency of a GPU reading a peer GPU's memory: a pointer chase through a 2 MiB buffer on
the column GPU, run by the row GPU. --bufferSize does not apply.)",
       firstOf({notUnderConfidentialComputing, peers}), plans::deviceToDeviceLatencySm},
      {"device_local_copy",
       "Copy engine (cuMemcpyAsync) bandwidth between two buffers in the same GPU's memory.",
       {},
       plans::deviceLocalCopy},
  };
}

// Upstream v0.10's additions (48-54): copies through the Tensor Memory Accelerator, and one-way
// passes over a GPU's own memory. They follow the multi-process indices in every build.
std::vector<TestcaseDef> tmaAndLocalPasses() {
  const WaiveCheck tmaPeers = firstOf({needsTma, needsPeerPairs});
  constexpr CopyMethod kTma = CopyMethod::Tma;
  return {
      {"device_to_device_memcpy_read_tma",
       R"(TMA (bulk asynchronous copy) bandwidth between every pair of GPUs with peer access.
Read: the row GPU's SMs pull from the column GPU through shared memory.)",
       tmaPeers, with(plans::deviceToDeviceRead, kTma)},
      {"device_to_device_memcpy_write_tma",
       R"(TMA (bulk asynchronous copy) bandwidth between every pair of GPUs with peer access.
Write: the row GPU's SMs push to the column GPU through shared memory.)",
       tmaPeers, with(plans::deviceToDeviceWrite, kTma)},
      {"device_to_device_bidirectional_memcpy_read_tma",
       R"(TMA bandwidth between every pair of GPUs with peer access, both directions at once;
each direction and their sum are reported. Read: each GPU pulls.)",
       tmaPeers, with(plans::deviceToDeviceBidirectionalRead, kTma)},
      {"device_to_device_bidirectional_memcpy_write_tma",
       R"(TMA bandwidth between every pair of GPUs with peer access, both directions at once;
each direction and their sum are reported. Write: each GPU pushes.)",
       tmaPeers, with(plans::deviceToDeviceBidirectionalWrite, kTma)},
      {"device_local_copy_tma",
       "TMA (bulk asynchronous copy) bandwidth between two buffers in the same GPU's memory.",
       needsTma, plans::deviceLocalCopyTma},
      {"device_local_read_sm",
       R"(Read-only SM bandwidth of a GPU's own memory: a kernel that reads the buffer and folds
what it reads into a sum; bandwidth counts the bytes read.)",
       {},
       plans::deviceLocalRead},
      {"device_local_write_sm",
       R"(Write-only SM bandwidth of a GPU's own memory: a kernel that only stores into the
buffer; bandwidth counts the bytes written.)",
       {},
       plans::deviceLocalWrite},
  };
}

// Upstream v0.10's testcases that this tool added after the others (55 on): after everything it
// listed before them, so that no index changes meaning.
std::vector<TestcaseDef> laterV010Additions() {
  return {
      {"device_local_copy_sm",
       "Copy kernel (SM) bandwidth between two buffers in the same GPU's memory.",
       {},
       plans::deviceLocalCopySm},
      {"device_to_device_latency_tma",
       R"(Latency of a GPU reading a peer GPU's memory through the TMA: a pointer chase through a
2 MiB buffer on the column GPU, each access a bulk copy into the row GPU's shared memory.
--bufferSize does not apply.)",
       firstOf({notUnderConfidentialComputing, needsTma, needsPeerPairs}),
       plans::deviceToDeviceLatencyTma},
  };
}

// The multi-process testcases (35-47): one process per GPU, launched with mpirun or srun.
std::vector<TestcaseDef> multinode() {
  const WaiveCheck shared = needsSharedMemory;
  const WaiveCheck multicast = needsMulticast;
  using namespace plans;
  return {
      {"multinode_device_to_device_memcpy_read_ce",
       R"(Copy engine bandwidth between the GPUs of every pair of processes: the row process reads
the column process's memory.)",
       shared, with(multinodeRead, kCe)},
      {"multinode_device_to_device_memcpy_write_ce",
       R"(Copy engine bandwidth between the GPUs of every pair of processes: the row process writes
into the column process's memory.)",
       shared, with(multinodeWrite, kCe)},
      {"multinode_device_to_device_bidirectional_memcpy_read_ce",
       R"(Copy engine bandwidth of both directions of every pair of processes at once; each process
reads. Each direction and their sum are reported.)",
       shared, with(multinodeBidirectionalRead, kCe)},
      {"multinode_device_to_device_bidirectional_memcpy_write_ce",
       R"(Copy engine bandwidth of both directions of every pair of processes at once; each process
writes. Each direction and their sum are reported.)",
       shared, with(multinodeBidirectionalWrite, kCe)},
      {"multinode_device_to_device_memcpy_read_sm",
       "As multinode_device_to_device_memcpy_read_ce, with the SM copy kernel.", shared,
       with(multinodeRead, kSm)},
      {"multinode_device_to_device_memcpy_write_sm",
       "As multinode_device_to_device_memcpy_write_ce, with the SM copy kernel.", shared,
       with(multinodeWrite, kSm)},
      {"multinode_device_to_device_bidirectional_memcpy_read_sm",
       "As multinode_device_to_device_bidirectional_memcpy_read_ce, with the SM copy kernel.",
       shared, with(multinodeBidirectionalRead, kSm)},
      {"multinode_device_to_device_bidirectional_memcpy_write_sm",
       "As multinode_device_to_device_bidirectional_memcpy_write_ce, with the SM copy kernel.",
       shared, with(multinodeBidirectionalWrite, kSm)},
      {"multinode_device_to_device_all_to_one_write_sm",
       R"(Total SM copy kernel bandwidth into each process's memory while every other process writes
into it at once.)",
       shared, multinodeAllToOneWrite},
      {"multinode_device_to_device_all_from_one_read_sm",
       R"(Total SM copy kernel bandwidth out of each process's memory while every other process reads
from it at once.)",
       shared, multinodeAllFromOneRead},
      {"multinode_device_to_device_broadcast_one_to_all_sm",
       R"(Bandwidth of one process writing into a multicast object that every process's GPU backs,
for each process in turn.)",
       multicast, multinodeBroadcastOneToAll},
      {"multinode_device_to_device_broadcast_all_to_all_sm",
       "Total bandwidth of every process writing into its own multicast object at once.", multicast,
       multinodeBroadcastAllToAll},
      {"multinode_bisect_write_ce",
       R"(Copy engine bandwidth of every process written by the process half the world away, all
pairs at once; rows are labelled the way the data flows.)",
       shared, multinodeBisectWrite},
  };
}

}  // namespace

// upstream-v0.10.md: v0.8's 0-33, then the TMA copies, the local copies, the TMA latency.
const std::vector<std::string> kV010Order = {
    "host_to_device_memcpy_ce",
    "device_to_host_memcpy_ce",
    "host_to_device_bidirectional_memcpy_ce",
    "device_to_host_bidirectional_memcpy_ce",
    "device_to_device_memcpy_read_ce",
    "device_to_device_memcpy_write_ce",
    "device_to_device_bidirectional_memcpy_read_ce",
    "device_to_device_bidirectional_memcpy_write_ce",
    "all_to_host_memcpy_ce",
    "all_to_host_bidirectional_memcpy_ce",
    "host_to_all_memcpy_ce",
    "host_to_all_bidirectional_memcpy_ce",
    "all_to_one_write_ce",
    "all_to_one_read_ce",
    "one_to_all_write_ce",
    "one_to_all_read_ce",
    "host_to_device_memcpy_sm",
    "device_to_host_memcpy_sm",
    "host_to_device_bidirectional_memcpy_sm",
    "device_to_host_bidirectional_memcpy_sm",
    "device_to_device_memcpy_read_sm",
    "device_to_device_memcpy_write_sm",
    "device_to_device_bidirectional_memcpy_read_sm",
    "device_to_device_bidirectional_memcpy_write_sm",
    "all_to_host_memcpy_sm",
    "all_to_host_bidirectional_memcpy_sm",
    "host_to_all_memcpy_sm",
    "host_to_all_bidirectional_memcpy_sm",
    "all_to_one_write_sm",
    "all_to_one_read_sm",
    "one_to_all_write_sm",
    "one_to_all_read_sm",
    "host_device_latency_sm",
    "device_to_device_latency_sm",
    "device_to_device_memcpy_read_tma",  // 34
    "device_to_device_memcpy_write_tma",
    "device_to_device_bidirectional_memcpy_read_tma",
    "device_to_device_bidirectional_memcpy_write_tma",
    "device_local_copy",  // 38
    "device_local_copy_sm",
    "device_local_read_sm",
    "device_local_write_sm",
    "device_to_device_latency_tma",  // 42
    "device_local_copy_tma",
};

namespace {

// The v0.8 registry of the multinode build reordered and renumbered as v0.10 lists it: the
// testcases of kV010Order at their positions, then the rest (the multi-process ones, whose v0.10
// indices are not known) in v0.8's order, where `scope` has them.
std::vector<TestcaseDef> inV010Order(std::vector<TestcaseDef> v08, RegistryScope scope) {
  std::vector<TestcaseDef> registry;
  std::vector<bool> placed(v08.size(), false);
  for (const std::string& key : kV010Order)
    for (std::size_t i = 0; i < v08.size(); ++i)
      if (v08[i].key == key) {
        registry.push_back(std::move(v08[i]));
        placed[i] = true;
      }
  if (scope == RegistryScope::WithMultinode)
    for (std::size_t i = 0; i < v08.size(); ++i)
      if (!placed[i]) registry.push_back(std::move(v08[i]));
  for (std::size_t i = 0; i < registry.size(); ++i) {
    registry[i].index = i;
    registry[i].blankLineBefore = i == kV010BlankLineBefore;
  }
  return registry;
}

}  // namespace

std::vector<TestcaseDef> makeRegistry(RegistryScope scope, CompatMode compat) {
  if (compat == CompatMode::V0_10)
    return inV010Order(makeRegistry(RegistryScope::WithMultinode), scope);
  // Keys, order and indices 0-47 are upstream v0.8's, 48 onwards v0.10's (in the order this
  // tool added them, not v0.10's); descriptions are ours. The multi-process testcases keep 35-47
  // in every build, so an index names the same testcase in the plain and the multinode build.
  std::vector<TestcaseDef> registry;
  std::size_t index = 0;
  auto append = [&](std::vector<TestcaseDef> part, bool present) {
    for (TestcaseDef& def : part) {
      def.index = index++;
      if (present) registry.push_back(std::move(def));
    }
  };
  for (auto* group : {&hostCopyEngine, &peerCopyEngine, &hostCopyEngineAll, &fansCopyEngine,
                      &hostSm, &peerSm, &hostSmAll, &fansSm, &latencyAndLocal})
    append(group(), true);
  append(multinode(), scope == RegistryScope::WithMultinode);
  append(tmaAndLocalPasses(), true);
  append(laterV010Additions(), true);
  return registry;
}

std::vector<std::size_t> indicesOf(const std::vector<TestcaseDef>& registry) {
  std::vector<std::size_t> indices;
  for (const TestcaseDef& def : registry) indices.push_back(def.index);
  return indices;
}

}  // namespace nvbw
