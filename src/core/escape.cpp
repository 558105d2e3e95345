#include "core/escape.h"

#include <cstdio>

namespace nvbw {

std::string escapeForTerminal(const std::string& text, std::size_t maxChars) {
  std::string out;
  std::size_t consumed = 0;
  for (; consumed < text.size() && out.size() < maxChars; ++consumed) {
    const auto c = static_cast<unsigned char>(text[consumed]);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c >= 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  if (consumed < text.size()) out += "... (" + std::to_string(text.size()) + " bytes)";
  return out;
}

std::string quotedArgument(const std::string& argument) {
  return "'" + escapeForTerminal(argument, 64) + "'";
}

}  // namespace nvbw
