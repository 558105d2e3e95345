// The registry: upstream's 35 keys in order, a description and a plan for each, and which
// testcases are waived on which topology, with a reason that says why.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "fake_topology.h"
#include "plan_text.h"
#include "plans/registry.h"
#include "platform/topology.h"
#include "upstream_keys.h"

namespace nvbw {
namespace test_registry {

using test::kUpstreamKeys;
using test::registry;

// The "peer pairs" filter column of docs/compatibility.md#u2: indices 4-7, 12-15, 20-23, 28-31 and
// 33; and the TMA device-to-device testcases (48-51, 56).
const std::set<std::string> kPeerFiltered = {
    "device_to_device_latency_tma",
    "device_to_device_memcpy_read_tma",
    "device_to_device_memcpy_write_tma",
    "device_to_device_bidirectional_memcpy_read_tma",
    "device_to_device_bidirectional_memcpy_write_tma",
    "device_to_device_memcpy_read_ce",
    "device_to_device_memcpy_write_ce",
    "device_to_device_bidirectional_memcpy_read_ce",
    "device_to_device_bidirectional_memcpy_write_ce",
    "all_to_one_write_ce",
    "all_to_one_read_ce",
    "one_to_all_write_ce",
    "one_to_all_read_ce",
    "device_to_device_memcpy_read_sm",
    "device_to_device_memcpy_write_sm",
    "device_to_device_bidirectional_memcpy_read_sm",
    "device_to_device_bidirectional_memcpy_write_sm",
    "all_to_one_write_sm",
    "all_to_one_read_sm",
    "one_to_all_write_sm",
    "one_to_all_read_sm",
    "device_to_device_latency_sm",
};

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// ---- Keys, descriptions, plans ---------------------------------------------------------------

// The key a registry lists at `index`, or "" where it lists none.
std::string keyAt(const std::vector<TestcaseDef>& registry, std::size_t index) {
  for (const TestcaseDef& d : registry)
    if (d.index == index) return d.key;
  return "";
}

// v0.8's 35 keys at 0-34, then (the multinode indices 35-47 being the multinode build's) the
// v0.10 keys from 48; a testcase upstream does not have comes after all of them.
TEST(Registry, HasTheUpstreamKeysAtTheirIndices) {
  const std::vector<TestcaseDef> v08 = registry();
  for (std::size_t i = 0; i < kUpstreamKeys.size(); ++i) EXPECT_EQ(keyAt(v08, i), kUpstreamKeys[i]);
  for (std::size_t i = 0; i < test::kUpstreamMultinodeKeys.size(); ++i)
    EXPECT_EQ(keyAt(v08, kUpstreamKeys.size() + i), "") << "a single-node build lists no 35-47";
  for (std::size_t i = 0; i < test::kV010Keys.size(); ++i)
    EXPECT_EQ(keyAt(v08, test::kFirstV010Index + i), test::kV010Keys[i]);
  const std::size_t upstreamEnd = test::kFirstV010Index + test::kV010Keys.size();
  for (const TestcaseDef& d : v08) {
    const bool upstreams =
        std::find(kUpstreamKeys.begin(), kUpstreamKeys.end(), d.key) != kUpstreamKeys.end() ||
        std::find(test::kV010Keys.begin(), test::kV010Keys.end(), d.key) != test::kV010Keys.end();
    EXPECT_TRUE(upstreams || d.index >= upstreamEnd) << d.key << " at " << d.index;
  }
}

TEST(Registry, TheMultinodeBuildFillsTheIndicesBetween) {
  const std::vector<TestcaseDef> all = makeRegistry(RegistryScope::WithMultinode);
  for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i].index, i) << all[i].key;
  EXPECT_EQ(all.size(), registry().size() + test::kUpstreamMultinodeKeys.size());
  for (std::size_t i = 0; i < test::kUpstreamMultinodeKeys.size(); ++i)
    EXPECT_EQ(all.at(kUpstreamKeys.size() + i).key, test::kUpstreamMultinodeKeys[i]);
}

// The table names each testcase once, at one index of each interface.
TEST(Registry, TheTableGivesEachTestcaseItsOwnIndexInEachInterface) {
  std::set<std::string> keys;
  std::set<std::size_t> v08;
  std::set<std::size_t> v010;
  const auto table = registeredTestcases();
  for (const auto& testcase : table) {
    const TestcaseListing& listing = testcase->facts().listing;
    EXPECT_TRUE(keys.insert(listing.key).second) << listing.key;
    EXPECT_TRUE(v08.insert(listing.v08Index).second) << listing.key << " " << listing.v08Index;
    EXPECT_TRUE(v010.insert(listing.v010Index).second) << listing.key << " " << listing.v010Index;
  }
  EXPECT_EQ(makeRegistry(RegistryScope::WithMultinode).size(), table.size());
}

