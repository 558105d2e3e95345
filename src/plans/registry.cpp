#include "plans/registry.h"

#include <algorithm>
#include <utility>

#include "plans/testcases.h"

namespace nvbw {

namespace {

constexpr CopyMethod kCe = CopyMethod::CopyEngine;
constexpr CopyMethod kSm = CopyMethod::SmCopy;
constexpr CopyMethod kTma = CopyMethod::Tma;
constexpr plans::HostDirection kToHost = plans::HostDirection::ToHost;
constexpr plans::HostDirection kToDevice = plans::HostDirection::ToDevice;
constexpr plans::HostGpus kOneGpu = plans::HostGpus::One;
constexpr plans::HostGpus kAllGpus = plans::HostGpus::All;
constexpr plans::Flow kIntoEach = plans::Flow::IntoEach;
constexpr plans::Flow kOutOfEach = plans::Flow::OutOfEach;
using plans::kSrc, plans::kDst;

// The parts of a bidirectional result: each direction and their sum.
using Parts = std::vector<std::string>;
const Parts kRead = {"read1", "read2", "total"};
const Parts kWrite = {"write1", "write2", "total"};

using Table = std::vector<std::shared_ptr<const Testcase>>;
using Waivers = std::vector<WaiveCheck>;

void add(Table& table, TestcaseFacts facts, PlanBuilder build, Waivers waivers) {
  facts.waivers = std::move(waivers);
  table.push_back(std::make_shared<const Testcase>(std::move(facts), std::move(build)));
}

// The row helpers, one per family: each fills the facts and waivers the family's members share;
// a row brings the listing, the plan builder and what differs.

// Copies with the host, one GPU or all at once: one matrix (a bidirectional testcase reports one
// direction). Under confidential computing they are timed in order, or waived by `waivers`.
void addHostCopy(Table& table, TestcaseListing listing, PlanBuilder build, Waivers waivers = {}) {
  TestcaseFacts facts{std::move(listing), Unit::GBps, Axis::Cpu, Axis::Gpu};
  facts.inOrderUnderConfidentialComputing = true;
  add(table, std::move(facts), std::move(build), std::move(waivers));
}

// Copies between every pair of GPUs with peer access, one way or both at once (then `parts`).
void addPeerCopy(Table& table, TestcaseListing listing, MethodPlanBuilder build, CopyMethod method,
                 Parts parts = {}) {
  Waivers waivers = {needsPeerPairs};
  if (method == CopyMethod::Tma) waivers.insert(waivers.begin(), needsTma);
  add(table, {std::move(listing), Unit::GBps, Axis::Gpu, Axis::Gpu, std::move(parts)},
      withMethod(build, method), std::move(waivers));
}

// Each GPU with all its peers at once: one row of totals, titled GPU(row) as upstream titles it.
void addFan(Table& table, TestcaseListing listing, PlanBuilder build) {
  add(table, {std::move(listing), Unit::GBps, Axis::Gpu, Axis::Gpu}, build, {needsPeerPairs});
}

// A pointer chase through 2 MiB of pinned host memory (CPU rows) or of a peer GPU (GPU rows);
// --bufferSize does not apply. Waived under confidential computing, then by `waivers`.
void addLatency(Table& table, TestcaseListing listing, PlanBuilder build, Axis rows,
                Waivers waivers) {
  waivers.insert(waivers.begin(), notUnderConfidentialComputing);
  add(table, {std::move(listing), Unit::Nanoseconds, rows, Axis::Gpu}, std::move(build),
      std::move(waivers));
}

// Copies or one-way passes within each GPU's memory, one row.
void addDeviceLocal(Table& table, TestcaseListing listing, PlanBuilder build,
                    Waivers waivers = {}) {
  add(table, {std::move(listing), Unit::GBps, Axis::None, Axis::Gpu}, build, std::move(waivers));
}

// One process per GPU, listed only where the build runs several processes. Waived by `waiver`:
// without two processes that share memory, or, broadcasting, without multicast objects.
void addMultinode(Table& table, TestcaseListing listing, PlanBuilder build, Axis rows, Axis columns,
                  Parts parts = {}, WaiveCheck waiver = needsSharedMemory) {
  add(table, {std::move(listing), Unit::GBps, rows, columns, std::move(parts), true}, build,
      {waiver});
}

// The table's rows, one function per family. A row: the family's row helper, then {key, v0.8
// index, v0.10 index, -l description}, the plan builder (with its copy method where the builder
// takes one) and what the family's helper asks for. registry.h says how the indices are numbered;
// a testcase of this tool's own takes the next free index of each. Descriptions are ours.

// Copies between pinned host memory and GPUs: one GPU at a time, then all at once.
void hostCopies(Table& table) {
  addHostCopy(table,
              {"host_to_device_memcpy_ce", 0, 0,
               R"(Copy engine (cuMemcpyAsync) bandwidth from pinned host memory to each GPU.)"},
              plans::hostOneWay(kCe, kToDevice, kOneGpu));
  addHostCopy(table,
              {"device_to_host_memcpy_ce", 1, 1,
               R"(Copy engine (cuMemcpyAsync) bandwidth from each GPU to pinned host memory.)"},
              plans::hostOneWay(kCe, kToHost, kOneGpu));
  addHostCopy(
      table,
      {"host_to_device_bidirectional_memcpy_ce", 2, 2,
       R"(Host-to-GPU copy engine bandwidth, measured while a GPU-to-host copy runs at the same time.
Only the host-to-GPU direction is reported.)"},
      plans::hostBothWaysCe(kToDevice, kOneGpu), {bothWaysCeNotUnderConfidentialComputing});
  addHostCopy(
      table,
      {"device_to_host_bidirectional_memcpy_ce", 3, 3,
       R"(GPU-to-host copy engine bandwidth, measured while a host-to-GPU copy runs at the same time.
Only the GPU-to-host direction is reported.)"},
      plans::hostBothWaysCe(kToHost, kOneGpu), {bothWaysCeNotUnderConfidentialComputing});
  addHostCopy(
      table,
      {"all_to_host_memcpy_ce", 8, 8,
       R"(GPU-to-host copy engine bandwidth of one GPU while every other GPU also copies to the host.)"},
      plans::hostOneWay(kCe, kToHost, kAllGpus));
  addHostCopy(
      table,
      {"all_to_host_bidirectional_memcpy_ce", 9, 9,
       R"(GPU-to-host copy engine bandwidth of one GPU while it also receives from the host, and every
other GPU copies to and from the host at the same time. Only the measured GPU-to-host copy
is reported.)"},
      plans::hostBothWaysCe(kToHost, kAllGpus), {bothWaysCeNotUnderConfidentialComputing});
  addHostCopy(
      table,
      {"host_to_all_memcpy_ce", 10, 10,
       R"(Host-to-GPU copy engine bandwidth of one GPU while the host also copies to every other GPU.)"},
      plans::hostOneWay(kCe, kToDevice, kAllGpus));
  addHostCopy(
      table,
      {"host_to_all_bidirectional_memcpy_ce", 11, 11,
       R"(Host-to-GPU copy engine bandwidth of one GPU while it also sends to the host, and every
other GPU copies to and from the host at the same time. Only the measured host-to-GPU copy
is reported.)"},
      plans::hostBothWaysCe(kToDevice, kAllGpus), {bothWaysCeNotUnderConfidentialComputing});
  addHostCopy(table,
              {"host_to_device_memcpy_sm", 16, 16,
               R"(Copy kernel (SM) bandwidth from pinned host memory to each GPU.)"},
              plans::hostOneWay(kSm, kToDevice, kOneGpu),
              {hostKernelsNotUnderConfidentialComputing});
  addHostCopy(table,
              {"device_to_host_memcpy_sm", 17, 17,
               R"(Copy kernel (SM) bandwidth from each GPU to pinned host memory.)"},
              plans::hostOneWay(kSm, kToHost, kOneGpu), {hostKernelsNotUnderConfidentialComputing});
  addHostCopy(
      table,
      {"host_to_device_bidirectional_memcpy_sm", 18, 18,
       R"(Copy kernel bandwidth between host and GPU in both directions at once (alternate warps
copy opposite ways); half of the bytes moved per second is reported.)"},
      plans::hostSplitWarp(kToDevice, kOneGpu), {hostKernelsNotUnderConfidentialComputing});
  addHostCopy(
      table,
      {"device_to_host_bidirectional_memcpy_sm", 19, 19,
       R"(Copy kernel bandwidth between host and GPU in both directions at once (alternate warps
copy opposite ways); half of the bytes moved per second is reported. Upstream measures
exactly the same as host_to_device_bidirectional_memcpy_sm here.)"},
      plans::hostSplitWarp(kToDevice, kOneGpu), {hostKernelsNotUnderConfidentialComputing});
  addHostCopy(
      table,
      {"all_to_host_memcpy_sm", 24, 24,
       R"(GPU-to-host copy kernel bandwidth of one GPU while every other GPU also copies to the host.)"},
      plans::hostOneWay(kSm, kToHost, kAllGpus), {hostKernelsNotUnderConfidentialComputing});
  addHostCopy(
      table,
      {"all_to_host_bidirectional_memcpy_sm", 25, 25,
       R"(Bidirectional (split-warp) host copy kernel bandwidth of one GPU while every other GPU runs
the same bidirectional traffic with the host. Only the measured GPU is reported.)"},
      plans::hostSplitWarp(kToHost, kAllGpus), {hostKernelsNotUnderConfidentialComputing});
  addHostCopy(
      table,
      {"host_to_all_memcpy_sm", 26, 26,
       R"(Host-to-GPU copy kernel bandwidth of one GPU while the host also copies to every other GPU.)"},
      plans::hostOneWay(kSm, kToDevice, kAllGpus), {hostKernelsNotUnderConfidentialComputing});
  addHostCopy(
      table,
      {"host_to_all_bidirectional_memcpy_sm", 27, 27,
       R"(Bidirectional (split-warp) host copy kernel bandwidth of one GPU while every other GPU runs
the same bidirectional traffic with the host. Only the measured GPU is reported.)"},
      plans::hostSplitWarp(kToDevice, kAllGpus), {hostKernelsNotUnderConfidentialComputing});
}

