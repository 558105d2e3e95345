// The plans of the 13 multi-process testcases on faked worlds of 2, 4 and 8 ranks: who executes
// which copy, which cell each value lands in, bisect pairs and labels, titles and waivers.
#include <gtest/gtest.h>

#include "fake_topology.h"
#include "plan_text.h"
#include "plans/testcases.h"
#include "upstream_keys.h"

namespace nvbw {
namespace test_testcases_multinode {

using test::describe;
using test::kBytes;
using test::planFor;

FakeTopology world(int ranks) {
  FakeTopology topo(1);  // each rank sees its own GPU
  topo.setProcessFacts({ranks, std::nullopt, std::nullopt});
  return topo;
}

std::vector<std::string> titlesOf(const Plan& plan) {
  std::vector<std::string> titles;
  for (const MatrixSpec& m : plan.matrices) titles.push_back(m.title);
  return titles;
}

TEST(MultinodeRegistry, KeysFollowTheSingleNodeOnesAtTheirUpstreamIndices) {
  const auto multinode = makeRegistry(RegistryScope::WithMultinode);
  const auto single = makeRegistry(RegistryScope::SingleNode);
  ASSERT_EQ(multinode.size(), single.size() + test::kUpstreamMultinodeKeys.size());
  // An index names the same testcase in both builds; the multinode group fills 35-47.
  for (const TestcaseDef& def : single) {
    ASSERT_LT(def.index, multinode.size());
    EXPECT_EQ(multinode[def.index].key, def.key) << def.index;
    EXPECT_EQ(multinode[def.index].index, def.index);
  }
  for (std::size_t i = 0; i < test::kUpstreamMultinodeKeys.size(); ++i)
    EXPECT_EQ(multinode[35 + i].key, test::kUpstreamMultinodeKeys[i]) << 35 + i;
  for (std::size_t i = 0; i < test::kV010Keys.size(); ++i)
    EXPECT_EQ(multinode[test::kFirstV010Index + i].key, test::kV010Keys[i]);
}

TEST(MultinodePlans, EveryPlanIsMultiProcess) {
  for (std::size_t i = 35; i < 48; ++i) {
    const TestcaseDef& def = test::multinodeRegistry()[i];
    const Plan plan = def.plan(PlanContext{world(4), kBytes});
    EXPECT_TRUE(plan.multiProcess) << def.key;
    EXPECT_FALSE(plan.measurements.empty()) << def.key;
  }
}

TEST(MultinodePlans, ReadIsIssuedByTheRowRankFromTheColumnRanksMemory) {
  const Plan plan = planFor("multinode_device_to_device_memcpy_read_ce", world(2));
  EXPECT_EQ(describe(plan),
            (std::vector<std::string>{"unicast1[S] -> unicast0[S] CE on 0 | m0[0][1]=copy0",
                                      "unicast0[S] -> unicast1[S] CE on 1 | m0[1][0]=copy0"}));
  EXPECT_EQ(titlesOf(plan),
            std::vector<std::string>{"memcpy CE GPU(row) -> GPU(column) bandwidth (GB/s)"});
  // Upstream titles the SM read "CE" too.
  EXPECT_EQ(titlesOf(planFor("multinode_device_to_device_memcpy_read_sm", world(2))),
            std::vector<std::string>{"memcpy CE GPU(row) -> GPU(column) bandwidth (GB/s)"});
  EXPECT_EQ(describe(planFor("multinode_device_to_device_memcpy_read_sm", world(2)))[0],
            "unicast1[S] -> unicast0[S] SM on 0 | m0[0][1]=copy0");
}

TEST(MultinodePlans, WriteIsIssuedByTheRowRankIntoTheColumnRanksMemory) {
  const Plan plan = planFor("multinode_device_to_device_memcpy_write_sm", world(4));
  ASSERT_EQ(plan.measurements.size(), 12u);
  EXPECT_EQ(describe(plan.measurements[0]), "unicast0[S] -> unicast1[S] SM on 0 | m0[0][1]=copy0");
  EXPECT_EQ(describe(plan.measurements[11]), "unicast3[S] -> unicast2[S] SM on 3 | m0[3][2]=copy0");
  EXPECT_EQ(titlesOf(plan),
            std::vector<std::string>{"memcpy SM GPU(row) <- GPU(column) bandwidth (GB/s)"});
}

TEST(MultinodePlans, BidirectionalReadHasEachRankReading) {
  const Plan plan = planFor("multinode_device_to_device_bidirectional_memcpy_read_ce", world(2));
  EXPECT_EQ(describe(plan.measurements[0]),
            "unicast1[S] -> unicast0[S] CE on 0, unicast0[S] -> unicast1[S] CE on 1 | "
            "m0[0][1]=copy0 m1[0][1]=copy1 m2[0][1]=sum");
  EXPECT_EQ(titlesOf(plan), (std::vector<std::string>{
                                "memcpy CE CPU(row) <-> GPU(column) Read1 bandwidth (GB/s)",
                                "memcpy CE CPU(row) <-> GPU(column) Read2 bandwidth (GB/s)",
                                "memcpy CE CPU(row) <-> GPU(column) Total bandwidth (GB/s)"}));
  EXPECT_EQ(plan.matrices[0].key, "_read1");
  EXPECT_EQ(plan.matrices[2].key, "_total");
}

TEST(MultinodePlans, BidirectionalWriteHasEachRankWritingCopyZeroFlowingRowToColumn) {
  const Plan ce = planFor("multinode_device_to_device_bidirectional_memcpy_write_ce", world(2));
  EXPECT_EQ(describe(ce.measurements[0]),
            "unicast0[S] -> unicast1[S] CE on 0, unicast1[S] -> unicast0[S] CE on 1 | "
            "m0[0][1]=copy0 m1[0][1]=copy1 m2[0][1]=sum");
  EXPECT_EQ(ce.matrices[0].key, "_write1");
  // Upstream's quirks, kept: the CE variant's titles say Read, the SM variant's Write.
  EXPECT_EQ(ce.matrices[0].title, "memcpy CE CPU(row) <-> GPU(column) Read1 bandwidth (GB/s)");
  const Plan sm = planFor("multinode_device_to_device_bidirectional_memcpy_write_sm", world(2));
  EXPECT_EQ(sm.matrices[1].title, "memcpy SM CPU(row) <-> GPU(column) Write2 bandwidth (GB/s)");
}

TEST(MultinodePlans, AllToOneWriteHasEveryOtherRankWritingIntoOne) {
  const Plan plan = planFor("multinode_device_to_device_all_to_one_write_sm", world(4));
  ASSERT_EQ(plan.measurements.size(), 4u);
  EXPECT_EQ(describe(plan.measurements[2]),
            "local0[S] -> unicast2[S] SM on 0, local1[S] -> unicast2[S] SM on 1, "
            "local3[S] -> unicast2[S] SM on 3 | m0[0][2]=sum");
  EXPECT_EQ(plan.matrices[0].cols, 4u);
  EXPECT_EQ(plan.matrices[0].title, "memcpy SM All Gpus -> GPU(column) total bandwidth (GB/s)");
}

TEST(MultinodePlans, AllFromOneReadHasEveryOtherRankReadingOne) {
  const Plan plan = planFor("multinode_device_to_device_all_from_one_read_sm", world(4));
  EXPECT_EQ(describe(plan.measurements[1]),
            "unicast1[S] -> local0[S] SM on 0, unicast1[S] -> local2[S] SM on 2, "
            "unicast1[S] -> local3[S] SM on 3 | m0[0][1]=sum");
  EXPECT_EQ(plan.matrices[0].title, "memcpy SM All Gpus <- GPU(column) total bandwidth (GB/s)");
}

TEST(MultinodePlans, BroadcastsWriteMulticastObjects) {
  const Plan one = planFor("multinode_device_to_device_broadcast_one_to_all_sm", world(2));
  EXPECT_EQ(describe(one),
            (std::vector<std::string>{"local0[S] -> mcast0[S] SM-multicast on 0 | m0[0][0]=sum",
                                      "local1[S] -> mcast1[S] SM-multicast on 1 | m0[0][1]=sum"}));
  const Plan all = planFor("multinode_device_to_device_broadcast_all_to_all_sm", world(4));
  ASSERT_EQ(all.measurements.size(), 1u);
  EXPECT_EQ(all.measurements[0].copies.size(), 4u);
  EXPECT_EQ(all.matrices[0].rows * all.matrices[0].cols, 1u);
  EXPECT_EQ(all.matrices[0].title, "multicast SM All -> All Gpus total bandwidth (GB/s)");
}

TEST(MultinodePlans, BisectPairsEachRankWithTheOneHalfTheWorldAway) {
  const Plan plan = planFor("multinode_bisect_write_ce", world(4));
  ASSERT_EQ(plan.measurements.size(), 1u);
  EXPECT_EQ(describe(plan.measurements[0]),
            "unicast2[S] -> unicast0[S] CE on 2, unicast3[S] -> unicast1[S] CE on 3, "
            "unicast0[S] -> unicast2[S] CE on 0, unicast1[S] -> unicast3[S] CE on 1 | "
            "m0[0][0]=copy0 m0[1][0]=copy1 m0[2][0]=copy2 m0[3][0]=copy3");
  // The data flows from the peer into rank i: the label says "peer->i" (upstream: "i->peer").
  EXPECT_EQ(plan.matrices[0].rowLabels, (std::vector<std::string>{"2->0", "3->1", "0->2", "1->3"}));
  EXPECT_EQ(plan.matrices[0].rows, 4u);
  EXPECT_EQ(plan.matrices[0].cols, 1u);
  EXPECT_EQ(plan.matrices[0].title, "Bisect benchmarking, simultaneous write CE BW");
}

TEST(MultinodePlans, BisectLabelsArePaddedToTheLargestRank) {
  EXPECT_EQ(plans::bisectLabel(8, 0, 16), " 8-> 0");
  EXPECT_EQ(plans::bisectLabel(12, 4, 16), "12-> 4");
  const Plan eight = planFor("multinode_bisect_write_ce", world(8));
  EXPECT_EQ(eight.matrices[0].rowLabels[0], "4->0");
  EXPECT_EQ(eight.measurements[0].copies.size(), 8u);
}

TEST(MultinodePlans, EightRanksHaveEveryOrderedPair) {
  for (const char* key : {"multinode_device_to_device_memcpy_read_ce",
                          "multinode_device_to_device_bidirectional_memcpy_write_sm"}) {
    const Plan plan = planFor(key, world(8));
    EXPECT_EQ(plan.measurements.size(), 56u) << key;
    for (const Measurement& m : plan.measurements)
      for (const OutputTarget& t : m.outputs) EXPECT_NE(t.row, t.col) << key;
  }
}

TEST(MultinodeWaivers, OneProcessWaivesWithTheLaunchHint) {
  FakeTopology alone(2);
  for (std::size_t i = 35; i < 48; ++i) {
    const auto reason = waiveReasonFor(test::multinodeRegistry()[i], alone);
    ASSERT_TRUE(reason.has_value()) << test::multinodeRegistry()[i].key;
    EXPECT_NE(reason->find("at least 2 processes"), std::string::npos) << *reason;
    EXPECT_NE(reason->find("mpirun"), std::string::npos) << *reason;
  }
}

TEST(MultinodeWaivers, WithoutSharedMemoryEveryMultiProcessTestcaseSaysWhy) {
  FakeTopology topo(1);
  topo.setProcessFacts(
      {2, std::string("no IMEX channel and the ranks are on 2 hosts"), std::nullopt});
  for (std::size_t i = 35; i < 48; ++i) {
    const auto reason = waiveReasonFor(test::multinodeRegistry()[i], topo);
    ASSERT_TRUE(reason.has_value());
    EXPECT_NE(reason->find("no IMEX channel and the ranks are on 2 hosts"), std::string::npos);
  }
}

TEST(MultinodeWaivers, OnlyTheBroadcastsNeedMulticast) {
  FakeTopology topo(1);
  topo.setProcessFacts(
      {2, std::nullopt, std::string("disabled by NVBANDWIDTH_DISABLE_MULTICAST=1")});
  for (std::size_t i = 35; i < 48; ++i) {
    const TestcaseDef& def = test::multinodeRegistry()[i];
    const bool broadcast = i == 45 || i == 46;
    const auto reason = waiveReasonFor(def, topo);
    EXPECT_EQ(reason.has_value(), broadcast) << def.key;
    if (reason) {
      EXPECT_NE(reason->find("NVBANDWIDTH_DISABLE_MULTICAST"), std::string::npos);
    }
  }
}

}  // namespace test_testcases_multinode
}  // namespace nvbw
