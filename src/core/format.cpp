#include "core/format.h"

#include <iomanip>
#include <locale>
#include <sstream>

namespace nvbw {

std::string fixed2(double value) {
  std::ostringstream s;
  s.imbue(std::locale::classic());  // a global locale must not add digit grouping
  s << std::fixed << std::setprecision(2) << value;
  return s.str();
}

std::string rightAligned(const std::string& text, int width) {
  std::ostringstream s;
  s << std::setw(width) << text;
  return s.str();
}

}  // namespace nvbw
