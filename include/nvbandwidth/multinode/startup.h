// The collective start-up of a multi-process run over any Communicator: which GPU each rank
// takes, and how the ranks share memory. The multinode build runs it over MPI on real GPUs;
// tests run it over MPI on faked GPUs and probes. Every rank takes the same path and fails alike.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "multinode/process_layout.h"
#include "platform/communicator.h"
#include "platform/system_facts.h"
#include "platform/topology.h"

namespace nvbw {

// Throws StartupError with the first failing rank's message on every rank when any rank failed.
void startupStep(Communicator& comm, const std::optional<std::string>& mine);

// This rank's GPUs, as its driver sees them.
struct LocalGpus {
  std::string host;
  std::vector<DeviceInfo> devices;
  int logicalGpus = 0;  // the devices are this many logical GPUs of one (platform/logical_gpus.h)
};

struct GpuAssignment {
  int device = 0;                      // this rank's GPU, among the ones it sees
  std::vector<ProcessInfo> processes;  // every rank's, in rank order
};

// Node-local rank modulo the visible GPUs (chosenDevices); throws StartupError on every rank when
// two ranks would share a GPU (sharedGpuProblem).
GpuAssignment assignGpus(Communicator& comm, const LocalGpus& mine);

// How this rank tries each way of sharing memory (a small real allocation and export), and what
// it knows about multicast.
struct SharingProbes {
  std::function<std::optional<std::string>(MemorySharing)> tryExport;  // the error, if any
  std::function<bool()> multicastSupported;                            // the device attribute
  bool multicastDisabled = false;  // NVBANDWIDTH_DISABLE_MULTICAST=1 on this rank
  bool logicalGpus = false;        // this rank's GPUs are logical: multicast is never tried
};

struct StartupDecision {
  MemorySharing sharing = MemorySharing::None;
  ProcessFacts facts;
  std::string description;  // for the header
};

// decideSharing and multicastProblem over every rank's probes and facts (the multicast attribute
// is not even read when a rank disables multicast or has logical GPUs).
StartupDecision decideStartup(Communicator& comm, const std::vector<ProcessInfo>& processes,
                              const SharingProbes& probes);

}  // namespace nvbw
