#include "platform/system_facts.h"

#include <unistd.h>

#include <array>
#include <cstdio>

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

std::string hostName() {
  std::array<char, 256> buf{};
  return gethostname(buf.data(), buf.size() - 1) == 0 ? buf.data() : "unknown";
}

}  // namespace nvbw
