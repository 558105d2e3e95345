// host_facts: the sysfs and /proc readers against a fake tree in a temporary directory, their
// parsers on the texts real kernels write, and the PCIe arithmetic.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "facts/affinity.h"
#include "facts/host_facts.h"

namespace nvbw {
namespace test_host_facts {

// A scratch directory (mkdtemp) removed with everything in it when the test ends.
class FakeSysfs : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/nvbw_host_facts_XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    root_ = pattern;
  }
  void TearDown() override {
    std::error_code ignored;
    std::filesystem::remove_all(root_, ignored);
  }

  // Creates <root>/<relative> and the directories above it.
  std::string dir(const std::string& relative) {
    const std::string path = root_ + "/" + relative;
    std::filesystem::create_directories(path);
    return path;
  }

  void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

  // A device directory as sysfs fills it for a Gen5 x16 GPU trained at full speed.
  std::string gen5Device() {
    const std::string device = dir("bus/pci/devices/0000:9b:00.0");
    write(device + "/current_link_speed", "32.0 GT/s PCIe\n");
    write(device + "/current_link_width", "16\n");
    write(device + "/max_link_speed", "32.0 GT/s PCIe\n");
    write(device + "/max_link_width", "16\n");
    return device;
  }

  std::string root_;
};

DeviceInfo gpuAt(unsigned domain, unsigned bus, unsigned dev) {
  DeviceInfo info;
  info.pciDomain = domain;
  info.pciBus = bus;
  info.pciDevice = dev;
  return info;
}

TEST(PciSysfsName, FourHexDigitDomainLowercaseFunctionZero) {
  EXPECT_EQ(pciSysfsName(gpuAt(0, 0x9b, 0)), "0000:9b:00.0");
  EXPECT_EQ(pciSysfsName(gpuAt(0x1, 0x0a, 0x1f)), "0001:0a:1f.0");
}

TEST(PciSysfsName, LargeDomainKeepsAllItsDigits) {
  // VMD domains start at 0x10000; the kernel's "%04x" widens rather than truncates.
  EXPECT_EQ(pciSysfsName(gpuAt(0x10000, 0xe1, 0)), "10000:e1:00.0");
}

TEST(PciSysfsDir, UnderTheDevicesRoot) {
  EXPECT_EQ(pciSysfsDir(gpuAt(0, 0x9b, 0)), "/sys/bus/pci/devices/0000:9b:00.0");
  EXPECT_EQ(pciSysfsDir(gpuAt(0, 0x9b, 0), "/tmp/x"), "/tmp/x/0000:9b:00.0");
}

TEST(ParseLinkSpeed, CurrentKernels) {
  EXPECT_EQ(parseLinkSpeed("2.5 GT/s PCIe\n"), 2.5);
  EXPECT_EQ(parseLinkSpeed("5.0 GT/s PCIe\n"), 5.0);
  EXPECT_EQ(parseLinkSpeed("8.0 GT/s PCIe\n"), 8.0);
  EXPECT_EQ(parseLinkSpeed("16.0 GT/s PCIe\n"), 16.0);
  EXPECT_EQ(parseLinkSpeed("32.0 GT/s PCIe\n"), 32.0);
  EXPECT_EQ(parseLinkSpeed("64.0 GT/s PCIe\n"), 64.0);
}

TEST(ParseLinkSpeed, OlderKernels) {
  EXPECT_EQ(parseLinkSpeed("2.5 GT/s\n"), 2.5);
  EXPECT_EQ(parseLinkSpeed("5 GT/s\n"), 5.0);
  EXPECT_EQ(parseLinkSpeed("5.0 GT/s"), 5.0);
  EXPECT_EQ(parseLinkSpeed("8 GT/s\n"), 8.0);
}

