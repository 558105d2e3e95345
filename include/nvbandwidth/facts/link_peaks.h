// Theoretical peak per cell: which link bounds a cell's copies and how fast that link can go, in
// the cell's own counting convention (docs/peaks.md). Pure: facts come from the topology seam
// (link_facts.h), so faked PCIe, NVLink and HBM facts test all of it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "plans/plan.h"
#include "platform/link_facts.h"
#include "platform/topology.h"

namespace nvbw {

// A link and its peak. `name` is "PCIe Gen5 x16", "NVLink 4 x18", "NVLink 4 x18 (NVSwitch)",
// "HBM", "C2C" or "unknown"; `gbPerSecond` is nullopt where the rate is not known.
struct LinkPeak {
  std::string name = "unknown";
  std::optional<double> gbPerSecond;
};

// The link of a cell: the path of the copies it reports, the peak of those copies together and
// a readable name of the cell ("GPU 1 -> GPU 0", "Host -> GPU 0", "GPU 0 -> GPU 0").
struct CellLink {
  LinkPeak link;
  std::string cell;
  // How the cell's bytes relate to the link's: "per direction", "both directions", "all copies
  // at once", "bytes copied: memory traffic is twice that", "bytes read", "bytes written".
  std::string convention;
};

// Per direction, between a GPU and the host: its PCIe link as trained now; "C2C" with an unknown
// rate where NVML says the GPU talks to its CPU over C2C; "unknown" where sysfs does not say.
LinkPeak hostLinkPeak(const GpuLinkFacts& gpu);

// Per direction, from GPU a to GPU b: their direct NVLinks, else NVLinks through NVSwitches (the
// smaller side), else PCIe (the slower of the two links); "unknown" when NVML could not say
// whether they share NVLinks, or a fact the path needs is missing.
LinkPeak peerLinkPeak(const GpuLinkFacts& a, const GpuLinkFacts& b);

// Device memory: two transfers per memory clock over the bus width, divided by how many times
// each counted byte crosses it (2 for a copy: read and written; 1 for read-only or write-only).
LinkPeak memoryLinkPeak(const GpuLinkFacts& gpu, int trafficPerCountedByte);

// "PCIe Gen5 x16" and friends, for warnings as well as cells.
std::string pcieLinkName(double gts, int width);

// The link of every cell a plan writes, indexed [matrix][row * cols + col]; cells no output
// names get an "unknown" link. Multi-process plans' copies cross links of other processes'
// GPUs, which this process does not know: "unknown".
std::vector<std::vector<CellLink>> cellLinks(const Plan& plan, const Topology& topo);

}  // namespace nvbw
