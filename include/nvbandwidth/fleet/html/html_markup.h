// Building blocks of the HTML report (internal to it): escaping, elements, numbers and colours.
// attr and textElement escape every string they are given (escapeXml in the .cpp), so the page
// stays well-formed XML whatever the JSON holds; elements are always closed, attributes quoted.
#pragma once

#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "core/format.h"
#include "model/report.h"
#include "model/report_writer.h"

namespace nvbw::html {

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

namespace detail {
template <typename T> struct IsOptional : std::false_type {};
template <typename T> struct IsOptional<std::optional<T>> : std::true_type {};
template <typename T> struct IsVector : std::false_type {};
template <typename T> struct IsVector<std::vector<T>> : std::true_type {};
}  // namespace detail

// A record's field as a reader wants it: absent or null "unknown", booleans "yes"/"no", numbers
// as JSON writes them, strings as they are, lists joined with ", ".
template <typename T> std::string shown(const T& value) {
  if constexpr (std::is_same_v<T, bool>) {
    return value ? "yes" : "no";
  } else if constexpr (std::is_integral_v<T>) {
    return std::to_string(value);
  } else if constexpr (std::is_floating_point_v<T>) {
    return jsonNumberText(value);
  } else if constexpr (detail::IsOptional<T>::value) {
    return value ? shown(*value) : "unknown";
  } else if constexpr (detail::IsVector<T>::value) {
    std::string text;
    for (const auto& item : value) text += (text.empty() ? "" : ", ") + shown(item);
    return text;
  } else {
    return value;
  }
}

// The same, nullopt when the record has no such field.
template <typename T> std::optional<std::string> textIfAny(const std::optional<T>& field) {
  if (field) return shown(*field);
  return std::nullopt;
}

// A number in fixed notation with two decimals; "unknown" where it is absent or null.
inline std::string fixedOr(const OrNull& field) { return field ? fixed(*field, 2) : "unknown"; }
inline std::string fixedOr(const std::optional<OrNull>& field) {
  return fixedOr(field.value_or(std::nullopt));
}

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
