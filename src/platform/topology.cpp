#include "platform/topology.h"

#include <string>

#include "core/text.h"

namespace nvbw {

const ProcessFacts& Topology::processFacts() const {
  static const ProcessFacts alone;
  return alone;
}

const GpuLinkFacts& Topology::linkFacts(int) const {
  static const GpuLinkFacts unknown;
  return unknown;
}

std::optional<bool> Topology::peerOverNvlink(int, int) const { return std::nullopt; }

std::vector<std::pair<int, int>> accessiblePairs(const Topology& topo) {
  std::vector<std::pair<int, int>> pairs;
  for (int r = 0; r < topo.deviceCount(); ++r)
    for (int c = 0; c < topo.deviceCount(); ++c)
      if (r != c && topo.canAccessPeer(r, c)) pairs.emplace_back(r, c);
  return pairs;
}

std::string peerAccessNote(const Topology& topo) {
  std::vector<std::string> missing;
  bool anyConnected = false;
  for (int a = 0; a < topo.deviceCount(); ++a)
    for (int b = a + 1; b < topo.deviceCount(); ++b) {
      if (topo.canAccessPeer(a, b) && topo.canAccessPeer(b, a))
        anyConnected = true;
      else
        missing.push_back(std::to_string(a) + " and " + std::to_string(b));
    }
  if (!anyConnected || missing.empty()) return "";
  return "NOTE: no peer access between GPU " + joined(missing, ", ") +
         " (cuDeviceCanAccessPeer, both ways needed): their device-to-device cells are N/A.";
}

}  // namespace nvbw
