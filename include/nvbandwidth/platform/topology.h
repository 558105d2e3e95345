// The driver seam: the queries that decide *what* runs. The real implementation asks the CUDA
// driver (DriverTopology in driver_topology.h); tests model 0, 1, 2 or 8 GPUs with FakeTopology
// (tests/support/fake_topology.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "platform/link_facts.h"

namespace nvbw {

// What the processes of a run can do together. A single-process run has one process and shares
// nothing; the multinode build fills this in from its start-up checks.
struct ProcessFacts {
  int processes = 1;
  // Why GPU memory cannot be shared between the processes; nullopt when it can.
  std::optional<std::string> sharingProblem = std::string("this run has one process");
  // Why multicast objects cannot be used; nullopt when they can.
  std::optional<std::string> multicastProblem = std::string("this run has one process");
};

class Topology {
 public:
  virtual ~Topology() = default;
  virtual const ProcessFacts& processFacts() const;
  // Compute capability as 10 * major + minor (90 for Hopper).
  virtual int computeCapability(int device) const = 0;
  // Confidential-computing mode: host traffic goes through encrypted bounce buffers.
  virtual bool confidentialComputing() const = 0;
  virtual int deviceCount() const = 0;
  // cuDeviceCanAccessPeer(device, peer): `device` can map and access `peer`'s memory.
  virtual bool canAccessPeer(int device, int peer) const = 0;
  virtual int smCount(int device) const = 0;
  // What the machine says about the device's PCIe link, NVLinks and memory (link_facts.h);
  // by default nothing is known, and every peak is "unknown".
  virtual const GpuLinkFacts& linkFacts(int device) const;
  // Whether the peer traffic between two GPUs goes over NVLink, as the driver's P2P attributes
  // say (native atomics are supported over NVLink only); nullopt when not known.
  virtual std::optional<bool> peerOverNvlink(int device, int peer) const;
};

// Pairs (r, c), r != c, for which r can access c.
std::vector<std::pair<int, int>> accessiblePairs(const Topology& topo);

// One line naming the GPU pairs without peer access both ways, for systems where some pairs have
// it (their device-to-device cells are N/A); empty when every pair has access or none has (the
// testcases are then waived with their own reason).
std::string peerAccessNote(const Topology& topo);

}  // namespace nvbw
