#include "core/say_line.h"

#include <string>

namespace nvbw {

void sayLine(std::ostream& out, std::string_view line) {
  const std::string whole = std::string(line) + '\n';
  out.write(whole.data(), static_cast<std::streamsize>(whole.size()));
  out.flush();
}

}  // namespace nvbw
