// parseCpuList: the Linux CPU-list format of /sys/bus/pci/devices/<bdf>/local_cpulist.
#include <gtest/gtest.h>

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "facts/affinity.h"
#include "facts/host_facts.h"

namespace nvbw {
namespace test_affinity {

using Cpus = std::optional<std::vector<int>>;

Cpus cpus(std::initializer_list<int> list) { return std::vector<int>(list); }

TEST(ParseCpuList, RangesAndSinglesInOrder) {
  EXPECT_EQ(parseCpuList("0-3,8,10-11"), cpus({0, 1, 2, 3, 8, 10, 11}));
}

TEST(ParseCpuList, SingleCpu) { EXPECT_EQ(parseCpuList("5"), cpus({5})); }

TEST(ParseCpuList, SingleElementRange) { EXPECT_EQ(parseCpuList("7-7"), cpus({7})); }

TEST(ParseCpuList, TrailingNewlineAsSysfsWritesIt) {
  EXPECT_EQ(parseCpuList("0-3,8,10-11\n"), cpus({0, 1, 2, 3, 8, 10, 11}));
  EXPECT_EQ(parseCpuList("5\n"), cpus({5}));
}

TEST(ParseCpuList, RealisticTwoSocketList) {
  // A GPU on the second socket of a 2 x 48-core machine with SMT.
  std::vector<int> expected;
  for (int cpu = 48; cpu <= 95; ++cpu) expected.push_back(cpu);
  for (int cpu = 144; cpu <= 191; ++cpu) expected.push_back(cpu);
  EXPECT_EQ(parseCpuList("48-95,144-191\n"), Cpus(expected));
}

TEST(ParseCpuList, EmptyTextIsNoList) {
  EXPECT_EQ(parseCpuList(""), std::nullopt);
  EXPECT_EQ(parseCpuList("\n"), std::nullopt);
}

TEST(ParseCpuList, GarbageIsRejected) {
  for (const char* text :
       {"abc", "cpu0", "0x3", "1-", "-1", "1-2-3", "3-a", "1;2", ",1", "1,,2", "a-3"})
    EXPECT_EQ(parseCpuList(text), std::nullopt) << '"' << text << '"';
}

TEST(ParseCpuList, ReversedRangeIsRejected) {
  EXPECT_EQ(parseCpuList("3-1"), std::nullopt);
  EXPECT_EQ(parseCpuList("0-1,5-4"), std::nullopt);
}

TEST(ParseCpuList, TrailingCommaIsRejected) {
  // "1," is malformed just as ",1" is.
  EXPECT_EQ(parseCpuList("1,"), std::nullopt);
}

TEST(ParseCpuList, BlanksInsideANumberAreRejected) {
  // "1 2" is not CPU 12.
  EXPECT_EQ(parseCpuList("1 2"), std::nullopt);
  EXPECT_EQ(parseCpuList("0-1 0"), std::nullopt);
}

}  // namespace test_affinity
}  // namespace nvbw
