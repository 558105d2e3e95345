// Pairs in rounds (plans/schedule.h): the round-robin covers every ordered pair of 2 to 72 GPUs
// exactly once with no GPU in two pairs of a round, in the fewest rounds; the plans of the pair
// testcases, with every pair, --pair or -P, keep every measurement in exactly one round of
// disjoint GPUs; and the topology decides where rounds may run.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "fake_platform.h"
#include "fake_topology.h"
#include "plan_text.h"
#include "plans/plan.h"
#include "plans/schedule.h"

namespace nvbw {
namespace test_schedule {

// ---- The round-robin ----------------------------------------------------------------------------

class RoundRobin : public ::testing::TestWithParam<int> {};

TEST_P(RoundRobin, CoversEveryOrderedPairOnceWithNoGpuTwiceInARound) {
  const int n = GetParam();
  const std::vector<std::vector<GpuPair>> rounds = roundRobinRounds(n);
  std::map<GpuPair, int> seen;
  for (std::size_t r = 0; r < rounds.size(); ++r) {
    std::set<int> busy;
    for (const GpuPair& p : rounds[r]) {
      ASSERT_NE(p.first, p.second);
      ASSERT_GE(p.first, 0);
      ASSERT_LT(p.second, n);
      ASSERT_LT(p.first, n);
      EXPECT_TRUE(busy.insert(p.first).second) << "GPU " << p.first << " twice in round " << r;
      EXPECT_TRUE(busy.insert(p.second).second) << "GPU " << p.second << " twice in round " << r;
      ++seen[p];
    }
  }
  EXPECT_EQ(seen.size(), static_cast<std::size_t>(n * (n - 1)));
  for (const auto& [pair, times] : seen) EXPECT_EQ(times, 1) << pair.first << "->" << pair.second;
}

TEST_P(RoundRobin, TakesTheFewestRoundsPossible) {
  // Each GPU takes part in 2(n - 1) ordered pairs, at most one a round; with n odd a round holds
  // at most (n - 1) / 2 pairs, so n(n - 1) pairs need 2n rounds.
  const int n = GetParam();
  const std::vector<std::vector<GpuPair>> rounds = roundRobinRounds(n);
  const std::size_t expected = n % 2 == 0 ? 2 * (n - 1) : 2 * n;
  EXPECT_EQ(rounds.size(), expected);
  for (const std::vector<GpuPair>& r : rounds) EXPECT_EQ(r.size(), static_cast<std::size_t>(n / 2));
}

INSTANTIATE_TEST_SUITE_P(TwoToSeventyTwoGpus, RoundRobin, ::testing::Range(2, 73));

TEST(RoundRobinEdges, FewerThanTwoGpusHaveNoRounds) {
  EXPECT_TRUE(roundRobinRounds(0).empty());
  EXPECT_TRUE(roundRobinRounds(1).empty());
}

TEST(RoundRobinEdges, SeventyTwoGpusIn142RoundsOf36) {
  const std::vector<std::vector<GpuPair>> rounds = roundRobinRounds(72);
  EXPECT_EQ(rounds.size(), 142u);
  EXPECT_EQ(rounds.front().size(), 36u);
}

// ---- Plans in rounds ----------------------------------------------------------------------------

// Every measurement in exactly one round, and no GPU (or host memory) used twice in a round.
void expectDisjointRounds(const Plan& plan) {
  ASSERT_EQ(plan.schedule, PairSchedule::Rounds);
  std::vector<int> times(plan.measurements.size(), 0);
  for (std::size_t r = 0; r < plan.rounds.size(); ++r) {
    std::set<int> busy;
    for (std::size_t i : plan.rounds[r]) {
      ASSERT_LT(i, plan.measurements.size());
      ++times[i];
      for (int resource : resourcesOf(plan.measurements[i]))
        EXPECT_TRUE(busy.insert(resource).second)
            << "resource " << resource << " twice in round " << r;
    }
  }
  for (std::size_t i = 0; i < times.size(); ++i) EXPECT_EQ(times[i], 1) << "measurement " << i;
}

Plan planInRounds(const std::string& key, const Topology& topo, PairRule pairs = {}) {
  ScheduleRule rule;
  rule.devices = PairSchedule::Rounds;
  rule.ranks = PairSchedule::Rounds;
  return test::def(key).plan(PlanContext{topo, test::kBytes, pairs, rule});
}

const char* const kPairKeys[] = {
    "device_to_device_memcpy_read_ce",
    "device_to_device_memcpy_write_ce",
    "device_to_device_bidirectional_memcpy_read_ce",
    "device_to_device_bidirectional_memcpy_write_ce",
    "device_to_device_memcpy_read_sm",
    "device_to_device_memcpy_write_sm",
    "device_to_device_bidirectional_memcpy_read_sm",
    "device_to_device_bidirectional_memcpy_write_sm",
    "device_to_device_latency_sm",
};

class PairPlans : public ::testing::TestWithParam<int> {};

TEST_P(PairPlans, EveryPairOnceInDisjointRounds) {
  const int n = GetParam();
  const FakeTopology topo(n);
  for (const char* key : kPairKeys) {
    SCOPED_TRACE(key);
    const Plan plan = planInRounds(key, topo);
    EXPECT_EQ(plan.measurements.size(), static_cast<std::size_t>(n * (n - 1)));
    expectDisjointRounds(plan);
    EXPECT_EQ(plan.rounds.size(), roundRobinRounds(n).size());
  }
}

TEST_P(PairPlans, SampledPairsPackIntoDisjointRounds) {
  const int n = GetParam();
  const FakeTopology topo(n);
  PairRule rule;
  rule.targetNumPairs = n;  // -P n: n unordered pairs, both orders of each measured
  for (const char* key : kPairKeys) {
    SCOPED_TRACE(key);
    const Plan pairByPair = test::planFor(key, topo);
    const Plan plan = planInRounds(key, topo, rule);
    expectDisjointRounds(plan);
    // The same measurements as pair by pair: rounds change the order only.
    const Plan sampled = test::def(key).plan(PlanContext{topo, test::kBytes, rule});
    ASSERT_EQ(plan.measurements.size(), sampled.measurements.size());
    for (std::size_t i = 0; i < plan.measurements.size(); ++i) {
      EXPECT_EQ(plan.measurements[i].outputs.front().row, sampled.measurements[i].outputs[0].row);
      EXPECT_EQ(plan.measurements[i].outputs.front().col, sampled.measurements[i].outputs[0].col);
    }
    EXPECT_LE(plan.rounds.size(), plan.measurements.size());
    // Below four GPUs n pairs are all of them.
    if (n >= 4) {
      EXPECT_LT(plan.measurements.size(), pairByPair.measurements.size());
    }
  }
}

INSTANTIATE_TEST_SUITE_P(OddAndEven, PairPlans, ::testing::Values(2, 3, 4, 7, 8, 16));

TEST(PairPlansEdges, OnePairGivenIsTwoRoundsOfOne) {
  const FakeTopology topo(8);
  PairRule rule;
  rule.pairGiven = true;
  rule.devices = GpuPair{2, 5};
  const Plan plan = planInRounds("device_to_device_memcpy_read_ce", topo, rule);
  ASSERT_EQ(plan.measurements.size(), 2u);
  expectDisjointRounds(plan);
  EXPECT_EQ(plan.rounds.size(), 2u);
}

TEST(PairPlansEdges, PairsWithoutPeerAccessLeaveTheOthersDisjoint) {
  FakeTopology topo(8);
  topo.setPeerAccess(1, 2, false);
  topo.setPeerAccess(2, 1, false);
  const Plan plan = planInRounds("device_to_device_bidirectional_memcpy_read_ce", topo);
  EXPECT_EQ(plan.measurements.size(), 54u);
  expectDisjointRounds(plan);
}

TEST(PairPlansEdges, PairByPairHasNoRounds) {
  const Plan plan = test::planFor("device_to_device_memcpy_read_ce", FakeTopology(4));
  EXPECT_EQ(plan.schedule, PairSchedule::PairByPair);
  EXPECT_TRUE(plan.rounds.empty());
  EXPECT_EQ(measurementGroups(plan).size(), plan.measurements.size());
}

TEST(PairPlansEdges, FanTestcasesStayWithoutSchedule) {
  const Plan plan = planInRounds("all_to_one_write_ce", FakeTopology(4));
  EXPECT_FALSE(plan.schedule.has_value());
  EXPECT_TRUE(plan.rounds.empty());
}

TEST(PairPlansEdges, MultinodePairsOfEightRanksIn14Rounds) {
  FakeTopology world(1);
  world.setProcessFacts({8, std::nullopt, std::nullopt});
  const Plan plan = planInRounds("multinode_device_to_device_memcpy_read_ce", world);
  expectDisjointRounds(plan);
  EXPECT_EQ(plan.rounds.size(), 14u);
}

// ---- Where rounds may run -----------------------------------------------------------------------

TEST(SharedLinks, SwitchedNvlinkHasNoProblem) {
  EXPECT_EQ(sharedLinkProblem(test::withH200Links(FakeTopology(8), "nvswitch")), std::nullopt);
  EXPECT_EQ(fabricProblem(test::withH200Links(FakeTopology(8), "nvswitch")), std::nullopt);
}

TEST(SharedLinks, TwoGpusLinkedDirectlyHaveNoProblem) {
  EXPECT_EQ(sharedLinkProblem(test::withH200Links(FakeTopology(2), "direct")), std::nullopt);
}

TEST(SharedLinks, ALinksFarEndMatchesWhateverItsBusIdSpelling) {
  // NVML may spell a link's far end with a 4-digit domain and lower case.
  FakeTopology topo = test::withH200Links(FakeTopology(2), "direct");
  for (int gpu : {0, 1}) {
    GpuLinkFacts f = topo.linkFacts(gpu);
    ASSERT_TRUE(f.nvlinks.has_value());
    for (NvlinkLink& l : *f.nvlinks) {
      std::string id = l.remoteBusId.substr(l.remoteBusId.find(':') - 4);
      std::transform(id.begin(), id.end(), id.begin(),
                     [](unsigned char c) { return std::tolower(c); });
      l.remoteBusId = id;
    }
    topo.setLinkFacts(gpu, f);
  }
  EXPECT_EQ(sharedLinkProblem(topo), std::nullopt);
}

TEST(SharedLinks, UnknownLinksAreAProblem) {
  const std::optional<std::string> problem =
      sharedLinkProblem(test::withH200Links(FakeTopology(4), "none"));
  ASSERT_TRUE(problem.has_value());
  EXPECT_NE(problem->find("not known"), std::string::npos) << *problem;
  EXPECT_TRUE(fabricProblem(test::withH200Links(FakeTopology(4), "none")).has_value());
}

TEST(SharedLinks, GpusWithoutNvlinksAreAProblem) {
  // NVML answers, and says GPU 0 has no NVLink at all: its peers go over PCIe.
  FakeTopology topo = test::withH200Links(FakeTopology(4), "nvswitch");
  GpuLinkFacts f = topo.linkFacts(0);
  f.nvlinks = std::vector<NvlinkLink>{};
  topo.setLinkFacts(0, f);
  const std::optional<std::string> problem = sharedLinkProblem(topo);
  ASSERT_TRUE(problem.has_value());
  EXPECT_NE(problem->find("GPUs 0 and 1"), std::string::npos) << *problem;
}

TEST(SharedLinks, OneGpuIsAProblem) {
  EXPECT_EQ(sharedLinkProblem(test::withH200Links(FakeTopology(1), "nvswitch")),
            std::optional<std::string>("this run has 1 GPU"));
}

TEST(SharedLinks, NoPeerAccessIsAProblem) {
  FakeTopology topo = test::withH200Links(FakeTopology(2), "nvswitch");
  topo.setPeerAccess(0, 1, false);
  EXPECT_EQ(sharedLinkProblem(topo),
            std::optional<std::string>("no two GPUs have peer access both ways"));
}

}  // namespace test_schedule
}  // namespace nvbw
