#include "nvbandwidth/system_info.h"

#include "nvbandwidth/nvml.h"

#include <unistd.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <regex>

namespace nvbw {

std::string formatBdf(const DeviceInfo& d) {
  std::array<char, 32> buf{};
  std::snprintf(buf.data(), buf.size(), "%08x:%02x:%02x", d.pciDomain, d.pciBus, d.pciDevice);
  return buf.data();
}

std::string formatUuid(const unsigned char (&bytes)[16]) {
  std::string text = "GPU-";
  char hex[3];
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) text += '-';
    std::snprintf(hex, sizeof hex, "%02x", bytes[i]);
    text += hex;
  }
  return text;
}

std::string parseProcDriverVersion(const std::string& procText) {
  // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.95.05  Thu Sep ...": the first dotted
  // version number after "Kernel Module".
  // The open module says "Open Kernel Module for x86_64  580.159.04": skip words with digits
  // that are not a dotted version.
  static const std::regex pattern(R"(Kernel Module.*?\s([0-9]+(?:\.[0-9]+)+)(?:\s|$))");
  std::smatch m;
  if (std::regex_search(procText, m, pattern)) return m[1].str();
  return "";
}

std::string hostName() {
  std::array<char, 256> buf{};
  if (gethostname(buf.data(), buf.size() - 1) != 0) return "unknown";
  return buf.data();
}


std::string readDriverVersion() {
  std::ifstream proc("/proc/driver/nvidia/version");
  if (proc) {
    std::string text((std::istreambuf_iterator<char>(proc)), std::istreambuf_iterator<char>());
    std::string v = parseProcDriverVersion(text);
    if (!v.empty()) return v;
  }
  const std::optional<Nvml> nvml = Nvml::open();
  const std::string v = nvml ? nvml->driverVersion() : "";
  return v.empty() ? "unknown" : v;
}

}  // namespace nvbw
