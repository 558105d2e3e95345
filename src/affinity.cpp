#include "nvbandwidth/affinity.h"

#include <cstdio>
#include <fstream>
#include <sstream>

namespace nvbw {

std::optional<std::vector<int>> parseCpuList(const std::string& text) {
  std::vector<int> cpus;
  std::string trimmed;
  for (char c : text)
    if (c != '\n' && c != ' ') trimmed += c;
  if (trimmed.empty()) return std::nullopt;
  std::stringstream in(trimmed);
  std::string range;
  while (std::getline(in, range, ',')) {
    int first = 0, last = 0;
    char extra = 0;
    if (std::sscanf(range.c_str(), "%d-%d%c", &first, &last, &extra) == 2) {
    } else if (std::sscanf(range.c_str(), "%d%c", &first, &extra) == 1) {
      last = first;
    } else {
      return std::nullopt;
    }
    if (first < 0 || last < first) return std::nullopt;
    for (int cpu = first; cpu <= last; ++cpu) cpus.push_back(cpu);
  }
  return cpus;
}

std::optional<std::vector<int>> localCpusOf(const DeviceInfo& device) {
  // sysfs names the domain with 4 hex digits normally and 8 for large domains (VMD).
  for (const char* format : {"/sys/bus/pci/devices/%04x:%02x:%02x.0/local_cpulist",
                             "/sys/bus/pci/devices/%08x:%02x:%02x.0/local_cpulist"}) {
    char path[128];
    std::snprintf(path, sizeof path, format, device.pciDomain, device.pciBus, device.pciDevice);
    std::ifstream file(path);
    if (!file) continue;
    std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    return parseCpuList(text);
  }
  return std::nullopt;
}

AffinityGuard::AffinityGuard(const std::vector<int>& cpus) {
  if (cpus.empty() || sched_getaffinity(0, sizeof previous_, &previous_) != 0) return;
  cpu_set_t wanted;
  CPU_ZERO(&wanted);
  for (int cpu : cpus)
    if (cpu < CPU_SETSIZE) CPU_SET(cpu, &wanted);
  applied_ = sched_setaffinity(0, sizeof wanted, &wanted) == 0;
}

AffinityGuard::~AffinityGuard() {
  if (applied_) sched_setaffinity(0, sizeof previous_, &previous_);
}

}  // namespace nvbw
