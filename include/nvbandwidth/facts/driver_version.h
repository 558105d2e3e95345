// The kernel driver's version, which the driver API does not give.
#pragma once

#include <string>

namespace nvbw {

// Parses the driver version out of /proc/driver/nvidia/version's text; "" when absent.
std::string parseProcDriverVersion(const std::string& procText);

// The kernel driver's version: /proc/driver/nvidia/version, else NVML loaded at run time
// (nvmlSystemGetDriverVersion); "unknown" when neither says.
std::string readDriverVersion();

}  // namespace nvbw