TEST(Registry, FindsEveryTestcaseByItsKeyAndNothingElse) {
  for (const TestcaseDef& d : makeRegistry(RegistryScope::WithMultinode)) {
    const auto found = findTestcase(d.key);
    ASSERT_TRUE(found) << d.key;
    EXPECT_EQ(found->key(), d.key);
    EXPECT_EQ(found->facts().listing.description, d.description);
  }
  EXPECT_EQ(findTestcase("device_to_device_latency_tma")->facts().unit, Unit::Nanoseconds);
  EXPECT_EQ(findTestcase("device_to_device_bidirectional_memcpy_write_sm")->facts().parts,
            (std::vector<std::string>{"write1", "write2", "total"}));
  for (const char* key :
       {"", "host_to_device", "host_to_device_memcpy_ce_total", "HOST_TO_DEVICE_MEMCPY_CE"})
    EXPECT_FALSE(findTestcase(key)) << key;
}

TEST(Registry, KeysAreUnique) {
  std::set<std::string> seen;
  for (const TestcaseDef& d : registry()) EXPECT_TRUE(seen.insert(d.key).second) << d.key;
}

TEST(Registry, IsTheSameOnEveryCall) {
  const std::vector<TestcaseDef> again = makeRegistry();
  ASSERT_EQ(again.size(), registry().size());
  for (std::size_t i = 0; i < again.size(); ++i) {
    EXPECT_EQ(again[i].key, registry()[i].key);
    EXPECT_EQ(again[i].description, registry()[i].description);
  }
}

TEST(Registry, EveryEntryHasADescriptionAndAPlan) {
  for (const TestcaseDef& d : registry()) {
    EXPECT_FALSE(d.description.empty()) << d.key;
    EXPECT_TRUE(d.testcase) << d.key;
  }
}

TEST(Registry, DescriptionLinesAreNeitherTabIndentedNorBlank) {
  // The -l printer adds the indentation; a description is lines joined by '\n'.
  for (const TestcaseDef& d : registry()) {
    EXPECT_NE(d.description.front(), '\t') << d.key;
    EXPECT_FALSE(contains(d.description, "\n\t")) << d.key;
    EXPECT_FALSE(contains(d.description, "\n\n")) << d.key;
    EXPECT_NE(d.description.back(), '\n') << d.key;
  }
}

TEST(Registry, EveryPlanBuildsOnEightGpus) {
  const FakeTopology topo(8);
  for (const TestcaseDef& d : registry()) {
    const Plan plan = d.plan(PlanContext{topo, std::size_t{64} << 20});
    EXPECT_FALSE(plan.matrices.empty()) << d.key;
    EXPECT_FALSE(plan.measurements.empty()) << d.key;
  }
}

// ---- Waiving ----------------------------------------------------------------------------------

struct WaiverCase {
  std::string name;
  FakeTopology topo;
  bool peerTestsWaived;
  std::string countInReason;  // expected in the reason when waived
};

std::vector<WaiverCase> waiverCases() {
  std::vector<WaiverCase> all;
  all.push_back({"0 GPUs", FakeTopology(0), true, "0 GPUs"});
  all.push_back({"1 GPU", FakeTopology(1), true, "1 GPU"});
  all.push_back({"2 GPUs, full access", FakeTopology(2), false, ""});
  all.push_back({"8 GPUs, full access", FakeTopology(8), false, ""});
  FakeTopology oneWay(2);  // 0 can access 1, 1 cannot access 0
  oneWay.setPeerAccess(1, 0, false);
  all.push_back({"2 GPUs, one-way access", oneWay, true, "2 GPUs"});
  FakeTopology none(2);
  none.setPeerAccess(0, 1, false);
  none.setPeerAccess(1, 0, false);
  all.push_back({"2 GPUs, no access", none, true, "2 GPUs"});
  FakeTopology upperOnly(8);  // i can access j only when i < j: every pair is one-way
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < i; ++j) upperOnly.setPeerAccess(i, j, false);
  all.push_back({"8 GPUs, every pair one-way", upperOnly, true, "8 GPUs"});
  FakeTopology onePair(8);  // only 5 <-> 6
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j)
      if (i != j) onePair.setPeerAccess(i, j, (i == 5 && j == 6) || (i == 6 && j == 5));
  all.push_back({"8 GPUs, a single pair 5<->6", onePair, false, ""});
  return all;
}