TEST(ParseLinkSpeed, UnknownAndGarbageAreNoSpeed) {
  for (const char* text : {"Unknown",
                           "Unknown\n",
                           "Unknown speed\n",
                           "",
                           "\n",
                           "GT/s PCIe",
                           "x GT/s PCIe",
                           "8.0GT/s PCIe",
                           "8.0 GT/s PCIe extra",
                           "8.0 Gb/s",
                           "33 MHz PCI",
                           "133 MHz PCI-X",
                           "-8.0 GT/s PCIe",
                           "0 GT/s",
                           "1e1 GT/s",
                           "inf GT/s",
                           "nan GT/s",
                           "8. GT/s",
                           ".5 GT/s",
                           "8.0.0 GT/s"})
    EXPECT_EQ(parseLinkSpeed(text), std::nullopt) << '"' << text << '"';
}

TEST_F(FakeSysfs, ReadsTheFourLinkFiles) {
  EXPECT_EQ(readPcieLink(gen5Device()), (PcieLinkState{32.0, 16, 32.0, 16}));
}

TEST_F(FakeSysfs, DownTrainedLinkKeepsCurrentAndMaxApart) {
  // An idle Gen4 GPU often trains down to Gen1 to save power.
  const std::string device = gen5Device();
  write(device + "/current_link_speed", "2.5 GT/s PCIe\n");
  write(device + "/current_link_width", "8\n");
  write(device + "/max_link_speed", "16.0 GT/s PCIe\n");
  EXPECT_EQ(readPcieLink(device), (PcieLinkState{2.5, 8, 16.0, 16}));
}

TEST_F(FakeSysfs, AnyMissingLinkFileIsNoLink) {
  for (const char* file :
       {"current_link_speed", "current_link_width", "max_link_speed", "max_link_width"}) {
    const std::string device = gen5Device();
    ASSERT_EQ(std::remove((device + "/" + file).c_str()), 0);
    EXPECT_EQ(readPcieLink(device), std::nullopt) << file;
  }
  EXPECT_EQ(readPcieLink(root_ + "/no/such/device"), std::nullopt);
}

TEST_F(FakeSysfs, UnknownSpeedIsNoLink) {
  const std::string device = gen5Device();
  write(device + "/current_link_speed", "Unknown\n");
  EXPECT_EQ(readPcieLink(device), std::nullopt);
  write(device + "/current_link_speed", "32.0 GT/s PCIe\n");
  write(device + "/max_link_speed", "Unknown speed\n");
  EXPECT_EQ(readPcieLink(device), std::nullopt);
}

TEST_F(FakeSysfs, ZeroOrGarbageWidthIsNoLink) {
  const std::string device = gen5Device();
  write(device + "/current_link_width", "0\n");
  EXPECT_EQ(readPcieLink(device), std::nullopt);
  write(device + "/current_link_width", "16\n");
  write(device + "/max_link_width", "0\n");
  EXPECT_EQ(readPcieLink(device), std::nullopt);
  write(device + "/max_link_width", "x16\n");
  EXPECT_EQ(readPcieLink(device), std::nullopt);
  write(device + "/max_link_width", "-16\n");
  EXPECT_EQ(readPcieLink(device), std::nullopt);
}

TEST_F(FakeSysfs, NumaNode) {
  const std::string device = gen5Device();
  write(device + "/numa_node", "1\n");
  EXPECT_EQ(readNumaNode(device), 1);
  write(device + "/numa_node", "0\n");
  EXPECT_EQ(readNumaNode(device), 0);
}

TEST_F(FakeSysfs, NoNumaAffinityMissingOrGarbageIsNoNode) {
  const std::string device = gen5Device();
  EXPECT_EQ(readNumaNode(device), std::nullopt);  // not written yet
  write(device + "/numa_node", "-1\n");
  EXPECT_EQ(readNumaNode(device), std::nullopt);
  write(device + "/numa_node", "node1\n");
  EXPECT_EQ(readNumaNode(device), std::nullopt);
  write(device + "/numa_node", "");
  EXPECT_EQ(readNumaNode(device), std::nullopt);
}

