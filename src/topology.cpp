#include "nvbandwidth/topology.h"

#include <stdexcept>
#include <string>

namespace nvbw {

const WorldFacts& Topology::world() const {
  static const WorldFacts alone;
  return alone;
}

const GpuLinkFacts& Topology::linkFacts(int) const {
  static const GpuLinkFacts unknown;
  return unknown;
}

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

std::vector<std::pair<int, int>> accessiblePairs(const Topology& topo) {
  std::vector<std::pair<int, int>> pairs;
  for (int r = 0; r < topo.deviceCount(); ++r)
    for (int c = 0; c < topo.deviceCount(); ++c)
      if (r != c && topo.canAccessPeer(r, c)) pairs.emplace_back(r, c);
  return pairs;
}

std::string peerAccessNote(const Topology& topo) {
  std::vector<std::pair<int, int>> missing;
  bool anyConnected = false;
  for (int a = 0; a < topo.deviceCount(); ++a)
    for (int b = a + 1; b < topo.deviceCount(); ++b) {
      if (topo.canAccessPeer(a, b) && topo.canAccessPeer(b, a))
        anyConnected = true;
      else
        missing.emplace_back(a, b);
    }
  if (!anyConnected || missing.empty()) return "";
  std::string note = "NOTE: no peer access between GPU";
  for (std::size_t i = 0; i < missing.size(); ++i)
    note += (i ? ", " : " ") + std::to_string(missing[i].first) + " and " +
            std::to_string(missing[i].second);
  return note + " (cuDeviceCanAccessPeer, both ways needed): their device-to-device cells are N/A.";
}

}  // namespace nvbw
