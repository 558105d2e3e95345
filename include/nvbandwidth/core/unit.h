// The unit of a measured value, for the engine, the report and every view of it.
#pragma once

namespace nvbw {

enum class Unit { GBps, Nanoseconds };  // Nanoseconds: a latency, lower is better
// "GB/s" or "ns", as the text and JSON outputs write it.
inline const char* unitName(Unit unit) { return unit == Unit::Nanoseconds ? "ns" : "GB/s"; }

}  // namespace nvbw