TEST_F(FakeSysfs, LocalCpuListTrimmed) {
  const std::string device = gen5Device();
  write(device + "/local_cpulist", "48-95,144-191\n");
  EXPECT_EQ(readLocalCpuList(device), std::string("48-95,144-191"));
}

TEST_F(FakeSysfs, LocalCpuListMissingEmptyOrMalformedIsNone) {
  const std::string device = gen5Device();
  EXPECT_EQ(readLocalCpuList(device), std::nullopt);
  write(device + "/local_cpulist", "\n");
  EXPECT_EQ(readLocalCpuList(device), std::nullopt);
  write(device + "/local_cpulist", "ffff,ffffffff\n");  // local_cpus (the mask), not the list
  EXPECT_EQ(readLocalCpuList(device), std::nullopt);
}

TEST_F(FakeSysfs, DirectoryNameAndReaderAgree) {
  // localCpusOf (affinity.h) is readLocalCpuList(pciSysfsDir(gpu)) on the real /sys; the same
  // composition on a fake root.
  const std::string device = gen5Device();
  write(device + "/local_cpulist", "0-3,8\n");
  const auto list = readLocalCpuList(pciSysfsDir(gpuAt(0, 0x9b, 0), root_ + "/bus/pci/devices"));
  ASSERT_TRUE(list.has_value());
  EXPECT_EQ(parseCpuList(*list), (std::vector<int>{0, 1, 2, 3, 8}));
}

TEST_F(FakeSysfs, OnlineNumaNodes) {
  const std::string node = dir("devices/system/node");
  EXPECT_EQ(readOnlineNumaNodes(node + "/online"), std::nullopt);
  write(node + "/online", "0-1\n");
  EXPECT_EQ(readOnlineNumaNodes(node + "/online"), std::string("0-1"));
  write(node + "/online", "0\n");
  EXPECT_EQ(readOnlineNumaNodes(node + "/online"), std::string("0"));
  write(node + "/online", "0,2-3\n");
  EXPECT_EQ(readOnlineNumaNodes(node + "/online"), std::string("0,2-3"));
  write(node + "/online", "\n");
  EXPECT_EQ(readOnlineNumaNodes(node + "/online"), std::nullopt);
  write(node + "/online", "none\n");
  EXPECT_EQ(readOnlineNumaNodes(node + "/online"), std::nullopt);
}

// Two logical CPUs of an x86 host, abridged; the second block's name differs only so that the
// test can tell which one was taken.
const char* const kX86Cpuinfo = "processor\t: 0\n"
                                "vendor_id\t: GenuineIntel\n"
                                "cpu family\t: 6\n"
                                "model\t\t: 143\n"
                                "model name\t: Intel(R) Xeon(R) Platinum 8480C  \n"
                                "stepping\t: 8\n"
                                "flags\t\t: fpu vme de pse tsc msr pae mce cx8 apic sep mtrr\n"
                                "\n"
                                "processor\t: 1\n"
                                "vendor_id\t: GenuineIntel\n"
                                "cpu family\t: 6\n"
                                "model\t\t: 143\n"
                                "model name\t: Second Processor\n"
                                "stepping\t: 8\n"
                                "\n";

// A Grace (Neoverse V2) host: aarch64 names no model, only implementer and part numbers.
const char* const kAarch64Cpuinfo =
    "processor\t: 0\n"
    "BogoMIPS\t: 2000.00\n"
    "Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid\n"
    "CPU implementer\t: 0x41\n"
    "CPU architecture: 8\n"
    "CPU variant\t: 0x0\n"
    "CPU part\t: 0xd4f\n"
    "CPU revision\t: 0\n"
    "\n"
    "processor\t: 1\n"
    "BogoMIPS\t: 2000.00\n"
    "CPU implementer\t: 0x41\n"
    "CPU part\t: 0xd4f\n"
    "\n";

TEST(ParseCpuModel, X86TakesTheFirstProcessorTrimmed) {
  EXPECT_EQ(parseCpuModel(kX86Cpuinfo), std::string("Intel(R) Xeon(R) Platinum 8480C"));
}

