// What the text views of the fleet commands share (comparison_views.cpp, expectations_views.cpp):
// the width they wrap to, names from reports made safe for a terminal, and wrapped lists.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace nvbw::text_view {

inline constexpr std::size_t kTextWidth = 80;

// A name, note or reason that came from a report: control bytes escaped, at most 200 characters.
std::string safe(const std::string& text);

std::vector<std::string> safeAll(const std::vector<std::string>& texts);

// "Title (n): a, b, c" ("Title: a, b, c" when `counted` is false) wrapped to kTextWidth,
// continuation lines indented by two spaces. Items are printed as given: make them safe first.
std::string wrappedList(const std::string& title, const std::vector<std::string>& items,
                        bool counted = true);

}  // namespace nvbw::text_view
