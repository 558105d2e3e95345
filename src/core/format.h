// Numbers as the reports print them, whatever the global locale.
#pragma once

#include <string>

namespace nvbw {

// Fixed, two decimals, in the classic locale: "55.45".
std::string fixed2(double value);

}  // namespace nvbw