TEST(ParseCpuModel, Aarch64HasNoModelName) {
  EXPECT_EQ(parseCpuModel(kAarch64Cpuinfo), std::nullopt);
}

TEST(ParseCpuModel, OnlyTheExactKeyCounts) {
  // "model" alone is the x86 model number, not its name.
  EXPECT_EQ(parseCpuModel("model\t\t: 143\n"), std::nullopt);
  EXPECT_EQ(parseCpuModel(""), std::nullopt);
  EXPECT_EQ(parseCpuModel("model name\t:   \n"), std::nullopt);
  EXPECT_EQ(parseCpuModel("model name\t: AMD EPYC 9654 96-Core Processor"),
            std::string("AMD EPYC 9654 96-Core Processor"));
}

TEST_F(FakeSysfs, ReadCpuModelFromAFile) {
  const std::string path = root_ + "/cpuinfo";
  EXPECT_EQ(readCpuModel(path), std::nullopt);
  write(path, kX86Cpuinfo);
  EXPECT_EQ(readCpuModel(path), std::string("Intel(R) Xeon(R) Platinum 8480C"));
  write(path, kAarch64Cpuinfo);
  EXPECT_EQ(readCpuModel(path), std::nullopt);
}

TEST(PcieGeneration, EachRateAndNothingElse) {
  EXPECT_EQ(pcieGeneration(2.5), 1);
  EXPECT_EQ(pcieGeneration(5.0), 2);
  EXPECT_EQ(pcieGeneration(8.0), 3);
  EXPECT_EQ(pcieGeneration(16.0), 4);
  EXPECT_EQ(pcieGeneration(32.0), 5);
  EXPECT_EQ(pcieGeneration(64.0), 6);
  EXPECT_EQ(pcieGeneration(128.0), 7);
  for (double gts : {0.0, -8.0, 1.0, 2.0, 10.0, 20.0, 256.0}) EXPECT_EQ(pcieGeneration(gts), 0);
}

TEST(PcieGbPerSecond, EncodingPerGeneration) {
  // 128b/130b from Gen3 on; 8b/10b before.
  EXPECT_NEAR(*pcieGbPerSecond(8.0, 16), 15.754, 5e-4);
  EXPECT_NEAR(*pcieGbPerSecond(16.0, 16), 31.508, 5e-4);
  EXPECT_NEAR(*pcieGbPerSecond(32.0, 16), 63.015, 5e-4);
  EXPECT_NEAR(*pcieGbPerSecond(32.0, 16), 32.0 * 16 * 128 / 130 / 8, 1e-12);
  EXPECT_DOUBLE_EQ(*pcieGbPerSecond(2.5, 1), 0.25);
  EXPECT_DOUBLE_EQ(*pcieGbPerSecond(5.0, 16), 8.0);
  EXPECT_NEAR(*pcieGbPerSecond(16.0, 8), 15.754, 5e-4);
}

TEST(PcieGbPerSecond, FlitModeUnknownRateAndNoLanesAreNotGuessed) {
  EXPECT_EQ(pcieGbPerSecond(64.0, 16), std::nullopt);
  EXPECT_EQ(pcieGbPerSecond(128.0, 16), std::nullopt);
  EXPECT_EQ(pcieGbPerSecond(10.0, 16), std::nullopt);
  EXPECT_EQ(pcieGbPerSecond(32.0, 0), std::nullopt);
  EXPECT_EQ(pcieGbPerSecond(32.0, -1), std::nullopt);
}

TEST_F(FakeSysfs, ReadLinkThenRate) {
  const auto link = readPcieLink(gen5Device());
  ASSERT_TRUE(link.has_value());
  EXPECT_EQ(pcieGeneration(link->currentGts), 5);
  EXPECT_NEAR(*pcieGbPerSecond(link->currentGts, link->currentWidth), 63.015, 5e-4);
}

}  // namespace test_host_facts
}  // namespace nvbw
