// Points in time as the reports record them.
#pragma once

#include <chrono>
#include <string>

namespace nvbw {

// ISO 8601 in UTC to the second: "2026-12-01T12:34:56Z" (the report's "started_at").
std::string isoUtcSeconds(std::chrono::system_clock::time_point when);

}  // namespace nvbw
