#include "core/format.h"

#include <algorithm>
#include <iomanip>
#include <locale>
#include <sstream>

namespace nvbw {
namespace {

std::string classic(double value, int precision, std::ios_base::fmtflags notation) {
  std::ostringstream s;
  s.imbue(std::locale::classic());  // a global locale must not add digit grouping
  s.setf(notation, std::ios_base::floatfield);
  s << std::setprecision(precision) << value;
  return s.str();
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// Digits from `at` with single underscores between them; where they end (at when none).
std::size_t digitsFrom(const std::string& t, std::size_t at) {
  std::size_t end = at;
  while (end < t.size() && isDigit(t[end])) {
    ++end;
    if (end + 1 < t.size() && t[end] == '_' && isDigit(t[end + 1])) ++end;
  }
  return end;
}

std::string lowered(std::string text) {
  for (char& c : text)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return text;
}

}  // namespace

std::string fixed(double value, int decimals) {
  return classic(value, decimals, std::ios_base::fixed);
}

std::string significant(double value, int digits) { return classic(value, digits, {}); }

std::string cudaVersionText(std::uint64_t version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10) + " (" +
         std::to_string(version) + ")";
}

std::string cellName(std::size_t row, std::size_t col) {
  return "[" + std::to_string(row) + "][" + std::to_string(col) + "]";
}

std::string atSize(const std::optional<std::uint64_t>& sizeMiB) {
  return sizeMiB ? " at " + std::to_string(*sizeMiB) + " MiB" : "";
}

std::string rightAligned(const std::string& text, int width) {
  const auto pad = static_cast<std::size_t>(std::max(width, 0));
  return text.size() < pad ? std::string(pad - text.size(), ' ') + text : text;
}

std::string leftAligned(const std::string& text, std::size_t width) {
  return text.size() < width ? text + std::string(width - text.size(), ' ') : text;
}

bool readsAsNumber(const std::string& token) {
  std::size_t at = token.empty() ? 0 : (token[0] == '+' || token[0] == '-') ? 1 : 0;
  const std::string word = lowered(token.substr(at));
  if (word == "inf" || word == "infinity" || word == "nan") return true;
  const std::size_t whole = digitsFrom(token, at);
  std::size_t end = whole;
  if (end < token.size() && token[end] == '.') end = digitsFrom(token, end + 1);
  if (whole == at && end <= at + 1) return false;  // no digit before or after the point
  if (end < token.size() && (token[end] == 'e' || token[end] == 'E')) {
    std::size_t exponent = end + 1;
    if (exponent < token.size() && (token[exponent] == '+' || token[exponent] == '-')) ++exponent;
    const std::size_t digits = digitsFrom(token, exponent);
    if (digits == exponent) return false;
    end = digits;
  }
  return end == token.size();
}

std::string withoutNumberTokens(const std::string& text) {
  std::string out;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t start = text.find_first_not_of(" \t\n", at);
    out += text.substr(at, (start == std::string::npos ? text.size() : start) - at);
    if (start == std::string::npos) break;
    const std::size_t end = std::min(text.find_first_of(" \t\n", start), text.size());
    const std::string token = text.substr(start, end - start);
    out += readsAsNumber(token) ? "'" + token + "'" : token;
    at = end;
  }
  return out;
}

}  // namespace nvbw
