// What each registered testcase declares it is (unit, row and column axes, the parts of a
// bidirectional result, whether --bufferSize applies) against what its plan really reports, on
// one, two and eight GPUs (processes for the multi-process ones).
#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "fake_topology.h"
#include "plans/plan.h"
#include "plans/registry.h"
#include "plans/testcase.h"

namespace nvbw {
namespace test_testcase_facts {

FakeTopology topologyFor(const Testcase& testcase, int n) {
  if (!testcase.facts().multiProcess) return FakeTopology(n);
  FakeTopology world(1);
  world.setProcessFacts({n, std::nullopt, std::nullopt});
  return world;
}

Plan planOf(const Testcase& testcase, int n, std::size_t bytes = std::size_t{64} << 20) {
  const FakeTopology topo = topologyFor(testcase, n);
  return testcase.plan(PlanContext{topo, bytes});
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The matrix key suffixes the declared parts stand for: "" for a one-matrix testcase.
std::vector<std::string> suffixesOf(const TestcaseFacts& facts) {
  if (facts.parts.empty()) return {""};
  std::vector<std::string> suffixes;
  for (const std::string& part : facts.parts) suffixes.push_back("_" + part);
  return suffixes;
}

TEST(TestcaseFacts, UnitAndPartsAreThoseOfEveryMatrixThePlanReports) {
  for (const auto& testcase : registeredTestcases()) {
    const TestcaseFacts& facts = testcase->facts();
    for (const int n : {2, 8}) {
      const Plan plan = planOf(*testcase, n);
      std::vector<std::string> suffixes;
      for (const MatrixSpec& m : plan.matrices) {
        suffixes.push_back(m.key);
        EXPECT_EQ(m.unit, facts.unit) << testcase->key() << m.key;
      }
      EXPECT_EQ(suffixes, suffixesOf(facts)) << testcase->key() << " on " << n;
    }
  }
}

// The axes are what the titles print: "<axis>(row)" and "<axis>(column)", or no such word.
TEST(TestcaseFacts, AxesAreTheOnesEveryTitleNames) {
  for (const auto& testcase : registeredTestcases()) {
    const TestcaseFacts& facts = testcase->facts();
    for (const MatrixSpec& m : planOf(*testcase, 2).matrices) {
      if (facts.rows == Axis::None)
        EXPECT_FALSE(contains(m.title, "(row)")) << testcase->key() << ": " << m.title;
      else
        EXPECT_TRUE(contains(m.title, std::string(axisName(facts.rows)) + "(row)"))
            << testcase->key() << ": " << m.title;
      if (facts.columns == Axis::None)
        EXPECT_FALSE(contains(m.title, "(column)")) << testcase->key() << ": " << m.title;
      else
        EXPECT_TRUE(contains(m.title, std::string(axisName(facts.columns)) + "(column)"))
            << testcase->key() << ": " << m.title;
    }
  }
}

// The sizes of every buffer a plan allocates, in order.
std::vector<std::size_t> bufferSizes(const Plan& plan) {
  std::vector<std::size_t> sizes;
  for (const Measurement& m : plan.measurements) {
    for (const CopySpec& c : m.copies) {
      sizes.push_back(c.src.bytes);
      sizes.push_back(c.dst.bytes);
    }
    if (m.latency) sizes.push_back(m.latency->target.bytes);
  }
  return sizes;
}

// The pointer chases (ns) ignore --bufferSize; every other plan follows it.
TEST(TestcaseFacts, BufferSizeAppliesExactlyWhereThePlanFollowsIt) {
  for (const auto& testcase : registeredTestcases()) {
    const std::vector<std::size_t> small = bufferSizes(planOf(*testcase, 2, std::size_t{1} << 20));
    const std::vector<std::size_t> large = bufferSizes(planOf(*testcase, 2, std::size_t{1} << 30));
    ASSERT_FALSE(small.empty()) << testcase->key();
    EXPECT_EQ(small != large, testcase->facts().unit != Unit::Nanoseconds) << testcase->key();
  }
}

TEST(TestcaseFacts, OnlyTheMultinodeBuildListsTheMultiProcessTestcases) {
  std::size_t multiProcess = 0;
  for (const auto& testcase : registeredTestcases()) {
    if (!testcase->facts().multiProcess) continue;
    ++multiProcess;
    EXPECT_EQ(testcase->key().rfind("multinode_", 0), 0u) << testcase->key();
    EXPECT_TRUE(planOf(*testcase, 2).multiProcess) << testcase->key();
  }
  EXPECT_EQ(makeRegistry(RegistryScope::SingleNode).size() + multiProcess,
            makeRegistry(RegistryScope::WithMultinode).size());
}

TEST(TestcaseFacts, AxisNamesAreTheTitlesWords) {
  EXPECT_STREQ(axisName(Axis::Cpu), "CPU");
  EXPECT_STREQ(axisName(Axis::Gpu), "GPU");
  EXPECT_STREQ(axisName(Axis::None), "");
}

}  // namespace test_testcase_facts
}  // namespace nvbw
