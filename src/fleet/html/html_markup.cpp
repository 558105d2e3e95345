#include "fleet/html/html_markup.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <utility>

#include "core/escape.h"

namespace nvbw::html {

namespace {

constexpr const char* kReplacement = "\xEF\xBF\xBD";  // U+FFFD in UTF-8

// What XML 1.0 allows, less DEL and the C1 controls it only discourages: a page shows no control
// character that came from a report (a terminal that prints the page's text must not act on it).
bool allowedInXml(char32_t cp) {
  if (cp == 0x9 || cp == 0xA || cp == 0xD) return true;
  return !isControlCharacter(cp) && cp != 0xFFFE && cp != 0xFFFF;
}

const char* entityFor(char c) {
  static const std::pair<char, const char*> entities[] = {
      {'&', "&amp;"}, {'<', "&lt;"}, {'>', "&gt;"}, {'"', "&quot;"}, {'\'', "&#39;"}};
  for (const auto& [character, entity] : entities)
    if (c == character) return entity;
  return nullptr;
}

// &, <, >, " and ' as the entities XML predefines; characters XML 1.0 forbids (C0 controls but
// tab, newline and carriage return; U+FFFE, U+FFFF) and bytes that are not UTF-8 become U+FFFD.
std::string escapeXml(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    char32_t cp = 0;
    const std::size_t length = utf8Sequence(text, i, cp);
    if (length == 0 || !allowedInXml(cp))
      out += kReplacement;
    else if (const char* entity = length == 1 ? entityFor(text[i]) : nullptr)
      out += entity;
    else
      out.append(text, i, length);
    i += std::max<std::size_t>(length, 1);
  }
  return out;
}

}  // namespace

std::string attr(const std::string& name, const std::string& value) {
  return " " + name + "=\"" + escapeXml(value) + "\"";
}

std::string element(const std::string& name, const std::string& attrs, const std::string& inner) {
  return "<" + name + attrs + ">" + inner + "</" + name + ">";
}

std::string textElement(const std::string& name, const std::string& attrs,
                        const std::string& text) {
  return element(name, attrs, escapeXml(text));
}

std::string emptyElement(const std::string& name, const std::string& attrs) {
  return "<" + name + attrs + "/>";
}

std::string headerRow(const std::vector<std::string>& titles) {
  std::string cells;
  for (const std::string& title : titles) cells += textElement("th", "", title);
  return element("tr", "", cells);
}

std::string itemList(const std::vector<std::string>& items, const std::string& attrs) {
  std::string list;
  for (const std::string& item : items) list += textElement("li", "", item);
  return element("ul", attrs, list);
}

std::string section(const std::string& attrs, const std::string& title, const std::string& inner) {
  return element("section", attrs, textElement("h2", "", title) + inner);
}

std::string table(const std::string& attrs, const std::string& head, const std::string& rows) {
  return element("table", attrs, element("thead", "", head) + element("tbody", "", rows));
}

std::string page(const std::string& title, const char* styleSheet, const std::string& body) {
  // No xmlns: the page is parsed as HTML by browsers and must name nothing on the network.
  return "<!DOCTYPE html>\n" +
         element("html", attr("lang", "en"),
                 element("head", "",
                         emptyElement("meta", attr("charset", "utf-8")) +
                             textElement("title", "", title) + element("style", "", styleSheet)) +
                     element("body", "", body)) +
         "\n";
}

std::string number(double value) { return fixed(value, 1); }

Rgb paletteColour(double t) {
  // Viridis at five evenly spaced stops; linear between them is close enough for a heatmap.
  static const std::array<Rgb, 5> stops = {{{0x44 / 255.0, 0x01 / 255.0, 0x54 / 255.0},
                                            {0x3b / 255.0, 0x52 / 255.0, 0x8b / 255.0},
                                            {0x21 / 255.0, 0x91 / 255.0, 0x8c / 255.0},
                                            {0x5e / 255.0, 0xc9 / 255.0, 0x62 / 255.0},
                                            {0xfd / 255.0, 0xe7 / 255.0, 0x25 / 255.0}}};
  const double x = std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0) * (stops.size() - 1);
  const std::size_t low = std::min<std::size_t>(static_cast<std::size_t>(x), stops.size() - 2);
  const double f = x - static_cast<double>(low);
  const Rgb& a = stops[low];
  const Rgb& b = stops[low + 1];
  return {a.r + (b.r - a.r) * f, a.g + (b.g - a.g) * f, a.b + (b.b - a.b) * f};
}

std::string hexColour(const Rgb& c) {
  std::ostringstream s;
  s << '#' << std::hex << std::setfill('0');
  for (double channel : {c.r, c.g, c.b})
    s << std::setw(2) << static_cast<int>(std::lround(std::clamp(channel, 0.0, 1.0) * 255.0));
  return s.str();
}

std::string textColourOn(const Rgb& c) {
  const auto linear = [](double v) {
    return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
  };
  const double l = 0.2126 * linear(c.r) + 0.7152 * linear(c.g) + 0.0722 * linear(c.b);  // WCAG
  const double againstBlack = (l + 0.05) / 0.05;
  const double againstWhite = 1.05 / (l + 0.05);
  return againstBlack >= againstWhite ? "#000000" : "#ffffff";
}

}  // namespace nvbw::html
