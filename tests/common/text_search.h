// Counting occurrences in a report's text, for tests that check a line appears once per run.
#pragma once

#include <string>

namespace nvbw::test {

// Occurrences of `what` in `text`, overlapping ones included.
inline int countOf(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace nvbw::test
