#include "nvbandwidth/affinity.h"

#include "nvbandwidth/host_facts.h"

namespace nvbw {

std::optional<std::vector<int>> parseCpuList(const std::string& text) {
  // sysfs writes "0-3,8,10-11\n": trim the ends only; anything else malformed is rejected.
  const auto first = text.find_first_not_of(" \t\n");
  if (first == std::string::npos) return std::nullopt;
  const std::string list = text.substr(first, text.find_last_not_of(" \t\n") - first + 1);
  auto number = [](const std::string& s, int* out) {
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 6)
      return false;
    *out = std::stoi(s);
    return true;
  };
  std::vector<int> cpus;
  std::size_t pos = 0;
  while (true) {
    const std::size_t comma = list.find(',', pos);
    const std::string field = list.substr(pos, comma == std::string::npos ? comma : comma - pos);
    const std::size_t dash = field.find('-');
    int lo = 0, hi = 0;
    if (dash == std::string::npos) {
      if (!number(field, &lo)) return std::nullopt;
      hi = lo;
    } else if (!number(field.substr(0, dash), &lo) || !number(field.substr(dash + 1), &hi) ||
               hi < lo) {
      return std::nullopt;
    }
    for (int cpu = lo; cpu <= hi; ++cpu) cpus.push_back(cpu);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return cpus;
}

std::optional<std::vector<int>> localCpusOf(const DeviceInfo& device) {
  const auto list = readLocalCpuList(pciSysfsDir(device));
  return list ? parseCpuList(*list) : std::nullopt;
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