TEST(RegistryWaivers, PeerTestcasesAreWaivedExactlyWithoutAMutualPair) {
  for (const WaiverCase& wc : waiverCases()) {
    SCOPED_TRACE(wc.name);
    for (const TestcaseDef& d : registry()) {
      const std::optional<std::string> reason = waiveReasonFor(d, wc.topo);
      const bool expectWaived = wc.peerTestsWaived && kPeerFiltered.count(d.key) == 1;
      EXPECT_EQ(reason.has_value(), expectWaived) << d.key << ": " << reason.value_or("");
    }
  }
}

TEST(RegistryWaivers, ReasonNamesTheGpuCount) {
  for (const WaiverCase& wc : waiverCases()) {
    if (!wc.peerTestsWaived) continue;
    SCOPED_TRACE(wc.name);
    for (const std::string& key : kPeerFiltered) {
      const TestcaseDef* d = nullptr;
      for (const TestcaseDef& candidate : registry())
        if (candidate.key == key) d = &candidate;
      ASSERT_NE(d, nullptr) << key;
      const std::optional<std::string> reason = waiveReasonFor(*d, wc.topo);
      ASSERT_TRUE(reason.has_value()) << key;
      EXPECT_TRUE(contains(*reason, wc.countInReason)) << *reason;
    }
  }
}

TEST(RegistryWaivers, OneGpuReasonIsSingular) {
  const std::optional<std::string> reason = needsPeerPairs(FakeTopology(1));
  ASSERT_TRUE(reason.has_value());
  EXPECT_TRUE(contains(*reason, "1 GPU")) << *reason;
  EXPECT_FALSE(contains(*reason, "1 GPUs")) << *reason;
}

TEST(RegistryWaivers, NoPeerAccessReasonNamesTheDriverQuery) {
  FakeTopology topo(2);
  topo.setPeerAccess(0, 1, false);
  const std::optional<std::string> reason = needsPeerPairs(topo);
  ASSERT_TRUE(reason.has_value());
  EXPECT_TRUE(contains(*reason, "cuDeviceCanAccessPeer")) << *reason;
}

TEST(RegistryWaivers, NeedsPeerPairsAcceptsAMutualPair) {
  EXPECT_EQ(needsPeerPairs(FakeTopology(2)), std::nullopt);
  EXPECT_EQ(needsPeerPairs(FakeTopology(8)), std::nullopt);
}

// ---- Entries without a waiver ---------------------------------------------------------------

// The host and single-GPU testcases need nothing but a GPU: whatever else the machine lacks (peer
// access, the TMA), they run.
TEST(RegistryWaivers, HostAndSingleGpuTestcasesRunOnAnyGpu) {
  FakeTopology lonely(1);
  lonely.setComputeCapability(0, 70);
  for (const char* key : {"host_to_device_memcpy_ce", "device_to_host_memcpy_sm",
                          "host_to_all_bidirectional_memcpy_ce", "device_local_copy",
                          "device_local_copy_sm", "device_local_read_sm", "device_local_write_sm"})
    EXPECT_EQ(waiveReasonFor(test::def(key), lonely), std::nullopt) << key;
}

TEST(RegistryWaivers, TmaTestcasesNeedHopper) {
  FakeTopology ampere(2);
  ampere.setComputeCapability(1, 80);
  for (const TestcaseDef& d : registry()) {
    const bool tma = contains(d.key, "_tma");
    const auto reason = waiveReasonFor(d, ampere);
    if (!tma) continue;
    ASSERT_TRUE(reason.has_value()) << d.key;
    EXPECT_TRUE(contains(*reason, "compute capability 9.0")) << *reason;
    EXPECT_TRUE(contains(*reason, "GPU 1 is 8.0")) << *reason;
  }
  EXPECT_FALSE(waiveReasonFor(test::def("device_local_read_sm"), ampere).has_value());
}

