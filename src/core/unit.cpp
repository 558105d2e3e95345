#include "core/unit.h"

namespace nvbw {

const char* unitName(Unit unit) { return unit == Unit::Nanoseconds ? "ns" : "GB/s"; }

}  // namespace nvbw
