// A topology described by hand, for tests: 0, 1, 2 or 8 GPUs without hardware.
#pragma once

#include <vector>

#include "platform/topology.h"

namespace nvbw {

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
  const ProcessFacts& processFacts() const override { return processFacts_; }
  void setProcessFacts(ProcessFacts facts) { processFacts_ = std::move(facts); }
  int computeCapability(int device) const override;
  void setComputeCapability(int device, int capability);
  bool confidentialComputing() const override { return confidential_; }
  void setConfidentialComputing(bool on) { confidential_ = on; }
  const GpuLinkFacts& linkFacts(int device) const override { return links_.at(device); }
  void setLinkFacts(int device, GpuLinkFacts facts) { links_.at(device) = std::move(facts); }

 private:
  ProcessFacts processFacts_;
  std::vector<GpuLinkFacts> links_;
  bool confidential_ = false;
  std::vector<int> capabilities_;
  int devices_;
  std::vector<std::vector<bool>> access_;
  std::vector<int> sms_;
};

}  // namespace nvbw
