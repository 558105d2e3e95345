// What the host says about itself and about a GPU's place in it, read from sysfs and /proc: the
// GPU's PCIe link, NUMA node and local CPUs, the CPU model and the online NUMA nodes. Every reader
// takes its path so tests can point it at a fake tree; nullopt means "the machine did not say"
// (VMs, containers without /sys, aarch64 /proc/cpuinfo), never a guess.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "platform/link_facts.h"
#include "platform/system_facts.h"

namespace nvbw {

// The whole file at `path`; nullopt when it cannot be read. sysfs and /proc report a size of 0,
// so this reads to the end rather than by size.
std::optional<std::string> readText(const std::string& path);

// The device's name under /sys/bus/pci/devices: "0000:9b:00.0", as the kernel spells it
// ("%04x:%02x:%02x.%d", lowercase; a domain above 0xffff simply gets more digits). Function 0:
// the driver reports no function number, and a GPU's own function is 0 (audio, USB are 1-3).
std::string pciSysfsName(const DeviceInfo& device);

std::string pciSysfsDir(const DeviceInfo& device,
                        const std::string& devicesRoot = "/sys/bus/pci/devices");

// Parses current_link_speed / max_link_speed: "32.0 GT/s PCIe", older kernels "8 GT/s" or
// "5.0 GT/s". Returns GT/s per lane; nullopt for "Unknown", "Unknown speed", conventional PCI
// speeds in MHz and anything else.
std::optional<double> parseLinkSpeed(const std::string& text);

// The link from <deviceDir>/{current,max}_link_{speed,width}; nullopt when any of the four is
// missing or unparseable, or a width is not positive (the link is down or not PCIe).
std::optional<PcieLinkState> readPcieLink(const std::string& deviceDir);

// <deviceDir>/numa_node; nullopt when missing, unparseable or -1 (no NUMA affinity).
std::optional<int> readNumaNode(const std::string& deviceDir);

// <deviceDir>/local_cpulist, trimmed ("0-47,96-143"); nullopt when missing or not a CPU list.
std::optional<std::string> readLocalCpuList(const std::string& deviceDir);

// Parses a Linux CPU list such as "0-3,8,10-11". Returns nullopt for malformed text.
std::optional<std::vector<int>> parseCpuList(const std::string& text);

// The CPUs local to a PCI device, from /sys/bus/pci/devices/<bdf>/local_cpulist; nullopt when
// sysfs does not say (VMs, containers without /sys).
std::optional<std::vector<int>> localCpusOf(const DeviceInfo& device);

// The first "model name" of /proc/cpuinfo's text, trimmed. aarch64 has no such line (only
// implementer/part numbers), so it gives nullopt rather than a name made up from them.
std::optional<std::string> parseCpuModel(const std::string& cpuinfoText);
std::optional<std::string> readCpuModel(const std::string& path = "/proc/cpuinfo");

// The online NUMA nodes as the kernel lists them ("0-1", "0"), trimmed; nullopt when missing or
// malformed.
std::optional<std::string>
readOnlineNumaNodes(const std::string& path = "/sys/devices/system/node/online");

// The soft limit on the memory this process may lock (RLIMIT_MEMLOCK, `ulimit -l`), in bytes;
// nullopt when unlimited or not known.
std::optional<std::uint64_t> lockedMemoryLimit();

// The PCIe generation of a per-lane rate: 2.5 -> 1, 5 -> 2, 8 -> 3, 16 -> 4, 32 -> 5, 64 -> 6,
// 128 -> 7; 0 for any other rate.
int pcieGeneration(double gts);

// The link's data rate per direction in GB/s (1e9 bytes): rate x lanes x encoding efficiency / 8,
// with 8b/10b for Gen1-2 and 128b/130b for Gen3-5. nullopt for Gen6+ (FLIT mode: the overhead
// depends on the FLIT layout, and we do not guess), unknown rates and non-positive widths.
std::optional<double> pcieGbPerSecond(double gts, int width);

}  // namespace nvbw
