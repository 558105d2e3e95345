// The unit of a measured value, for the engine, the report and every view of it.
#pragma once

namespace nvbw {

enum class Unit { GBps, Nanoseconds };  // Nanoseconds: a latency, lower is better
const char* unitName(Unit unit);        // "GB/s" or "ns", as the text and JSON outputs write it

}  // namespace nvbw