void peerCopies(Table& table) {
  addPeerCopy(table,
              {"device_to_device_memcpy_read_ce", 4, 4,
               R"(Copy engine bandwidth between every pair of GPUs with peer access.
Read: the row GPU pulls from the column GPU, issued in the row GPU's context.)"},
              plans::deviceToDeviceRead, kCe);
  addPeerCopy(table,
              {"device_to_device_memcpy_write_ce", 5, 5,
               R"(Copy engine bandwidth between every pair of GPUs with peer access.
Write: the row GPU pushes to the column GPU, issued in the row GPU's context.)"},
              plans::deviceToDeviceWrite, kCe);
  addPeerCopy(
      table,
      {"device_to_device_bidirectional_memcpy_read_ce", 6, 6,
       R"(Copy engine bandwidth between every pair of GPUs with peer access, with a copy in the
opposite direction running at the same time. Read: each GPU pulls in its own context.)"},
      plans::deviceToDeviceBidirectionalRead, kCe, kRead);
  addPeerCopy(
      table,
      {"device_to_device_bidirectional_memcpy_write_ce", 7, 7,
       R"(Copy engine bandwidth between every pair of GPUs with peer access, with a copy in the
opposite direction running at the same time. Write: each GPU pushes in its own context.)"},
      plans::deviceToDeviceBidirectionalWrite, kCe, kWrite);
  addPeerCopy(table,
              {"device_to_device_memcpy_read_sm", 20, 20,
               R"(Copy kernel bandwidth between every pair of GPUs with peer access.
Read: the kernel runs on the row GPU and pulls from the column GPU.)"},
              plans::deviceToDeviceRead, kSm);
  addPeerCopy(table,
              {"device_to_device_memcpy_write_sm", 21, 21,
               R"(Copy kernel bandwidth between every pair of GPUs with peer access.
Write: the kernel runs on the row GPU and pushes to the column GPU.)"},
              plans::deviceToDeviceWrite, kSm);
  addPeerCopy(
      table,
      {"device_to_device_bidirectional_memcpy_read_sm", 22, 22,
       R"(Copy kernel bandwidth between every pair of GPUs with peer access, both directions at
once; each direction and their sum are reported. Read: each GPU pulls.)"},
      plans::deviceToDeviceBidirectionalRead, kSm, kRead);
  addPeerCopy(
      table,
      {"device_to_device_bidirectional_memcpy_write_sm", 23, 23,
       R"(Copy kernel bandwidth between every pair of GPUs with peer access, both directions at
once; each direction and their sum are reported. Write: each GPU pushes.)"},
      plans::deviceToDeviceBidirectionalWrite, kSm, kWrite);
  addPeerCopy(
      table,
      {"device_to_device_memcpy_read_tma", 48, 34,
       R"(TMA (bulk asynchronous copy) bandwidth between every pair of GPUs with peer access.
Read: the row GPU's SMs pull from the column GPU through shared memory.)"},
      plans::deviceToDeviceRead, kTma);
  addPeerCopy(
      table,
      {"device_to_device_memcpy_write_tma", 49, 35,
       R"(TMA (bulk asynchronous copy) bandwidth between every pair of GPUs with peer access.
Write: the row GPU's SMs push to the column GPU through shared memory.)"},
      plans::deviceToDeviceWrite, kTma);
  addPeerCopy(
      table,
      {"device_to_device_bidirectional_memcpy_read_tma", 50, 36,
       R"(TMA bandwidth between every pair of GPUs with peer access, both directions at once;
each direction and their sum are reported. Read: each GPU pulls.)"},
      plans::deviceToDeviceBidirectionalRead, kTma, kRead);
  addPeerCopy(
      table,
      {"device_to_device_bidirectional_memcpy_write_tma", 51, 37,
       R"(TMA bandwidth between every pair of GPUs with peer access, both directions at once;
each direction and their sum are reported. Write: each GPU pushes.)"},
      plans::deviceToDeviceBidirectionalWrite, kTma, kWrite);
}

// All-to-one and one-to-all between GPUs. The read fans pull in the CE variants, but upstream
// issues the SM variants from the source's context, so there the source GPU pushes. Kept: numbers
// must match upstream's.
void fans(Table& table) {
  addFan(table,
         {"all_to_one_write_ce", 12, 12,
          R"(Total copy engine bandwidth into each GPU while all its peers write to it at once.
Each copy is issued by the writing peer.)"},
         plans::fan(kCe, kIntoEach, kSrc));
  addFan(table,
         {"all_to_one_read_ce", 13, 13,
          R"(Total copy engine bandwidth out of each GPU while all its peers read from it at once.
Each copy is issued by the reading peer.)"},
         plans::fan(kCe, kOutOfEach, kDst));
  addFan(table,
         {"one_to_all_write_ce", 14, 14,
          R"(Total copy engine bandwidth out of each GPU while it writes to all its peers at once.
Each copy is issued by the writing GPU.)"},
         plans::fan(kCe, kOutOfEach, kSrc));
  addFan(table,
         {"one_to_all_read_ce", 15, 15,
          R"(Total copy engine bandwidth into each GPU while it reads from all its peers at once.
Each copy is issued by the reading GPU.)"},
         plans::fan(kCe, kIntoEach, kDst));
  addFan(table,
         {"all_to_one_write_sm", 28, 28,
          R"(Total copy kernel bandwidth into each GPU while all its peers write to it at once.)"},
         plans::fan(kSm, kIntoEach, kSrc));
  addFan(table,
         {"all_to_one_read_sm", 29, 29,
          R"(Total copy kernel bandwidth out of each GPU to all its peers at once. As upstream, the
kernels run on the GPU that owns the source, so this pushes rather than pulls.)"},
         plans::fan(kSm, kOutOfEach, kSrc));
  addFan(
      table,
      {"one_to_all_write_sm", 30, 30,
       R"(Total copy kernel bandwidth out of each GPU while it writes to all its peers at once.)"},
      plans::fan(kSm, kOutOfEach, kSrc));
  addFan(table,
         {"one_to_all_read_sm", 31, 31,
          R"(Total copy kernel bandwidth into each GPU from all its peers at once. As upstream, the
kernels run on the peers that own the sources, so this pushes rather than pulls.)"},
         plans::fan(kSm, kIntoEach, kSrc));
}

void latencies(Table& table) {
  addLatency(
      table,
      {"host_device_latency_sm", 32, 32,
       R"(Latency of a GPU reading pinned host memory: a pointer chase through a 2 MiB host buffer
with a 128-byte stride. --bufferSize does not apply.)"},
      plans::hostDeviceLatencySm, Axis::Cpu, {});
  addLatency(
      table,
      {"device_to_device_latency_sm", 33, 33,
       R"(Latency of a GPU reading a peer GPU's memory: a pointer chase through a 2 MiB buffer on
the column GPU, run by the row GPU. --bufferSize does not apply.)"},
      plans::peerLatency(ChaseAccess::SmLoad), Axis::Gpu, {needsPeerPairs});
  addLatency(
      table,
      {"device_to_device_latency_tma", 56, 42,
       R"(Latency of a GPU reading a peer GPU's memory through the TMA: a pointer chase through a
2 MiB buffer on the column GPU, each access a bulk copy into the row GPU's shared memory.
--bufferSize does not apply.)",
       true},
      plans::peerLatency(ChaseAccess::TmaBulkCopy), Axis::Gpu, {needsTma, needsPeerPairs});
}

void deviceLocal(Table& table) {
  addDeviceLocal(
      table,
      {"device_local_copy", 34, 38,
       R"(Copy engine (cuMemcpyAsync) bandwidth between two buffers in the same GPU's memory.)"},
      withMethod(plans::deviceLocalCopy, kCe));
  addDeviceLocal(
      table,
      {"device_local_copy_tma", 52, 43,
       R"(TMA (bulk asynchronous copy) bandwidth between two buffers in the same GPU's memory.)"},
      withMethod(plans::deviceLocalCopy, kTma), {needsTma});
  addDeviceLocal(
      table,
      {"device_local_read_sm", 53, 40,
       R"(Read-only SM bandwidth of a GPU's own memory: a kernel that reads the buffer and folds
what it reads into a sum; bandwidth counts the bytes read.)"},
      withMethod(plans::deviceLocalPass, CopyMethod::SmReadOnly));
  addDeviceLocal(
      table,
      {"device_local_write_sm", 54, 41,
       R"(Write-only SM bandwidth of a GPU's own memory: a kernel that only stores into the
buffer; bandwidth counts the bytes written.)"},
      withMethod(plans::deviceLocalPass, CopyMethod::SmWriteOnly));
  addDeviceLocal(table,
                 {"device_local_copy_sm", 55, 39,
                  R"(Copy kernel (SM) bandwidth between two buffers in the same GPU's memory.)"},
                 withMethod(plans::deviceLocalCopy, kSm));
}

// The multi-process testcases: one process per GPU, launched with mpirun or srun.
void multinode(Table& table) {
  addMultinode(
      table,
      {"multinode_device_to_device_memcpy_read_ce", 35, 44,
       R"(Copy engine bandwidth between the GPUs of every pair of processes: the row process reads
the column process's memory.)"},
      withMethod(plans::multinodeRead, kCe), Axis::Gpu, Axis::Gpu);
  addMultinode(
      table,
      {"multinode_device_to_device_memcpy_write_ce", 36, 45,
       R"(Copy engine bandwidth between the GPUs of every pair of processes: the row process writes
into the column process's memory.)"},
      withMethod(plans::multinodeWrite, kCe), Axis::Gpu, Axis::Gpu);
  addMultinode(
      table,
      {"multinode_device_to_device_bidirectional_memcpy_read_ce", 37, 46,
       R"(Copy engine bandwidth of both directions of every pair of processes at once; each process
reads. Each direction and their sum are reported.)"},
      withMethod(plans::multinodeBidirectionalRead, kCe), Axis::Cpu, Axis::Gpu, kRead);
  addMultinode(
      table,
      {"multinode_device_to_device_bidirectional_memcpy_write_ce", 38, 47,
       R"(Copy engine bandwidth of both directions of every pair of processes at once; each process
writes. Each direction and their sum are reported.)"},
      withMethod(plans::multinodeBidirectionalWrite, kCe), Axis::Cpu, Axis::Gpu, kWrite);
  addMultinode(table,
               {"multinode_device_to_device_memcpy_read_sm", 39, 48,
                R"(As multinode_device_to_device_memcpy_read_ce, with the SM copy kernel.)"},
               withMethod(plans::multinodeRead, kSm), Axis::Gpu, Axis::Gpu);
  addMultinode(table,
               {"multinode_device_to_device_memcpy_write_sm", 40, 49,
                R"(As multinode_device_to_device_memcpy_write_ce, with the SM copy kernel.)"},
               withMethod(plans::multinodeWrite, kSm), Axis::Gpu, Axis::Gpu);
  addMultinode(
      table,
      {"multinode_device_to_device_bidirectional_memcpy_read_sm", 41, 50,
       R"(As multinode_device_to_device_bidirectional_memcpy_read_ce, with the SM copy kernel.)"},
      withMethod(plans::multinodeBidirectionalRead, kSm), Axis::Cpu, Axis::Gpu, kRead);
  addMultinode(
      table,
      {"multinode_device_to_device_bidirectional_memcpy_write_sm", 42, 51,
       R"(As multinode_device_to_device_bidirectional_memcpy_write_ce, with the SM copy kernel.)"},
      withMethod(plans::multinodeBidirectionalWrite, kSm), Axis::Cpu, Axis::Gpu, kWrite);
  addMultinode(
      table,
      {"multinode_device_to_device_all_to_one_write_sm", 43, 52,
       R"(Total SM copy kernel bandwidth into each process's memory while every other process writes
into it at once.)"},
      plans::multinodeAllToOneWrite, Axis::None, Axis::Gpu);
  addMultinode(
      table,
      {"multinode_device_to_device_all_from_one_read_sm", 44, 53,
       R"(Total SM copy kernel bandwidth out of each process's memory while every other process reads
from it at once.)"},
      plans::multinodeAllFromOneRead, Axis::None, Axis::Gpu);
  addMultinode(
      table,
      {"multinode_device_to_device_broadcast_one_to_all_sm", 45, 54,
       R"(Bandwidth of one process writing into a multicast object that every process's GPU backs,
for each process in turn.)"},
      plans::multinodeBroadcastOneToAll, Axis::None, Axis::Gpu, Parts{}, needsMulticast);
  addMultinode(
      table,
      {"multinode_device_to_device_broadcast_all_to_all_sm", 46, 55,
       R"(Total bandwidth of every process writing into its own multicast object at once.)"},
      plans::multinodeBroadcastAllToAll, Axis::None, Axis::None, Parts{}, needsMulticast);
  addMultinode(
      table,
      {"multinode_bisect_write_ce", 47, 56,
       R"(Copy engine bandwidth of every process written by the process half the world away, all
pairs at once; rows are labelled the way the data flows.)"},
      plans::multinodeBisectWrite, Axis::None, Axis::None);
}

TestcaseDef entryFor(std::shared_ptr<const Testcase> testcase, CompatMode compat) {
  const TestcaseListing& listing = testcase->facts().listing;
  const bool v010 = compat == CompatMode::V0_10;
  // `listing` stays valid: moving the pointer leaves the testcase where it is.
  return {std::move(testcase), listing.key, listing.description,
          v010 ? listing.v010Index : listing.v08Index, v010 && listing.blankLineBefore};
}

}  // namespace

std::vector<std::shared_ptr<const Testcase>> registeredTestcases() {
  Table table;
  hostCopies(table);
  peerCopies(table);
  fans(table);
  latencies(table);
  deviceLocal(table);
  multinode(table);
  return table;
}

std::shared_ptr<const Testcase> findTestcase(const std::string& key) {
  for (std::shared_ptr<const Testcase>& testcase : registeredTestcases())
    if (testcase->key() == key) return std::move(testcase);
  return nullptr;
}

std::vector<TestcaseDef> makeRegistry(RegistryScope scope, CompatMode compat) {
  std::vector<TestcaseDef> registry;
  for (std::shared_ptr<const Testcase>& testcase : registeredTestcases())
    if (scope == RegistryScope::WithMultinode || !testcase->facts().multiProcess)
      registry.push_back(entryFor(std::move(testcase), compat));
  std::sort(registry.begin(), registry.end(),
            [](const TestcaseDef& a, const TestcaseDef& b) { return a.index < b.index; });
  return registry;
}

std::vector<std::size_t> indicesOf(const std::vector<TestcaseDef>& registry) {
  std::vector<std::size_t> indices;
  for (const TestcaseDef& def : registry) indices.push_back(def.index);
  return indices;
}

std::optional<std::string> waiveReasonFor(const TestcaseDef& def, const Topology& topo) {
  if (!def.testcase) return std::nullopt;
  return def.testcase->waiveReason(topo);
}

}  // namespace nvbw
