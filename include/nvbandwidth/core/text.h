// Small string helpers that every layer uses.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace nvbw {

bool startsWith(std::string_view text, std::string_view prefix);
bool endsWith(std::string_view text, std::string_view suffix);
inline bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

// Non-empty and only the digits 0-9 (no sign, no space).
bool allDigits(std::string_view text);

// `text` without leading and trailing spaces, tabs, carriage returns and newlines.
std::string trimmed(std::string_view text);

// `parts` separated by `separator`: joined({"a", "b"}, ", ") is "a, b".
std::string joined(const std::vector<std::string>& parts, std::string_view separator);

}  // namespace nvbw
