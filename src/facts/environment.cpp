#include "facts/environment.h"

#include "core/format.h"
#include "facts/link_peaks.h"

namespace nvbw {
namespace {

std::string gpuName(std::size_t device) { return "GPU " + std::to_string(device); }

bool trainedBelowMaximum(const PcieLinkState& l) {
  return l.currentGts < l.maxGts || l.currentWidth < l.maxWidth;
}

std::string downTrainedLine(std::size_t device, const PcieLinkState& l, const char* when) {
  return "WARNING: " + gpuName(device) + ": PCIe link " + when + " " +
         pcieLinkName(l.currentGts, l.currentWidth) + ", below its maximum " +
         pcieLinkName(l.maxGts, l.maxWidth) + ": host copies are bounded by the lower rate.";
}

}  // namespace

std::vector<std::string> environmentWarnings(const EnvironmentSnapshot& snapshot) {
  std::vector<std::string> lines;
  for (std::size_t d = 0; d < snapshot.gpus.size(); ++d) {
    const GpuEnvironment& g = snapshot.gpus[d];
    if (g.pcie && trainedBelowMaximum(*g.pcie))
      lines.push_back(downTrainedLine(d, *g.pcie, "trained at"));
    if (g.migEnabled.value_or(false))
      lines.push_back("WARNING: " + gpuName(d) +
                      ": MIG mode is enabled: a MIG instance has a share of the GPU's copy "
                      "engines, SMs and memory bandwidth.");
    if (g.clocksLocked.value_or(false))
      lines.push_back("WARNING: " + gpuName(d) +
                      ": application clocks are set away from their defaults: SM-issued copies "
                      "and device memory run at the set clocks.");
  }
  return lines;
}

std::vector<std::string> runWarnings(const EnvironmentSnapshot& start,
                                     const EnvironmentSnapshot& end) {
  std::vector<std::string> lines;
  for (std::size_t d = 0; d < start.gpus.size() && d < end.gpus.size(); ++d) {
    const GpuEnvironment& a = start.gpus[d];
    const GpuEnvironment& b = end.gpus[d];
    if (a.throttleNs && b.throttleNs && *b.throttleNs > *a.throttleNs)
      lines.push_back("WARNING: " + gpuName(d) +
                      ": clocks were held down for power or thermal reasons for " +
                      fixed((*b.throttleNs - *a.throttleNs) / 1e9) +
                      " s during the run: its figures may be low.");
    const bool wasFine = !a.pcie || !trainedBelowMaximum(*a.pcie);
    if (wasFine && b.pcie && trainedBelowMaximum(*b.pcie))
      lines.push_back(downTrainedLine(d, *b.pcie, "trained down during the run to"));
  }
  return lines;
}

}  // namespace nvbw
