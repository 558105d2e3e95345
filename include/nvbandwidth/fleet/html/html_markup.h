// Building blocks of the HTML report (internal to it): escaping, elements, numbers and colours.
// Every string that comes from a report goes through escapeXml, so the page stays well-formed XML
// whatever the JSON holds; elements are always closed, attributes always quoted.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/format.h"
#include "model/report.h"

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

// <tr> of one <th> per title.
std::string headerRow(const std::vector<std::string>& titles);

// <ul attrs> with one <li> per item, each escaped.
std::string itemList(const std::vector<std::string>& items, const std::string& attrs);

// <section attrs> headed by an <h2> of `title`, then `inner`.
std::string section(const std::string& attrs, const std::string& title, const std::string& inner);

// <table attrs> of a <thead> holding the row `head` and a <tbody> holding `rows`.
std::string table(const std::string& attrs, const std::string& head, const std::string& rows);

// A whole page: the doctype, <head> with `title` and the inline `styleSheet`, and `body`.
std::string page(const std::string& title, const char* styleSheet, const std::string& body);

// A value as the page shows it in a cell or a sentence: one decimal.
std::string number(double value);

// A value as a reader wants it: null is "unknown", booleans "yes"/"no", strings as they are,
// numbers as JSON writes them; arrays are joined with ", ".
std::string scalarText(const Json& value);

// A record's typed fields as scalarText says them.
std::string textOf(const std::string& value);
std::string textOf(bool value);
std::string textOf(double value);
std::string textOf(std::uint64_t value);
std::string textOf(std::int64_t value);
std::string textOf(const std::optional<double>& value);       // null: "unknown"
std::string textOf(const std::optional<std::string>& value);  // null: "unknown"
template <typename T> std::string textOf(const std::vector<T>& values) {
  std::string text;
  for (const T& v : values) text += (text.empty() ? "" : ", ") + textOf(v);
  return text;
}

// A record's field as text; nullopt when the record has none.
template <typename T> std::optional<std::string> textIfAny(const std::optional<T>& field) {
  if (field) return textOf(*field);
  return std::nullopt;
}

// The same, "unknown" when the record has none.
template <typename T> std::string shown(const std::optional<T>& field) {
  return textIfAny(field).value_or("unknown");
}

// A field of a record that may be absent, as text; nullopt when either is.
template <typename Record, typename T>
std::optional<std::string> fieldText(const std::optional<Record>& record,
                                     std::optional<T> Record::*field) {
  return record ? textIfAny((*record).*field) : std::nullopt;
}

// A number in fixed notation, `decimals` digits; "unknown" without one.
std::string fixedOr(const std::optional<double>& field, int decimals);
std::string fixedOr(const std::optional<std::optional<double>>& field, int decimals);

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
