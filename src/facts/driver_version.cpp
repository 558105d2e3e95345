#include "facts/driver_version.h"

#include <optional>
#include <regex>

#include "facts/host_facts.h"
#include "facts/nvml.h"

namespace nvbw {

std::string parseProcDriverVersion(const std::string& procText) {
  // "... Kernel Module  580.95.05  Thu Sep ...", or the open module's "... Open Kernel Module for
  // x86_64  580.159.04": the first dotted version after "Kernel Module" (x86_64 is not one).
  static const std::regex pattern(R"(Kernel Module.*?\s([0-9]+(?:\.[0-9]+)+)(?:\s|$))");
  std::smatch m;
  return std::regex_search(procText, m, pattern) ? m[1].str() : "";
}

std::string readDriverVersion() {
  if (const std::optional<std::string> proc = readText("/proc/driver/nvidia/version")) {
    const std::string v = parseProcDriverVersion(*proc);
    if (!v.empty()) return v;
  }
  const std::optional<Nvml> nvml = Nvml::open();
  const std::string v = nvml ? nvml->driverVersion() : "";
  return v.empty() ? "unknown" : v;
}

}  // namespace nvbw
