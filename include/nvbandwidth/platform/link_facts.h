// What the machine says about the links a copy can cross: the GPU's PCIe link (sysfs), its
// NVLinks (NVML, loaded at run time) and its memory (driver attributes). Facts only: turning them
// into a peak per cell is link_peaks.h's job. Every fact is optional; nullopt means "the machine
// did not say", never a guess.
#pragma once

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <vector>

namespace nvbw {

// A PCIe link as sysfs describes it: transfer rate in GT/s per lane and lane count, as trained
// now (current_link_*) and at most (max_link_*).
struct PcieLinkState {
  double currentGts = 0.0;
  int currentWidth = 0;
  double maxGts = 0.0;
  int maxWidth = 0;
  bool operator==(const PcieLinkState& o) const {
    return currentGts == o.currentGts && currentWidth == o.currentWidth && maxGts == o.maxGts &&
           maxWidth == o.maxWidth;
  }
};

// One active NVLink of a GPU (NVML).
struct NvlinkLink {
  enum class Remote { Gpu, Switch, Other };
  int version = 0;                    // NVLink major.minor x 10: 40 = NVLink 4.0; 0 = unknown
  std::optional<double> gbPerSecond;  // per direction, GB/s (NVML speed in MB/s / 1000)
  Remote remote = Remote::Other;
  std::string remoteBusId;  // the far end's PCI bus id, "00000000:9B:00.0" as NVML spells it
};

// HBM (or other device memory) from cuDeviceGetAttribute: memory clock in kHz and bus width in
// bits. The data rate is two transfers per clock.
struct MemoryFacts {
  int clockKHz = 0;
  int busWidthBits = 0;
};

struct GpuLinkFacts {
  std::string busId;                  // this GPU's PCI bus id in NVML's spelling ("" unknown)
  std::optional<PcieLinkState> pcie;  // nullopt: sysfs does not say
  std::optional<bool> c2c;            // NVML C2C mode (Grace Hopper); nullopt: unknown
  // Active NVLinks; nullopt when NVML is missing or cannot say, empty when there are none.
  std::optional<std::vector<NvlinkLink>> nvlinks;
  std::optional<MemoryFacts> memory;
};

// A PCI bus id in one spelling: NVML's own id and a link's far end may differ in case and in the
// domain's width ("00000000:9B:00.0" and "0000:9b:00.0" name one GPU).
inline std::string normalizedBusId(std::string id) {
  std::transform(id.begin(), id.end(), id.begin(), [](unsigned char c) { return std::tolower(c); });
  const std::size_t colon = id.find(':');
  if (colon != std::string::npos && colon > 4) id.erase(0, colon - 4);
  return id;
}

}  // namespace nvbw