// Confidential computing: upstream v0.10 waives the bidirectional copy-engine host testcases with
// its reason; copy kernels on host memory and the latency chases cannot be measured there; the
// one-way copy-engine host testcases are timed in order, and nothing else changes.
TEST(RegistryWaivers, ConfidentialComputingWaivesWhatCannotBeMeasuredThere) {
  FakeTopology cc(2);
  cc.setConfidentialComputing(true);
  const std::set<std::string> oneWayCe = {"host_to_device_memcpy_ce", "device_to_host_memcpy_ce",
                                          "all_to_host_memcpy_ce", "host_to_all_memcpy_ce"};
  for (const TestcaseDef& d : registry()) {
    SCOPED_TRACE(d.key);
    const auto reason = waiveReasonFor(d, cc);
    const bool host = contains(d.key, "host");
    if (contains(d.key, "latency")) {
      ASSERT_TRUE(reason.has_value());
      EXPECT_TRUE(contains(*reason, "confidential computing")) << *reason;
    } else if (host && contains(d.key, "bidirectional") && contains(d.key, "_ce")) {
      EXPECT_EQ(reason, std::optional<std::string>("bounce-buffer confidential computing enabled"));
    } else if (host && contains(d.key, "_sm")) {
      ASSERT_TRUE(reason.has_value());
      EXPECT_TRUE(contains(*reason, "copy kernel")) << *reason;
    } else {
      EXPECT_FALSE(reason.has_value()) << *reason;
    }
    if (!reason) {
      EXPECT_EQ(d.plan({cc, 1 << 20}).timing,
                oneWayCe.count(d.key) ? SampleTiming::InOrder : SampleTiming::Latched);
    }
  }
  FakeTopology plain(2);
  for (const std::string& key : oneWayCe)
    EXPECT_EQ(test::def(key).plan({plain, 1 << 20}).timing, SampleTiming::Latched);
}

// ---- --compat v0.10: v0.10's indices and order -------------------------------------------------

std::vector<std::string> keysOf(const std::vector<TestcaseDef>& registry) {
  std::vector<std::string> keys;
  for (const TestcaseDef& d : registry) keys.push_back(d.key);
  return keys;
}

TEST(RegistryV010, HasV010sFortyFourTestcasesAtItsIndices) {
  const std::vector<TestcaseDef> v010 = makeRegistry(RegistryScope::SingleNode, CompatMode::V0_10);
  const std::size_t listed = test::kV010ListingKeys.size();
  ASSERT_GE(v010.size(), listed);
  const std::vector<std::string> keys = keysOf(v010);
  EXPECT_EQ(std::vector<std::string>(keys.begin(), keys.begin() + listed), test::kV010ListingKeys);
  for (std::size_t i = 0; i < v010.size(); ++i) {
    // v0.10's at their positions; this tool's own after the multinode indices.
    EXPECT_EQ(v010[i].index == i, i < listed) << v010[i].key << " at " << v010[i].index;
    EXPECT_EQ(v010[i].blankLineBefore, i == 42) << v010[i].key;
  }
  EXPECT_EQ(v010[34].key, "device_to_device_memcpy_read_tma");
  EXPECT_EQ(v010[38].key, "device_local_copy");
  EXPECT_EQ(v010[42].key, "device_to_device_latency_tma");
}

// The same testcases in both modes: only the order and the indices differ.
TEST(RegistryV010, HoldsTheSameTestcasesAsV08) {
  for (const RegistryScope scope : {RegistryScope::SingleNode, RegistryScope::WithMultinode}) {
    const std::vector<TestcaseDef> v08 = makeRegistry(scope);
    const std::vector<TestcaseDef> v010 = makeRegistry(scope, CompatMode::V0_10);
    ASSERT_EQ(v010.size(), v08.size());
    for (const TestcaseDef& d : v08) {
      const auto same = std::find_if(v010.begin(), v010.end(),
                                     [&d](const TestcaseDef& e) { return e.key == d.key; });
      ASSERT_NE(same, v010.end()) << d.key;
      EXPECT_EQ(same->description, d.description);
      for (const int gpus : {1, 2})
        EXPECT_EQ(waiveReasonFor(*same, FakeTopology(gpus)), waiveReasonFor(d, FakeTopology(gpus)))
            << d.key;
    }
  }
  for (const TestcaseDef& d : makeRegistry()) EXPECT_FALSE(d.blankLineBefore) << d.key;
}

// Multinode v0.10 indices are not known: the multi-process testcases follow 43 in v0.8's order.
TEST(RegistryV010, MultinodeTestcasesFollowInV08Order) {
  const std::vector<TestcaseDef> v010 =
      makeRegistry(RegistryScope::WithMultinode, CompatMode::V0_10);
  const std::size_t first = test::kV010ListingKeys.size();
  ASSERT_GE(v010.size(), first + test::kUpstreamMultinodeKeys.size());
  for (std::size_t i = 0; i < test::kUpstreamMultinodeKeys.size(); ++i) {
    EXPECT_EQ(v010[first + i].key, test::kUpstreamMultinodeKeys[i]);
    EXPECT_EQ(v010[first + i].index, first + i);
  }
  const std::vector<TestcaseDef> single =
      makeRegistry(RegistryScope::SingleNode, CompatMode::V0_10);
  EXPECT_EQ(single.size() + test::kUpstreamMultinodeKeys.size(), v010.size());
}

}  // namespace test_registry
}  // namespace nvbw
