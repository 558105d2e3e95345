// The environment snapshot: conditions of the machine that change what the numbers mean (clocks,
// power, temperature, modes, the PCIe link as trained, where host buffers live). NVML at run time
// where present, sysfs and the driver otherwise; a fact nobody could read is nullopt (JSON null).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "platform/link_facts.h"

namespace nvbw {

struct GpuEnvironment {
  std::optional<unsigned> smClockMHz;
  std::optional<unsigned> smClockMaxMHz;
  std::optional<unsigned> memoryClockMHz;
  std::optional<unsigned> memoryClockMaxMHz;
  // Application clocks set away from their defaults (nvidia-smi -ac); clocks locked with -lgc
  // are not visible through NVML and are not reported here.
  std::optional<bool> clocksLocked;
  std::optional<double> powerLimitW;
  std::optional<double> powerDrawW;
  std::optional<int> temperatureC;
  std::optional<bool> eccEnabled;
  std::optional<bool> persistenceMode;
  std::optional<bool> migEnabled;
  std::optional<std::string> computeMode;  // "Default", "Exclusive_Process", "Prohibited"
  // Cumulative time (ns) the GPU ran below its clocks for power or thermal reasons (NVML
  // violation counters); compared between the start and the end of the run.
  std::optional<std::uint64_t> throttleNs;
  std::optional<PcieLinkState> pcie;
  std::optional<int> numaNode;                // sysfs numa_node; nullopt when -1 or absent
  std::optional<std::string> hostBufferCpus;  // local_cpulist: where host buffers are bound
};

struct HostEnvironment {
  std::optional<std::string> cpuModel;   // /proc/cpuinfo "model name"
  std::optional<std::string> numaNodes;  // /sys/devices/system/node/online, e.g. "0-1"
};

struct EnvironmentSnapshot {
  HostEnvironment host;
  std::vector<GpuEnvironment> gpus;  // one per GPU of the run, in device order
  // Why NVML facts are absent ("libnvidia-ml.so.1 not found", ...); nullopt when NVML answered.
  std::optional<std::string> nvmlProblem;
};

// One line for each condition of `snapshot` known to lower bandwidth: a PCIe link trained below
// its maximum, MIG enabled, clocks locked or set away from their defaults.
std::vector<std::string> environmentWarnings(const EnvironmentSnapshot& snapshot);

// Lines for what changed between the start and the end of the run: GPUs whose clocks were held
// down for power or thermal reasons meanwhile, PCIe links that trained down during the run.
std::vector<std::string> runWarnings(const EnvironmentSnapshot& start,
                                     const EnvironmentSnapshot& end);

}  // namespace nvbw
