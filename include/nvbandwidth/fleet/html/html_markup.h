// Building blocks of the HTML report (internal to it): escaping, elements, numbers and colours.
// Every string that comes from a report goes through escapeXml, so the page stays well-formed XML
// whatever the JSON holds; elements are always closed, attributes always quoted.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace nvbw::html {

// &, <, >, " and ' as the entities XML predefines; characters XML 1.0 forbids (C0 controls but
// tab, newline and carriage return; U+FFFE, U+FFFF) and bytes that are not UTF-8 become U+FFFD.
std::string escapeXml(const std::string& text);

// ` name="value"`, the value escaped.
std::string attr(const std::string& name, const std::string& value);

// <name attrs>inner</name>; `inner` is markup already.
std::string element(const std::string& name, const std::string& attrs, const std::string& inner);

// <name attrs>text</name> with `text` escaped.
std::string textElement(const std::string& name, const std::string& attrs, const std::string& text);

// <name attrs/>: for void HTML elements and SVG only, because an HTML parser ignores "/>" on any
// other HTML element and would leave it open.
std::string emptyElement(const std::string& name, const std::string& attrs);

// Fixed notation, `decimals` digits, classic locale ("55.39").
std::string fixed(double value, int decimals);

// A value as the page shows it in a cell or a sentence: one decimal.
std::string number(double value);

// A JSON number in fixed notation; anything else as scalarText says it ("unknown" for null).
std::string fixedOrText(const nlohmann::json& value, int decimals);

// The shortest text that reads back as the same double, as the JSON writer prints it.
std::string exactNumber(double value);

// A JSON scalar as a reader wants it: null is "unknown", booleans "yes"/"no", strings as they are,
// numbers as JSON writes them; arrays are joined with ", ".
std::string scalarText(const nlohmann::json& value);

// object[key], or null when `object` is not an object or has no such key: a reference into the
// document (unlike json::value, which copies).
const nlohmann::json& member(const nlohmann::json& object, const char* key);

// &grid[row][col], or nullptr when the grid has no such cell.
const nlohmann::json* cellAt(const nlohmann::json& grid, std::size_t row, std::size_t col);

// grid[row][col] when it is a number.
std::optional<double> numberAt(const nlohmann::json& grid, std::size_t row, std::size_t col);

// A byte count as "2.00 GiB".
std::string byteText(double bytes);

struct Rgb {
  double r = 0, g = 0, b = 0;  // 0..1, sRGB
};

// The colour of `t` (0 worst .. 1 best, clamped) on the report's palette: viridis, which stays
// ordered in greyscale and for colour-blind readers.
Rgb paletteColour(double t);
std::string hexColour(const Rgb& c);

// "#000000" or "#ffffff", whichever has the higher WCAG contrast ratio with `background`.
std::string textColourOn(const Rgb& background);

}  // namespace nvbw::html
