#include "nvbandwidth/registry.h"

#include <sstream>

#include "nvbandwidth/testcases.h"
#include "nvbandwidth/testcases_d2d.h"

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

}  // namespace

std::vector<TestcaseDef> makeRegistry() {
  // Index = position. Keys, order and indices are upstream v0.8's; descriptions are ours.
  const WaiveCheck peers = needsPeerPairs;
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
       "Host-to-GPU copy engine bandwidth, measured while a GPU-to-host copy runs at the same "
       "time.\n"
       "Only the host-to-GPU direction is reported.",
       {},
       plans::hostToDeviceBidirectionalCe},
      {"device_to_host_bidirectional_memcpy_ce",
       "GPU-to-host copy engine bandwidth, measured while a host-to-GPU copy runs at the same "
       "time.\n"
       "Only the GPU-to-host direction is reported.",
       {},
       plans::deviceToHostBidirectionalCe},
      {"device_to_device_memcpy_read_ce",
       "Copy engine bandwidth between every pair of GPUs with peer access.\n"
       "Read: the row GPU pulls from the column GPU, issued in the row GPU's context.",
       peers, with(plans::deviceToDeviceRead, kCe)},
      {"device_to_device_memcpy_write_ce",
       "Copy engine bandwidth between every pair of GPUs with peer access.\n"
       "Write: the row GPU pushes to the column GPU, issued in the row GPU's context.",
       peers, with(plans::deviceToDeviceWrite, kCe)},
      {"device_to_device_bidirectional_memcpy_read_ce",
       "Copy engine bandwidth between every pair of GPUs with peer access, with a copy in the\n"
       "opposite direction running at the same time. Read: each GPU pulls in its own context.",
       peers, with(plans::deviceToDeviceBidirectionalRead, kCe)},
      {"device_to_device_bidirectional_memcpy_write_ce",
       "Copy engine bandwidth between every pair of GPUs with peer access, with a copy in the\n"
       "opposite direction running at the same time. Write: each GPU pushes in its own context.",
       peers, with(plans::deviceToDeviceBidirectionalWrite, kCe)},
      {"all_to_host_memcpy_ce",
       "GPU-to-host copy engine bandwidth of one GPU while every other GPU also copies to the "
       "host.",
       {},
       with(plans::allToHost, kCe)},
      {"all_to_host_bidirectional_memcpy_ce",
       "GPU-to-host copy engine bandwidth of one GPU while it also receives from the host, and "
       "every\n"
       "other GPU copies to and from the host at the same time. Only the measured GPU-to-host "
       "copy\n"
       "is reported.",
       {},
       plans::allToHostBidirectionalCe},
      {"host_to_all_memcpy_ce",
       "Host-to-GPU copy engine bandwidth of one GPU while the host also copies to every other "
       "GPU.",
       {},
       with(plans::hostToAll, kCe)},
      {"host_to_all_bidirectional_memcpy_ce",
       "Host-to-GPU copy engine bandwidth of one GPU while it also sends to the host, and every\n"
       "other GPU copies to and from the host at the same time. Only the measured host-to-GPU "
       "copy\n"
       "is reported.",
       {},
       plans::hostToAllBidirectionalCe},
      {"all_to_one_write_ce",
       "Total copy engine bandwidth into each GPU while all its peers write to it at once.\n"
       "Each copy is issued by the writing peer.",
       peers, with(plans::allToOneWrite, kCe)},
      {"all_to_one_read_ce",
       "Total copy engine bandwidth out of each GPU while all its peers read from it at once.\n"
       "Each copy is issued by the reading peer.",
       peers, with(plans::allToOneRead, kCe)},
      {"one_to_all_write_ce",
       "Total copy engine bandwidth out of each GPU while it writes to all its peers at once.\n"
       "Each copy is issued by the writing GPU.",
       peers, with(plans::oneToAllWrite, kCe)},
      {"one_to_all_read_ce",
       "Total copy engine bandwidth into each GPU while it reads from all its peers at once.\n"
       "Each copy is issued by the reading GPU.",
       peers, with(plans::oneToAllRead, kCe)},
      {"host_to_device_memcpy_sm",
       "Copy kernel (SM) bandwidth from pinned host memory to each GPU.",
       {},
       with(plans::hostToDevice, kSm)},
      {"device_to_host_memcpy_sm",
       "Copy kernel (SM) bandwidth from each GPU to pinned host memory.",
       {},
       with(plans::deviceToHost, kSm)},
      {"host_to_device_bidirectional_memcpy_sm",
       "Copy kernel bandwidth between host and GPU in both directions at once (alternate warps\n"
       "copy opposite ways); half of the bytes moved per second is reported.",
       {},
       plans::hostDeviceBidirectionalSm},
      {"device_to_host_bidirectional_memcpy_sm",
       "Copy kernel bandwidth between host and GPU in both directions at once (alternate warps\n"
       "copy opposite ways); half of the bytes moved per second is reported. Upstream measures\n"
       "exactly the same as host_to_device_bidirectional_memcpy_sm here.",
       {},
       plans::hostDeviceBidirectionalSm},
      {"device_to_device_memcpy_read_sm",
       "Copy kernel bandwidth between every pair of GPUs with peer access.\n"
       "Read: the kernel runs on the row GPU and pulls from the column GPU.",
       peers, with(plans::deviceToDeviceRead, kSm)},
      {"device_to_device_memcpy_write_sm",
       "Copy kernel bandwidth between every pair of GPUs with peer access.\n"
       "Write: the kernel runs on the row GPU and pushes to the column GPU.",
       peers, with(plans::deviceToDeviceWrite, kSm)},
      {"device_to_device_bidirectional_memcpy_read_sm",
       "Copy kernel bandwidth between every pair of GPUs with peer access, both directions at\n"
       "once; each direction and their sum are reported. Read: each GPU pulls.",
       peers, with(plans::deviceToDeviceBidirectionalRead, kSm)},
      {"device_to_device_bidirectional_memcpy_write_sm",
       "Copy kernel bandwidth between every pair of GPUs with peer access, both directions at\n"
       "once; each direction and their sum are reported. Write: each GPU pushes.",
       peers, with(plans::deviceToDeviceBidirectionalWrite, kSm)},
      {"all_to_host_memcpy_sm",
       "GPU-to-host copy kernel bandwidth of one GPU while every other GPU also copies to the "
       "host.",
       {},
       with(plans::allToHost, kSm)},
      {"all_to_host_bidirectional_memcpy_sm",
       "Bidirectional (split-warp) host copy kernel bandwidth of one GPU while every other GPU "
       "runs\n"
       "the same bidirectional traffic with the host. Only the measured GPU is reported.",
       {},
       plans::allToHostBidirectionalSm},
      {"host_to_all_memcpy_sm",
       "Host-to-GPU copy kernel bandwidth of one GPU while the host also copies to every other "
       "GPU.",
       {},
       with(plans::hostToAll, kSm)},
      {"host_to_all_bidirectional_memcpy_sm",
       "Bidirectional (split-warp) host copy kernel bandwidth of one GPU while every other GPU "
       "runs\n"
       "the same bidirectional traffic with the host. Only the measured GPU is reported.",
       {},
       plans::hostToAllBidirectionalSm},
      {"all_to_one_write_sm",
       "Total copy kernel bandwidth into each GPU while all its peers write to it at once.", peers,
       with(plans::allToOneWrite, kSm)},
      {"all_to_one_read_sm",
       "Total copy kernel bandwidth out of each GPU to all its peers at once. As upstream, the\n"
       "kernels run on the GPU that owns the source, so this pushes rather than pulls.",
       peers, with(plans::allToOneRead, kSm)},
      {"one_to_all_write_sm",
       "Total copy kernel bandwidth out of each GPU while it writes to all its peers at once.",
       peers, with(plans::oneToAllWrite, kSm)},
      {"one_to_all_read_sm",
       "Total copy kernel bandwidth into each GPU from all its peers at once. As upstream, the\n"
       "kernels run on the peers that own the sources, so this pushes rather than pulls.",
       peers, with(plans::oneToAllRead, kSm)},
      {"host_device_latency_sm",
       "Latency of a GPU reading pinned host memory: a pointer chase through a 2 MiB host buffer\n"
       "with a 128-byte stride. --bufferSize does not apply.",
       {},
       plans::hostDeviceLatencySm},
      {"device_to_device_latency_sm",
       "Latency of a GPU reading a peer GPU's memory: a pointer chase through a 2 MiB buffer on\n"
       "the column GPU, run by the row GPU. --bufferSize does not apply.",
       peers, plans::deviceToDeviceLatencySm},
      {"device_local_copy",
       "Copy engine (cuMemcpyAsync) bandwidth between two buffers in the same GPU's memory.",
       {},
       plans::deviceLocalCopy},
  };
}

}  // namespace nvbw
