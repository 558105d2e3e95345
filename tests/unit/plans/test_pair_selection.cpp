// --pair and -P: which GPU pairs the pairwise testcases measure, resolved against the run's GPUs,
// sampled deterministically, and applied to the single-node and multinode plans.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "core/error.h"
#include "fake_topology.h"
#include "plan_text.h"
#include "plans/pair_selection.h"
#include "plans/registry.h"
#include "platform/topology.h"

namespace nvbw {
namespace test_pair_selection {

using test::def;

std::vector<GpuPair> allPairs(int gpus) {
  std::vector<GpuPair> pairs;
  for (int a = 0; a < gpus; ++a)
    for (int b = a + 1; b < gpus; ++b) pairs.emplace_back(a, b);
  return pairs;
}

std::set<int> gpusIn(const std::set<GpuPair>& pairs) {
  std::set<int> gpus;
  for (const GpuPair& p : pairs) gpus.insert({p.first, p.second});
  return gpus;
}

// ---- Sampling ---------------------------------------------------------------------------------

TEST(SamplePairs, SameSeedSamePairsOtherSeedsDiffer) {
  const auto first = samplePairs(8, allPairs(8), 6, 42);
  EXPECT_EQ(samplePairs(8, allPairs(8), 6, 42), first);
  std::set<std::set<GpuPair>> distinct;
  for (std::uint32_t seed = 1; seed <= 20; ++seed)
    distinct.insert(samplePairs(8, allPairs(8), 6, seed));
  EXPECT_GT(distinct.size(), 10u);  // 20 seeds over C(28, 6)-ish choices: nearly all differ
}

TEST(SamplePairs, TheDefaultSeedIsStable) {
  // Pins the draw so that a change of generator or order (which would change which cells runs
  // measure from one release to the next) is noticed.
  const std::set<GpuPair> expected = samplePairs(4, allPairs(4), 2, kDefaultPairSeed);
  EXPECT_EQ(expected.size(), 2u);
  EXPECT_EQ(gpusIn(expected), (std::set<int>{0, 1, 2, 3}));
  for (int i = 0; i < 3; ++i) EXPECT_EQ(samplePairs(4, allPairs(4), 2, kDefaultPairSeed), expected);
}

TEST(SamplePairs, CoversEveryGpuFirst) {
  for (std::uint32_t seed = 0; seed < 50; ++seed) {
    // Four pairs are exactly enough to cover eight GPUs: the cover must be a perfect matching.
    const auto four = samplePairs(8, allPairs(8), 4, seed);
    EXPECT_EQ(four.size(), 4u);
    EXPECT_EQ(gpusIn(four).size(), 8u) << seed;
    // Odd counts: ceil(7 / 2) = 4 pairs cover seven GPUs.
    EXPECT_EQ(gpusIn(samplePairs(7, allPairs(7), 4, seed)).size(), 7u) << seed;
  }
}

TEST(SamplePairs, FillsUpToTheTargetWithDistinctPairs) {
  for (std::size_t target : {1u, 5u, 13u, 27u}) {
    const auto pairs = samplePairs(8, allPairs(8), target, 7);
    EXPECT_EQ(pairs.size(), target);
    for (const GpuPair& p : pairs) EXPECT_LT(p.first, p.second);
  }
  EXPECT_EQ(samplePairs(8, allPairs(8), 28, 7).size(), 28u);
  EXPECT_EQ(samplePairs(8, allPairs(8), 1000, 7).size(), 28u);
}

TEST(SamplePairs, OnlyCandidatesAreChosen) {
  // GPU 3 has no peers; 0-1 and 1-2 are the only pairs.
  const std::vector<GpuPair> candidates = {{0, 1}, {1, 2}};
  for (std::uint32_t seed = 0; seed < 20; ++seed) {
    const auto one = samplePairs(4, candidates, 1, seed);
    ASSERT_EQ(one.size(), 1u);
    EXPECT_TRUE(one.count({0, 1}) || one.count({1, 2}));
  }
  EXPECT_TRUE(samplePairs(4, {}, 3, 1).empty());
}

// ---- Rules ------------------------------------------------------------------------------------

TEST(ChoosePairs, DefaultAllowsEveryPair) {
  const PairSet set = choosePairs(PairRule{}, PairScope::Devices, 4, [](int, int) { return true; });
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) EXPECT_TRUE(set.allows(a, b)) << a << "," << b;
}

TEST(ChoosePairs, PairAllowsBothOrdersOfThatPairOnly) {
  PairRule rule;
  rule.pairGiven = true;
  rule.devices = GpuPair{3, 1};
  const PairSet set = choosePairs(rule, PairScope::Devices, 4, [](int, int) { return true; });
  EXPECT_TRUE(set.allows(1, 3));
  EXPECT_TRUE(set.allows(3, 1));
  EXPECT_FALSE(set.allows(0, 1));
  // Ranks were not resolved: the multinode testcases measure nothing.
  EXPECT_TRUE(
      choosePairs(rule, PairScope::Ranks, 4, [](int, int) { return true; }).pairs().empty());
}

TEST(ChoosePairs, SamplingSkipsPairsWithoutPeerAccess) {
  PairRule rule;
  rule.targetNumPairs = 100;
  const PairSet set =
      choosePairs(rule, PairScope::Devices, 4, [](int a, int b) { return a != 2 && b != 2; });
  EXPECT_EQ(set.pairs(), (std::set<GpuPair>{{0, 1}, {0, 3}, {1, 3}}));
}

SystemFacts systemOf(int gpus) {
  SystemFacts info;
  for (int i = 0; i < gpus; ++i)
    info.devices.push_back({"NVIDIA H200", 0, 0, 0, "GPU-0000000" + std::to_string(i)});
  return info;
}

std::string resolveError(const std::vector<std::string>& tokens, long long target,
                         const SystemFacts& system) {
  try {
    resolvePairRule(tokens, target, system);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(ResolvePairRule, IndicesAndUuidsNameThisSystemsGpus) {
  const PairRule byIndex = resolvePairRule({"2", "0"}, -1, systemOf(4));
  EXPECT_TRUE(byIndex.pairGiven);
  EXPECT_EQ(byIndex.devices, GpuPair(2, 0));
  EXPECT_FALSE(byIndex.ranks);
  EXPECT_EQ(resolvePairRule({"GPU-00000003", "1"}, -1, systemOf(4)).devices, GpuPair(3, 1));
  EXPECT_FALSE(resolvePairRule({}, -1, systemOf(4)).pairGiven);
  EXPECT_EQ(resolvePairRule({}, 5, systemOf(4)).targetNumPairs, 5);
}

TEST(ResolvePairRule, RejectsGpusTheRunDoesNotHave) {
  EXPECT_EQ(resolveError({"0", "4"}, -1, systemOf(4)),
            "--pair: '4' names no GPU of this run (it has 4, indices 0-3)");
  EXPECT_EQ(resolveError({"GPU-ffff", "0"}, -1, systemOf(2)),
            "--pair: 'GPU-ffff' names no GPU of this run (it has 2, indices 0-1)");
  EXPECT_EQ(resolveError({"99999999999999999999", "0"}, -1, systemOf(2)).substr(0, 39),
            "--pair: '99999999999999999999' names no");
  EXPECT_EQ(resolveError({"GPU-00000001", "1"}, -1, systemOf(2)),
            "--pair names the same GPU twice (1)");
  EXPECT_EQ(resolveError({"0", "1"}, 2, systemOf(2)),
            "--pair and -P/--targetNumPairs cannot be used together");
}

TEST(ResolvePairRule, MultiProcessRunsNameRanks) {
  SystemFacts system = systemOf(1);  // rank 0 sees one GPU
  for (int r = 0; r < 3; ++r)
    system.processes.push_back({"node" + std::to_string(r), 0,
                                DeviceInfo{"", 0, 0, 0, "GPU-aaaa000" + std::to_string(r)}});
  const PairRule rule = resolvePairRule({"GPU-aaaa0002", "0"}, -1, system);
  EXPECT_EQ(rule.ranks, GpuPair(2, 0));
  EXPECT_FALSE(rule.devices);  // rank 0's single GPU cannot form the pair
  EXPECT_EQ(resolveError({"0", "3"}, -1, system),
            "--pair: '3' names no rank of this run (it has 3, indices 0-2)");
}

TEST(PairRuleNotes, SayWhatIsMeasured) {
  EXPECT_TRUE(pairRuleNotes(PairRule{}, false).empty());
  PairRule pair;
  pair.pairGiven = true;
  pair.devices = GpuPair{0, 1};
  EXPECT_EQ(pairRuleNotes(pair, false),
            std::vector<std::string>{"NOTE: --pair: device-to-device testcases measure only GPUs "
                                     "0 and 1. Other cells show N/A."});
  PairRule sampled;
  sampled.targetNumPairs = 3;
  ASSERT_EQ(pairRuleNotes(sampled, false).size(), 1u);
  EXPECT_NE(pairRuleNotes(sampled, false)[0].find("-P 3"), std::string::npos);
}

// ---- Plans ------------------------------------------------------------------------------------

std::set<std::string> cells(const Plan& plan) {
  std::set<std::string> written;
  for (const Measurement& m : plan.measurements)
    for (const OutputTarget& o : m.outputs)
      if (o.matrix == 0) written.insert(std::to_string(o.row) + "," + std::to_string(o.col));
  return written;
}

Plan planWith(const std::string& key, const Topology& topo, PairRule rule) {
  return def(key).plan(PlanContext{topo, test::kBytes, rule});
}

PairRule onlyPair(int a, int b) {
  PairRule rule;
  rule.pairGiven = true;
  rule.devices = GpuPair{a, b};
  rule.ranks = GpuPair{a, b};
  return rule;
}

TEST(PairPlans, PairRestrictsEveryPairwiseTestcase) {
  const FakeTopology topo(4);
  for (const char* key :
       {"device_to_device_memcpy_read_ce", "device_to_device_memcpy_write_sm",
        "device_to_device_bidirectional_memcpy_read_tma", "device_to_device_latency_sm"}) {
    EXPECT_EQ(cells(planWith(key, topo, onlyPair(3, 1))), (std::set<std::string>{"1,3", "3,1"}))
        << key;
  }
}

TEST(PairPlans, PairLeavesEachFanGpuWithTheOtherOnly) {
  const FakeTopology topo(4);
  EXPECT_EQ(test::describe(planWith("all_to_one_write_ce", topo, onlyPair(0, 2))),
            (std::vector<std::string>{"gpu2[S] -> gpu0[S] CE on 2 | m0[0][0]=total",
                                      "gpu0[S] -> gpu2[S] CE on 0 | m0[0][2]=total"}));
}

TEST(PairPlans, SamplingMeasuresTheTargetNumberOfPairsCoveringEveryGpu) {
  const FakeTopology topo(8);
  PairRule rule;
  rule.targetNumPairs = 5;
  const std::set<std::string> written =
      cells(planWith("device_to_device_memcpy_read_ce", topo, rule));
  EXPECT_EQ(written.size(), 10u);  // both orders of 5 pairs
  std::set<char> rows;
  for (const std::string& cell : written) rows.insert(cell[0]);
  EXPECT_EQ(rows.size(), 8u);
  // Every pairwise testcase of the run measures the same pairs.
  EXPECT_EQ(cells(planWith("device_to_device_memcpy_write_tma", topo, rule)), written);
  // Fans are per GPU: -P leaves them whole.
  EXPECT_EQ(planWith("all_to_one_write_ce", topo, rule).measurements.at(0).copies.size(), 7u);
}

TEST(PairPlans, MultinodePairwiseTestcasesUseRanks) {
  FakeTopology topo(1);
  topo.setProcessFacts(ProcessFacts{4, std::nullopt, std::nullopt});
  PairRule rule;
  rule.pairGiven = true;
  rule.ranks = GpuPair{0, 3};
  EXPECT_EQ(cells(planWith("multinode_device_to_device_memcpy_read_ce", topo, rule)),
            (std::set<std::string>{"0,3", "3,0"}));
  const Plan fan = planWith("multinode_device_to_device_all_to_one_write_sm", topo, rule);
  for (const Measurement& m : fan.measurements) EXPECT_EQ(m.copies.size(), 1u);
  PairRule sampled;
  sampled.targetNumPairs = 2;
  EXPECT_EQ(cells(planWith("multinode_device_to_device_memcpy_write_ce", topo, sampled)).size(),
            4u);
}

}  // namespace test_pair_selection
}  // namespace nvbw
