#include "core/say_line.h"

#include <string>

namespace nvbw {

void sayLine(std::ostream& out, std::string_view line) {
  std::string whole;
  whole.reserve(line.size() + 1);
  whole.append(line);
  whole.push_back('\n');
  out.write(whole.data(), static_cast<std::streamsize>(whole.size()));
  out.flush();
}

}  // namespace nvbw
