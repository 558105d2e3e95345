#include "fake_topology.h"

namespace nvbw {

FakeTopology::FakeTopology(int devices, int smCount)
    : links_(devices), capabilities_(devices, 90), devices_(devices),
      access_(devices, std::vector<bool>(devices, true)), sms_(devices, smCount) {
  for (int i = 0; i < devices; ++i) access_[i][i] = false;
}

void FakeTopology::setPeerAccess(int device, int peer, bool allowed) {
  access_.at(device).at(peer) = allowed;
}

bool FakeTopology::canAccessPeer(int device, int peer) const {
  if (device == peer) return false;
  return access_.at(device).at(peer);
}

int FakeTopology::smCount(int device) const { return sms_.at(device); }

void FakeTopology::setSmCount(int device, int sms) { sms_.at(device) = sms; }

int FakeTopology::computeCapability(int device) const { return capabilities_.at(device); }

void FakeTopology::setComputeCapability(int device, int capability) {
  capabilities_.at(device) = capability;
}

}  // namespace nvbw
