// Numbers as the reports print them, whatever the global locale.
#pragma once

#include <string>

namespace nvbw {

// Fixed, two decimals, in the classic locale: "55.45".
std::string fixed2(double value);

// `text` padded on the left with spaces to `width` characters (longer text as it is).
std::string rightAligned(const std::string& text, int width);

}  // namespace nvbw
