// Points in time as the reports record them.
#pragma once

#include <chrono>
#include <optional>
#include <string>

namespace nvbw {

// ISO 8601 in UTC to the second: "2026-12-01T12:34:56Z" (the report's "started_at").
std::string isoUtcSeconds(std::chrono::system_clock::time_point when);

// Seconds since the Unix epoch of an ISO 8601 date and time with a zone: "2026-12-01T12:34:56Z",
// "...56.250Z", "...56+02:00". nullopt for anything else (no zone, an impossible date).
std::optional<double> parseUtcTimestamp(const std::string& text);

}  // namespace nvbw
