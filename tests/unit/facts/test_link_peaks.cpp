// Peaks per cell from faked link facts: PCIe from sysfs-like states, NVLink bundles (direct,
// through NVSwitches, missing NVML), device memory, C2C and unknown links, and the combined peak
// of copies that run together, on the registry's own plans.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "facts/link_peaks.h"
#include "fake_topology.h"
#include "plans/registry.h"
#include "platform/topology.h"

namespace nvbw {
namespace test_link_peaks {

constexpr double kGen5x16 = 32.0 * 16 * 128 / 130 / 8;          // 63.015 GB/s
constexpr double kNvlink4 = 26.5625;                            // per link, per direction
constexpr double kH200Memory = 2 * 3201000e3 * 6016 / 8 / 1e9;  // 4814.3 GB/s

std::string busId(int device) { return "00000000:" + std::to_string(10 + device) + ":00.0"; }

std::vector<NvlinkLink> links(int count, NvlinkLink::Remote remote, const std::string& to,
                              double rate = kNvlink4) {
  return std::vector<NvlinkLink>(count, NvlinkLink{40, rate, remote, to});
}

// An H200-like GPU: Gen5 x16, HBM3e at 3201 MHz x 6016 bits, NVML present, no NVLink yet.
GpuLinkFacts h200(int device) {
  GpuLinkFacts f;
  f.busId = busId(device);
  f.pcie = PcieLinkState{32.0, 16, 32.0, 16};
  f.c2c = false;
  f.nvlinks = std::vector<NvlinkLink>{};
  f.memory = MemoryFacts{3201000, 6016};
  return f;
}

// Two H200s joined by 18 NVLink 4 links, as on nvidia-h200-x2.
FakeTopology twoH200() {
  FakeTopology topo(2);
  for (int d = 0; d < 2; ++d) {
    GpuLinkFacts f = h200(d);
    f.nvlinks = links(18, NvlinkLink::Remote::Gpu, busId(1 - d));
    topo.setLinkFacts(d, f);
  }
  return topo;
}

const TestcaseDef& testcase(const std::vector<TestcaseDef>& registry, const std::string& key) {
  for (const TestcaseDef& def : registry)
    if (def.key == key) return def;
  throw std::runtime_error("no testcase " + key);
}

std::vector<std::vector<CellLink>> linksOf(const std::string& key, const Topology& topo) {
  const std::vector<TestcaseDef> registry = makeRegistry();
  return cellLinks(testcase(registry, key).plan(PlanContext{topo, 512u << 20}), topo);
}

TEST(HostLinkPeak, Gen5x16IsSixtyThreeGigabytesPerDirection) {
  const LinkPeak p = hostLinkPeak(h200(0));
  EXPECT_EQ(p.name, "PCIe Gen5 x16");
  ASSERT_TRUE(p.gbPerSecond);
  EXPECT_NEAR(*p.gbPerSecond, 63.015, 0.001);
}

TEST(HostLinkPeak, UsesTheLinkAsTrainedNow) {
  GpuLinkFacts f = h200(0);
  f.pcie = PcieLinkState{16.0, 8, 32.0, 16};
  const LinkPeak p = hostLinkPeak(f);
  EXPECT_EQ(p.name, "PCIe Gen4 x8");
  EXPECT_NEAR(*p.gbPerSecond, 15.754, 0.001);
}

TEST(HostLinkPeak, UnknownWithoutSysfsAndC2cWithoutARate) {
  GpuLinkFacts f = h200(0);
  f.pcie.reset();
  EXPECT_EQ(hostLinkPeak(f).name, "unknown");
  EXPECT_FALSE(hostLinkPeak(f).gbPerSecond);
  f.c2c = true;
  EXPECT_EQ(hostLinkPeak(f).name, "C2C");
  EXPECT_FALSE(hostLinkPeak(f).gbPerSecond);
}

TEST(HostLinkPeak, Gen6RateIsNotGuessed) {
  GpuLinkFacts f = h200(0);
  f.pcie = PcieLinkState{64.0, 16, 64.0, 16};
  EXPECT_EQ(hostLinkPeak(f).name, "PCIe Gen6 x16");
  EXPECT_FALSE(hostLinkPeak(f).gbPerSecond);
}

TEST(PeerLinkPeak, EighteenDirectNvlink4LinksMake478) {
  const FakeTopology topo = twoH200();
  const LinkPeak p = peerLinkPeak(topo.linkFacts(0), topo.linkFacts(1));
  EXPECT_EQ(p.name, "NVLink 4 x18");
  EXPECT_NEAR(*p.gbPerSecond, 478.125, 1e-9);
}

TEST(PeerLinkPeak, BusIdsMatchWhateverTheirCaseAndDomainWidth) {
  GpuLinkFacts a = h200(0), b = h200(1);
  a.nvlinks = links(4, NvlinkLink::Remote::Gpu, "0000:11:00.0");
  b.busId = "00000000:11:00.0";
  EXPECT_EQ(peerLinkPeak(a, b).name, "NVLink 4 x4");
  a.nvlinks = links(4, NvlinkLink::Remote::Gpu, "00000000:AB:00.0");
  b.busId = "00000000:ab:00.0";
  EXPECT_EQ(peerLinkPeak(a, b).name, "NVLink 4 x4");
}

TEST(PeerLinkPeak, ThroughNvswitchesTheSmallerPortBounds) {
  GpuLinkFacts a = h200(0), b = h200(1);
  a.nvlinks = links(18, NvlinkLink::Remote::Switch, "00000000:c0:00.0");
  b.nvlinks = links(17, NvlinkLink::Remote::Switch, "00000000:c1:00.0");
  const LinkPeak p = peerLinkPeak(a, b);
  EXPECT_EQ(p.name, "NVLink 4 x17 (NVSwitch)");
  EXPECT_NEAR(*p.gbPerSecond, 17 * kNvlink4, 1e-9);
}

TEST(PeerLinkPeak, WithoutNvlinkThePcieLinksBound) {
  GpuLinkFacts a = h200(0), b = h200(1);
  b.pcie = PcieLinkState{16.0, 16, 32.0, 16};
  const LinkPeak p = peerLinkPeak(a, b);
  EXPECT_EQ(p.name, "PCIe Gen4 x16");
  EXPECT_NEAR(*p.gbPerSecond, 31.508, 0.001);
}

TEST(PeerLinkPeak, MissingNvmlIsUnknownNotPcie) {
  GpuLinkFacts a = h200(0), b = h200(1);
  a.nvlinks.reset();
  const LinkPeak p = peerLinkPeak(a, b);
  EXPECT_EQ(p.name, "unknown");
  EXPECT_FALSE(p.gbPerSecond);
}

TEST(PeerLinkPeak, ALinkWithoutARateLeavesThePeakUnknown) {
  GpuLinkFacts a = h200(0), b = h200(1);
  a.nvlinks = links(2, NvlinkLink::Remote::Gpu, b.busId);
  a.nvlinks->back().gbPerSecond.reset();
  const LinkPeak p = peerLinkPeak(a, b);
  EXPECT_EQ(p.name, "NVLink 4 x2");
  EXPECT_FALSE(p.gbPerSecond);
}

TEST(MemoryLinkPeak, H200HbmAndTheCopyConvention) {
  EXPECT_NEAR(*memoryLinkPeak(h200(0), 1).gbPerSecond, kH200Memory, 1e-6);
  EXPECT_NEAR(*memoryLinkPeak(h200(0), 2).gbPerSecond, kH200Memory / 2, 1e-6);
  GpuLinkFacts f = h200(0);
  f.memory.reset();
  EXPECT_FALSE(memoryLinkPeak(f, 1).gbPerSecond);
}

TEST(CellLinks, HostCopiesArePerDirectionPcie) {
  const FakeTopology topo = twoH200();
  for (const char* key : {"host_to_device_memcpy_ce", "device_to_host_bidirectional_memcpy_ce",
                          "all_to_host_memcpy_sm"}) {
    const auto links = linksOf(key, topo);
    ASSERT_EQ(links.size(), 1u) << key;
    ASSERT_EQ(links[0].size(), 2u) << key;
    for (const CellLink& c : links[0]) {
      EXPECT_EQ(c.link.name, "PCIe Gen5 x16") << key;
      EXPECT_NEAR(*c.link.gbPerSecond, 63.015, 0.001) << key;
    }
  }
  EXPECT_EQ(linksOf("host_to_device_memcpy_ce", topo)[0][1].cell, "Host -> GPU 1");
}

TEST(CellLinks, BidirectionalTotalsCountBothDirections) {
  const FakeTopology topo = twoH200();
  const auto links = linksOf("device_to_device_bidirectional_memcpy_read_ce", topo);
  ASSERT_EQ(links.size(), 3u);
  const CellLink& one = links[0][0 * 2 + 1];
  const CellLink& total = links[2][0 * 2 + 1];
  EXPECT_EQ(one.link.name, "NVLink 4 x18");
  EXPECT_NEAR(*one.link.gbPerSecond, 478.125, 1e-9);
  EXPECT_EQ(total.link.name, "NVLink 4 x18");
  EXPECT_NEAR(*total.link.gbPerSecond, 2 * 478.125, 1e-9);
  EXPECT_NE(total.cell.find("<->"), std::string::npos) << total.cell;
  // The diagonal is never measured: its link stays unknown.
  EXPECT_EQ(links[0][0].link.name, "unknown");
}

TEST(CellLinks, LocalCopiesCountBytesCopiedReadsAndWritesCountTraffic) {
  const FakeTopology topo = twoH200();
  EXPECT_NEAR(*linksOf("device_local_copy", topo)[0][0].link.gbPerSecond, kH200Memory / 2, 1e-6);
  EXPECT_NEAR(*linksOf("device_local_copy_tma", topo)[0][1].link.gbPerSecond, kH200Memory / 2,
              1e-6);
  const auto sm = linksOf("device_local_copy_sm", topo);
  EXPECT_NEAR(*sm[0][1].link.gbPerSecond, kH200Memory / 2, 1e-6);
  EXPECT_EQ(sm[0][1].link.name, "HBM");
  EXPECT_EQ(sm[0][1].convention, "bytes copied: memory traffic is twice that");
  EXPECT_NEAR(*linksOf("device_local_read_sm", topo)[0][0].link.gbPerSecond, kH200Memory, 1e-6);
  EXPECT_NEAR(*linksOf("device_local_write_sm", topo)[0][1].link.gbPerSecond, kH200Memory, 1e-6);
  EXPECT_EQ(linksOf("device_local_copy", topo)[0][0].link.name, "HBM");
}

TEST(CellLinks, LatencyNamesTheLinkWithoutAPeak) {
  const FakeTopology topo = twoH200();
  const auto host = linksOf("host_device_latency_sm", topo);
  EXPECT_EQ(host[0][0].link.name, "PCIe Gen5 x16");
  EXPECT_FALSE(host[0][0].link.gbPerSecond);
  const auto peer = linksOf("device_to_device_latency_sm", topo);
  EXPECT_EQ(peer[0][1].link.name, "NVLink 4 x18");
  EXPECT_FALSE(peer[0][1].link.gbPerSecond);
  const auto tma = linksOf("device_to_device_latency_tma", topo);
  const CellLink& oneReadsZero = tma[0][1 * 2 + 0];
  EXPECT_EQ(oneReadsZero.link.name, "NVLink 4 x18");
  EXPECT_FALSE(oneReadsZero.link.gbPerSecond);
  EXPECT_EQ(oneReadsZero.convention, "latency");
  EXPECT_EQ(oneReadsZero.cell, "GPU 1 reading GPU 0");
}

// Eight GPUs on NVSwitches: a one-to-all fan is bounded by the source's port, not by seven
// times a pair's links.
TEST(CellLinks, FansThroughOneNvswitchPortShareIt) {
  FakeTopology topo(8);
  for (int d = 0; d < 8; ++d) {
    GpuLinkFacts f = h200(d);
    f.nvlinks = links(18, NvlinkLink::Remote::Switch, "00000000:c0:00.0");
    topo.setLinkFacts(d, f);
  }
  const auto links = linksOf("one_to_all_write_ce", topo);
  ASSERT_FALSE(links.empty());
  const CellLink& fan = links[0][0];
  EXPECT_EQ(fan.link.name, "NVLink 4 x18 (NVSwitch)");
  EXPECT_NEAR(*fan.link.gbPerSecond, 478.125, 1e-9);
}

TEST(CellLinks, FansOverDirectLinksAddUp) {
  // Three GPUs in a full mesh, 6 links per pair: a fan from GPU 0 uses two distinct bundles.
  FakeTopology topo(3);
  for (int d = 0; d < 3; ++d) {
    GpuLinkFacts f = h200(d);
    f.nvlinks = std::vector<NvlinkLink>{};
    for (int p = 0; p < 3; ++p)
      if (p != d)
        for (const NvlinkLink& l : links(6, NvlinkLink::Remote::Gpu, busId(p)))
          f.nvlinks->push_back(l);
    topo.setLinkFacts(d, f);
  }
  const CellLink& fan = linksOf("one_to_all_write_ce", topo)[0][0];
  EXPECT_NEAR(*fan.link.gbPerSecond, 2 * 6 * kNvlink4, 1e-9);
}

TEST(CellLinks, UnknownFactsGiveUnknownLinks) {
  const FakeTopology topo(2);  // no facts at all
  for (const char* key : {"host_to_device_memcpy_ce", "device_to_device_memcpy_write_ce"}) {
    const auto links = linksOf(key, topo);  // kept alive for the loop
    for (const CellLink& c : links[0]) EXPECT_FALSE(c.link.gbPerSecond) << key;
  }
}

}  // namespace test_link_peaks
}  // namespace nvbw
