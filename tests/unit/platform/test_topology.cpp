// FakeTopology, accessiblePairs and the note that explains N/A device-to-device cells.
#include <gtest/gtest.h>

#include "fake_topology.h"
#include "plans/registry.h"
#include "platform/topology.h"

namespace nvbw {
namespace test_topology {

TEST(FakeTopology, AllPairsButTheDiagonalByDefault) {
  FakeTopology topo(3);
  EXPECT_FALSE(topo.canAccessPeer(1, 1));
  EXPECT_TRUE(topo.canAccessPeer(0, 2));
  EXPECT_EQ(accessiblePairs(topo).size(), 6u);
}

TEST(PeerAccessNote, SilentWhenFullyConnected) { EXPECT_EQ(peerAccessNote(FakeTopology(8)), ""); }

TEST(PeerAccessNote, SilentWithOneGpuOrNoAccessAtAll) {
  EXPECT_EQ(peerAccessNote(FakeTopology(1)), "");
  FakeTopology none(2);
  none.setPeerAccess(0, 1, false);
  none.setPeerAccess(1, 0, false);
  EXPECT_EQ(peerAccessNote(none), "");  // every D2D testcase is waived with its own reason
}

TEST(PeerAccessNote, NamesEachPairLackingAccessEitherWay) {
  FakeTopology topo(4);
  topo.setPeerAccess(1, 2, false);
  topo.setPeerAccess(2, 1, false);
  topo.setPeerAccess(0, 3, false);  // one way only: still cannot be measured
  EXPECT_EQ(peerAccessNote(topo),
            "NOTE: no peer access between GPU 0 and 3, 1 and 2 (cuDeviceCanAccessPeer, both ways "
            "needed): their device-to-device cells are N/A.");
}

// What nvidia-h200-x2 reported (nvidia-smi topo -m: NV18; cuDeviceCanAccessPeer both ways, 132
// SMs each): every device-to-device testcase runs and no N/A note is needed.
TEST(ObservedTopology, H200PairOverNvlinkRunsEveryTestcase) {
  FakeTopology x2(2, 132);
  EXPECT_EQ(accessiblePairs(x2), (std::vector<std::pair<int, int>>{{0, 1}, {1, 0}}));
  EXPECT_EQ(peerAccessNote(x2), "");
  for (const TestcaseDef& def : makeRegistry())
    EXPECT_EQ(waiveReasonFor(def, x2), std::nullopt) << def.key;
}

}  // namespace test_topology
}  // namespace nvbw
