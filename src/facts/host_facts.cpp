#include "facts/host_facts.h"

#include <sys/resource.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>

#include "core/text.h"

namespace nvbw {
namespace {

// "8", "2.5", "16.0": digits with at most one fraction. Checked by hand first because from_chars
// would also take exponents, "inf" and "nan"; from_chars itself ignores the locale, unlike strtod.
std::optional<double> parseRate(const std::string& text) {
  const auto dot = text.find('.');
  if (!allDigits(text.substr(0, dot))) return std::nullopt;
  if (dot != std::string::npos && !allDigits(text.substr(dot + 1))) return std::nullopt;
  double value = 0.0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || value <= 0.0) return std::nullopt;
  return value;
}

// The file's trimmed text as a decimal integer, "-1" too (from_chars alone would take "16abc").
std::optional<int> readInt(const std::string& path) {
  const std::string text = trimmed(readText(path).value_or(""));
  int value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

// Text that must be a Linux CPU list ("0-3,8"), trimmed; the node list has the same grammar.
std::optional<std::string> readCpuListText(const std::string& path) {
  const auto text = readText(path);
  if (!text || !parseCpuList(*text)) return std::nullopt;
  return trimmed(*text);
}

}  // namespace

std::optional<std::string> readText(const std::string& path) {
  std::ifstream file(path);
  if (!file) return std::nullopt;
  std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (file.bad()) return std::nullopt;
  return text;
}

std::string pciSysfsName(const DeviceInfo& device) {
  char name[32];
  std::snprintf(name, sizeof name, "%04x:%02x:%02x.0", device.pciDomain, device.pciBus,
                device.pciDevice);
  return name;
}

std::string pciSysfsDir(const DeviceInfo& device, const std::string& devicesRoot) {
  return devicesRoot + "/" + pciSysfsName(device);
}

std::optional<double> parseLinkSpeed(const std::string& text) {
  const std::string speed = trimmed(text);
  const std::string unit = " GT/s";
  const auto at = speed.find(unit);
  if (at == std::string::npos) return std::nullopt;
  const std::string rest = speed.substr(at + unit.size());
  if (!rest.empty() && rest != " PCIe") return std::nullopt;
  return parseRate(speed.substr(0, at));
}

std::optional<PcieLinkState> readPcieLink(const std::string& deviceDir) {
  const auto speed = [&](const char* file) {
    const auto text = readText(deviceDir + "/" + file);
    return text ? parseLinkSpeed(*text) : std::nullopt;
  };
  const auto currentGts = speed("current_link_speed");
  const auto maxGts = speed("max_link_speed");
  const auto currentWidth = readInt(deviceDir + "/current_link_width");
  const auto maxWidth = readInt(deviceDir + "/max_link_width");
  if (!currentGts || !maxGts || !currentWidth || !maxWidth) return std::nullopt;
  // A link that is down, or a device behind no PCIe link, reports width 0.
  if (*currentWidth <= 0 || *maxWidth <= 0) return std::nullopt;
  return PcieLinkState{*currentGts, *currentWidth, *maxGts, *maxWidth};
}

std::optional<int> readNumaNode(const std::string& deviceDir) {
  const auto node = readInt(deviceDir + "/numa_node");
  // -1: the firmware gave the device no NUMA affinity (single-node machines, many VMs).
  if (!node || *node < 0) return std::nullopt;
  return node;
}

std::optional<std::string> readLocalCpuList(const std::string& deviceDir) {
  return readCpuListText(deviceDir + "/local_cpulist");
}

std::optional<std::string> parseCpuModel(const std::string& cpuinfoText) {
  // "key<tabs>: value" lines, a block per logical CPU: the first speaks for the host's one model.
  std::istringstream lines(cpuinfoText);
  for (std::string line; std::getline(lines, line);) {
    const auto colon = line.find(':');
    if (colon == std::string::npos || trimmed(line.substr(0, colon)) != "model name") continue;
    const std::string model = trimmed(line.substr(colon + 1));
    if (model.empty()) return std::nullopt;
    return model;
  }
  return std::nullopt;
}

std::optional<std::string> readCpuModel(const std::string& path) {
  const auto text = readText(path);
  return text ? parseCpuModel(*text) : std::nullopt;
}

std::optional<std::string> readOnlineNumaNodes(const std::string& path) {
  return readCpuListText(path);
}

std::optional<std::uint64_t> lockedMemoryLimit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_MEMLOCK, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
    return std::nullopt;
  return static_cast<std::uint64_t>(limit.rlim_cur);
}

int pcieGeneration(double gts) {
  // The rates are exact in binary, but compare with a tolerance so that a rate computed
  // elsewhere (rather than parsed) still matches.
  constexpr double rates[] = {2.5, 5.0, 8.0, 16.0, 32.0, 64.0, 128.0};
  for (int i = 0; i < static_cast<int>(std::size(rates)); ++i)
    if (std::fabs(gts - rates[i]) < 1e-6) return i + 1;
  return 0;
}

std::optional<double> pcieGbPerSecond(double gts, int width) {
  const int generation = pcieGeneration(gts);
  if (width <= 0 || generation == 0 || generation >= 6) return std::nullopt;
  const double efficiency = generation <= 2 ? 8.0 / 10.0 : 128.0 / 130.0;
  return gts * width * efficiency / 8.0;
}

std::optional<std::vector<int>> parseCpuList(const std::string& text) {
  // sysfs writes "0-3,8,10-11\n": trim the ends only; anything else malformed is rejected.
  const std::string list = trimmed(text);
  if (list.empty()) return std::nullopt;
  auto number = [](const std::string& s) -> std::optional<int> {
    if (!allDigits(s) || s.size() > 6) return std::nullopt;
    return std::stoi(s);
  };
  std::vector<int> cpus;
  std::size_t pos = 0;
  while (true) {
    const std::size_t comma = list.find(',', pos);
    const std::string field = list.substr(pos, comma == std::string::npos ? comma : comma - pos);
    // "a-b", or "a" alone: a range of one.
    const std::size_t dash = field.find('-');
    const auto lo = number(field.substr(0, dash));
    const auto hi = dash == std::string::npos ? lo : number(field.substr(dash + 1));
    if (!lo || !hi || *hi < *lo) return std::nullopt;
    for (int cpu = *lo; cpu <= *hi; ++cpu) cpus.push_back(cpu);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return cpus;
}

std::optional<std::vector<int>> localCpusOf(const DeviceInfo& device) {
  const auto list = readLocalCpuList(pciSysfsDir(device));
  return list ? parseCpuList(*list) : std::nullopt;
}

}  // namespace nvbw
