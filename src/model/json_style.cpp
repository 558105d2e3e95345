#include "model/json_style.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>
#include <string>

namespace nvbw {

namespace core {

std::string jsonDouble(double value) {
  // jsoncpp writes NaN as null and infinity as 1e+9999, which strict readers (Go's, serde_json)
  // refuse: no non-finite number is ever written, both are null.
  if (!std::isfinite(value)) return "null";
  std::array<char, 40> buf{};
  std::snprintf(buf.data(), buf.size(), "%.17g", value);
  std::string text = buf.data();
  // snprintf follows LC_NUMERIC; JSON needs a '.' whatever the locale (jsoncpp does the same).
  std::replace(text.begin(), text.end(), ',', '.');
  // Keeps a double recognisable as one after a round trip.
  if (text.find('.') == std::string::npos && text.find('e') == std::string::npos) text += ".0";
  return text;
}

namespace {

constexpr unsigned kReplacement = 0xFFFD;

void appendHex16(std::string& out, unsigned unit) {
  static const char digits[] = "0123456789abcdef";
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out += digits[(unit >> shift) & 0xF];
}

// Decodes one UTF-8 sequence starting at `s` and advances `s` to its last byte, as jsoncpp does
// (malformed or overlong sequences and surrogates give U+FFFD).
unsigned decodeUtf8(const char*& s, const char* end) {
  const unsigned first = static_cast<unsigned char>(*s);
  if (first < 0x80) return first;
  const int extra = first < 0xE0 ? 1 : first < 0xF0 ? 2 : first < 0xF8 ? 3 : 0;
  if (extra == 0 || end - s <= extra) return kReplacement;
  static const unsigned kLeadBits[] = {0, 0x1F, 0x0F, 0x07};
  static const unsigned kSmallest[] = {0, 0x80, 0x800, 0x10000};
  unsigned cp = first & kLeadBits[extra];
  for (int i = 1; i <= extra; ++i) cp = (cp << 6) | (static_cast<unsigned char>(s[i]) & 0x3Fu);
  s += extra;
  const bool surrogate = cp >= 0xD800 && cp <= 0xDFFF;
  return cp < kSmallest[extra] || surrogate ? kReplacement : cp;
}

void appendCodepoint(std::string& out, unsigned cp) {
  if (cp >= 0x20 && cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x10000) {
    appendHex16(out, cp);
  } else {
    cp -= 0x10000;
    appendHex16(out, 0xD800 + ((cp >> 10) & 0x3FF));
    appendHex16(out, 0xDC00 + (cp & 0x3FF));
  }
}

// The two-character escapes JSON defines; nullptr for everything else.
const char* shortEscape(char c) {
  static const char kEscaped[] = "\"\\\b\f\n\r\t";
  static const char* const kEscapes[] = {"\\\"", "\\\\", "\\b", "\\f", "\\n", "\\r", "\\t"};
  const char* at = c == '\0' ? nullptr : std::strchr(kEscaped, c);
  return at ? kEscapes[at - kEscaped] : nullptr;
}

}  // namespace

std::string jsonQuoted(const std::string& value) {
  std::string out = "\"";
  const char* const end = value.data() + value.size();
  for (const char* c = value.data(); c != end; ++c) {
    if (const char* escape = shortEscape(*c))
      out += escape;
    else
      appendCodepoint(out, decodeUtf8(c, end));
  }
  return out + "\"";
}

}  // namespace core

namespace {

// Mirrors jsoncpp's BuiltStyledStreamWriter with commentStyle All and indentation "\t".
class StyledWriter {
 public:
  // `out`: where the text goes as it is made; `streamed`: an array written from its generator.
  StyledWriter(std::ostream& out, const StreamedArray* streamed) : out_(out), streamed_(streamed) {}

  void write(const nlohmann::json& root) {
    writeValue(root, true);
    doc_ += "\n";
    drain(0);
  }

 private:
  static constexpr std::size_t kChunkBytes = 1 << 20;

  // Hands the text made so far to the stream once there is more than `keep` of it.
  void drain(std::size_t keep) {
    if (doc_.size() <= keep) return;
    out_.write(doc_.data(), static_cast<std::streamsize>(doc_.size()));
    doc_.clear();
  }

  void newLine() { doc_ += "\n" + indent_; }

  // A container opens on the line begun for it (the document's, an array element's); after
  // `"key" : ` it opens on a new line.
  void open(char bracket, bool lineBegun) {
    if (!lineBegun) newLine();
    doc_ += bracket;
    indent_ += '\t';
  }

  void close(char bracket) {
    indent_.pop_back();
    newLine();
    doc_ += bracket;
  }

  void writeValue(const nlohmann::json& v, bool lineBegun) {
    if (v.is_object())
      writeObject(v, lineBegun);
    else if (v.is_array())
      writeArray(v, lineBegun);
    else if (v.is_string())
      doc_ += core::jsonQuoted(v.get_ref<const std::string&>());
    else if (v.is_number_float())
      doc_ += core::jsonDouble(v.get<double>());
    else
      doc_ += v.dump();  // a whole number, a boolean, null
  }

  void writeObject(const nlohmann::json& v, bool lineBegun) {
    if (v.empty()) {
      doc_ += "{}";
      return;
    }
    open('{', lineBegun);
    // nlohmann::json keeps object keys in a std::map, i.e. in byte order, as jsoncpp prints them.
    for (auto it = v.begin(); it != v.end(); ++it) {
      if (it != v.begin()) doc_ += ",";
      newLine();
      doc_ += core::jsonQuoted(it.key()) + " : ";
      writeValue(it.value(), false);
    }
    close('}');
  }

  // The elements of `v`, or of the streamed array where `v` is its placeholder.
  void writeArray(const nlohmann::json& v, bool lineBegun) {
    const bool streamed = streamed_ && &v == streamed_->placeholder;
    auto it = v.begin();
    nlohmann::json element;
    const auto next = [&]() -> const nlohmann::json* {
      if (streamed) return streamed_->next(element) ? &element : nullptr;
      return it == v.end() ? nullptr : &*it++;
    };
    const nlohmann::json* child = next();
    if (!child) {
      doc_ += "[]";
      return;
    }
    open('[', lineBegun);
    for (bool first = true; child; child = next(), first = false) {
      if (!first) doc_ += ",";
      newLine();
      writeValue(*child, true);
      drain(kChunkBytes);
    }
    close(']');
  }

  std::ostream& out_;
  const StreamedArray* streamed_;
  std::string doc_;
  std::string indent_;
};

}  // namespace

std::string styledJson(const nlohmann::json& value) {
  std::ostringstream out;
  writeStyledJson(out, value);
  return out.str();
}

void writeStyledJson(std::ostream& out, const nlohmann::json& value,
                     const StreamedArray* streamed) {
  StyledWriter(out, streamed).write(value);
}

}  // namespace nvbw
