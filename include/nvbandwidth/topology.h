// The driver seam: the queries that decide *what* runs. The real implementation asks the CUDA
// driver (DriverTopology in gpu.h); tests use FakeTopology to model 0, 1, 2 or 8 GPUs.
#pragma once

#include <string>
#include <vector>

namespace nvbw {

class Topology {
 public:
  virtual ~Topology() = default;
  virtual int deviceCount() const = 0;
  // cuDeviceCanAccessPeer(device, peer): `device` can map and access `peer`'s memory.
  virtual bool canAccessPeer(int device, int peer) const = 0;
  virtual int smCount(int device) const = 0;
};

// A topology described by hand. Peer access defaults to all pairs (i != j).
class FakeTopology final : public Topology {
 public:
  explicit FakeTopology(int devices, int smCount = 132);
  void setPeerAccess(int device, int peer, bool allowed);
  int deviceCount() const override { return devices_; }
  bool canAccessPeer(int device, int peer) const override;
  int smCount(int device) const override;
  void setSmCount(int device, int sms);

 private:
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
