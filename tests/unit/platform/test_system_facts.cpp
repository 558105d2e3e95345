// formatBdf and parseProcDriverVersion: the pure parts of the start-up system information.
#include <gtest/gtest.h>

#include <string>

#include "facts/driver_version.h"
#include "platform/system_facts.h"

namespace nvbw {
namespace test_system_facts {

DeviceInfo device(unsigned domain, unsigned bus, unsigned dev) {
  DeviceInfo d;
  d.name = "NVIDIA H200";
  d.pciDomain = domain;
  d.pciBus = bus;
  d.pciDevice = dev;
  return d;
}

// ---- formatBdf --------------------------------------------------------------------------------

TEST(FormatBdf, EightDigitDomainTwoDigitBusAndDevice) {
  EXPECT_EQ(formatBdf(device(0, 0x9b, 0)), "00000000:9b:00");
}

TEST(FormatBdf, IsLowercaseHex) {
  EXPECT_EQ(formatBdf(device(0, 0xAB, 0x1F)), "00000000:ab:1f");
  EXPECT_EQ(formatBdf(device(0xABCD, 0xCD, 0x0E)), "0000abcd:cd:0e");
}

TEST(FormatBdf, ZeroPadsSmallValues) { EXPECT_EQ(formatBdf(device(1, 4, 2)), "00000001:04:02"); }

TEST(FormatBdf, LargeVmdDomainUsesAllEightDigits) {
  EXPECT_EQ(formatBdf(device(0x10000, 0x01, 0x00)), "00010000:01:00");
}

// ---- parseProcDriverVersion -------------------------------------------------------------------

TEST(ParseProcDriverVersion, ProprietaryKernelModule) {
  const std::string text =
      "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.95.05  Thu Sep 25 18:55:13 UTC 2025\n"
      "GCC version:  gcc version 12.3.0 (Ubuntu 12.3.0-1ubuntu1~22.04)\n";
  EXPECT_EQ(parseProcDriverVersion(text), "580.95.05");
}

TEST(ParseProcDriverVersion, ProprietaryAarch64KernelModule) {
  const std::string text =
      "NVRM version: NVIDIA UNIX aarch64 Kernel Module  570.86.10  Sat Jan 18 00:45:48 UTC 2025\n"
      "GCC version:  gcc version 11.4.0 (Ubuntu 11.4.0-1ubuntu1~22.04)\n";
  EXPECT_EQ(parseProcDriverVersion(text), "570.86.10");
}

TEST(ParseProcDriverVersion, OpenKernelModule) {
  const std::string text =
      "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build  "
      "(dvs-builder@U22-I3-AF03-09-1)  Thu Mar  5 02:31:47 UTC 2026\n"
      "GCC version:  gcc version 13.3.0 (Ubuntu 13.3.0-6ubuntu2~24.04)\n";
  EXPECT_EQ(parseProcDriverVersion(text), "580.159.04");
}

TEST(ParseProcDriverVersion, OpenKernelModuleOnAarch64) {
  const std::string text =
      "NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  575.57.08  Release Build  "
      "(dvs-builder@U16-I2-C05-08-5)  Sat May 24 07:14:35 UTC 2025\n"
      "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n";
  EXPECT_EQ(parseProcDriverVersion(text), "575.57.08");
}

TEST(ParseProcDriverVersion, EmptyTextGivesEmptyVersion) {
  EXPECT_EQ(parseProcDriverVersion(""), "");
}

TEST(ParseProcDriverVersion, TextWithoutTheNvrmLineGivesEmptyVersion) {
  // The GCC line has a version too; it must not be taken for the driver's.
  EXPECT_EQ(parseProcDriverVersion("GCC version:  gcc version 12.3.0 (Ubuntu 12.3.0)\n"), "");
}

TEST(SystemFacts, UuidIsSpelledAsNvidiaSmiDoes) {
  const unsigned char bytes[16] = {0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0,
                                   0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef};
  EXPECT_EQ(formatUuid(bytes), "GPU-12345678-9abc-def0-0123-456789abcdef");
}

}  // namespace test_system_facts
}  // namespace nvbw
