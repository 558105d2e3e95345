#include "core/utc_time.h"

#include <ctime>

namespace nvbw {

std::string isoUtcSeconds(std::chrono::system_clock::time_point when) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(when);
  std::tm utc{};
  ::gmtime_r(&seconds, &utc);
  char text[32];
  // strftime bounds the text by the buffer (the years of a time_t fit 32 bytes).
  if (std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc) == 0) return "";
  return text;
}

}  // namespace nvbw
