// The waive checks the testcase families share: each returns the reason a testcase cannot run on
// a topology, or nullopt when it can.
#pragma once

#include <optional>
#include <string>

#include "platform/topology.h"

namespace nvbw {

// Every device-to-device testcase needs a pair of GPUs that can access each other both ways.
std::optional<std::string> needsPeerPairs(const Topology& topo);

// The TMA testcases need compute capability 9.0 on every GPU.
std::optional<std::string> needsTma(const Topology& topo);

// Confidential computing sends host traffic through encrypted bounce buffers, where a host copy
// blocks its thread until its stream is idle and a kernel reads wrong data across the bus. Copy-
// engine copies with the host both ways at once are waived there, as upstream v0.10 waives them
// (with its reason, verbatim: Google's CI for a confidential VM asserts it); copy kernels that
// read or write host memory are waived too.
std::optional<std::string> bothWaysCeNotUnderConfidentialComputing(const Topology& topo);
std::optional<std::string> hostKernelsNotUnderConfidentialComputing(const Topology& topo);

// Latency under confidential computing measures the encrypted bounce buffers, not memory.
std::optional<std::string> notUnderConfidentialComputing(const Topology& topo);

// The multi-process testcases need at least two processes that can share memory; the broadcast
// testcases also need multicast.
std::optional<std::string> needsSharedMemory(const Topology& topo);
std::optional<std::string> needsMulticast(const Topology& topo);

}  // namespace nvbw
