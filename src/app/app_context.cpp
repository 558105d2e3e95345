#include "app/app_context.h"

#include <cerrno>
#include <cstring>
#include <ostream>

#include "core/escape.h"

namespace nvbw {

std::string usageErrorLine(const std::string& message) {
  return "nvbandwidth: " + escapeForTerminal(message) + " (see nvbandwidth --help)\n";
}

void checkWritable(std::ostream& stream, const char* name) {
  if (stream) return;
  const int saved = errno;
  throw WriteFailed(std::string("cannot write to standard ") + name +
                    (saved ? std::string(": ") + std::strerror(saved) : std::string()));
}

}  // namespace nvbw
