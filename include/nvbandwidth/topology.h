// The driver seam: the queries that decide *what* runs. The real implementation asks the CUDA
// driver (DriverTopology in gpu.h); tests use FakeTopology to model 0, 1, 2 or 8 GPUs.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "nvbandwidth/link_facts.h"

namespace nvbw {

// What the processes of a run can do together. A single-process run has one process and shares
// nothing; the multinode build fills this in from its start-up checks.
struct WorldFacts {
  int processes = 1;
  // Why GPU memory cannot be shared between the processes; nullopt when it can.
  std::optional<std::string> sharingProblem = std::string("this run has one process");
  // Why multicast objects cannot be used; nullopt when they can.
  std::optional<std::string> multicastProblem = std::string("this run has one process");
};

class Topology {
 public:
  virtual ~Topology() = default;
  // The processes of the run (multi-process testcases).
  virtual const WorldFacts& world() const;
  // Compute capability as 10 * major + minor (90 for Hopper).
  virtual int computeCapability(int device) const = 0;
  // Whether the system runs in confidential-computing mode (host traffic through encrypted
  // bounce buffers).
  virtual bool confidentialComputing() const = 0;
  virtual int deviceCount() const = 0;
  // cuDeviceCanAccessPeer(device, peer): `device` can map and access `peer`'s memory.
  virtual bool canAccessPeer(int device, int peer) const = 0;
  virtual int smCount(int device) const = 0;
  // What the machine says about the device's PCIe link, NVLinks and memory (link_facts.h);
  // by default nothing is known, and every peak is "unknown".
  virtual const GpuLinkFacts& linkFacts(int device) const;
};

// A topology described by hand. Peer access defaults to all pairs (i != j), compute capability
// to 9.0, confidential computing to off.
class FakeTopology final : public Topology {
 public:
  explicit FakeTopology(int devices, int smCount = 132);
  void setPeerAccess(int device, int peer, bool allowed);
  int deviceCount() const override { return devices_; }
  bool canAccessPeer(int device, int peer) const override;
  int smCount(int device) const override;
  void setSmCount(int device, int sms);
  const WorldFacts& world() const override { return world_; }
  void setWorld(WorldFacts world) { world_ = std::move(world); }
  int computeCapability(int device) const override;
  void setComputeCapability(int device, int capability);
  bool confidentialComputing() const override { return confidential_; }
  void setConfidentialComputing(bool on) { confidential_ = on; }
  const GpuLinkFacts& linkFacts(int device) const override { return links_.at(device); }
  void setLinkFacts(int device, GpuLinkFacts facts) { links_.at(device) = std::move(facts); }

 private:
  WorldFacts world_;
  std::vector<GpuLinkFacts> links_;
  bool confidential_ = false;
  std::vector<int> capabilities_;
  int devices_;
  std::vector<std::vector<bool>> access_;
  std::vector<int> sms_;
};

// Pairs (r, c), r != c, for which r can access c.
std::vector<std::pair<int, int>> accessiblePairs(const Topology& topo);

// One line naming the GPU pairs without peer access both ways, for systems where some pairs have
// it (their device-to-device cells are N/A); empty when every pair has access or none has (the
// testcases are then waived with their own reason).
std::string peerAccessNote(const Topology& topo);

}  // namespace nvbw
