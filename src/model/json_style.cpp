#include "model/json_style.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <ostream>
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

void appendHex16(std::string& out, unsigned unit) {
  static const char digits[] = "0123456789abcdef";
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out += digits[(unit >> shift) & 0xF];
}

unsigned continuation(const char* s, int i) { return static_cast<unsigned char>(s[i]) & 0x3Fu; }

// Decodes one UTF-8 sequence starting at `s` and advances `s` to its last byte, as jsoncpp does
// (malformed or overlong sequences give U+FFFD).
unsigned decodeUtf8(const char*& s, const char* end) {
  constexpr unsigned kReplacement = 0xFFFD;
  const unsigned first = static_cast<unsigned char>(*s);
  if (first < 0x80) return first;
  if (first < 0xE0) {
    if (end - s < 2) return kReplacement;
    const unsigned cp = ((first & 0x1Fu) << 6) | continuation(s, 1);
    s += 1;
    return cp < 0x80 ? kReplacement : cp;
  }
  if (first < 0xF0) {
    if (end - s < 3) return kReplacement;
    const unsigned cp = ((first & 0x0Fu) << 12) | (continuation(s, 1) << 6) | continuation(s, 2);
    s += 2;
    if (cp >= 0xD800 && cp <= 0xDFFF) return kReplacement;
    return cp < 0x800 ? kReplacement : cp;
  }
  if (first < 0xF8) {
    if (end - s < 4) return kReplacement;
    const unsigned cp = ((first & 0x07u) << 18) | (continuation(s, 1) << 12) |
                        (continuation(s, 2) << 6) | continuation(s, 3);
    s += 3;
    return cp < 0x10000 ? kReplacement : cp;
  }
  return kReplacement;
}

void appendCodepoint(std::string& out, unsigned cp) {
  if (cp < 0x20) {
    appendHex16(out, cp);
  } else if (cp < 0x80) {
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
  switch (c) {
  case '"':
    return "\\\"";
  case '\\':
    return "\\\\";
  case '\b':
    return "\\b";
  case '\f':
    return "\\f";
  case '\n':
    return "\\n";
  case '\r':
    return "\\r";
  case '\t':
    return "\\t";
  default:
    return nullptr;
  }
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

// Mirrors jsoncpp's BuiltStyledStreamWriter with commentStyle All and indentation "\t". Its
// `indented_` flag says the current line already holds the indentation for the next token, so a
// container opened right after an array element's indentation stays on that line, while one opened
// after `"key" : ` moves to a new line.
class StyledWriter {
 public:
  // `out`: where the text goes as it is made (nullptr: kept whole); `streamed`: an array written
  // from its generator.
  StyledWriter(std::ostream* out, const StreamedArray* streamed) : out_(out), streamed_(streamed) {}

  std::string write(const nlohmann::json& root) {
    indented_ = true;
    writeValue(root);
    doc_ += "\n";
    drain(0);
    return std::move(doc_);
  }

 private:
  static constexpr std::size_t kChunkBytes = 1 << 20;

  // Hands the text made so far to the stream once there is more than `keep` of it.
  void drain(std::size_t keep) {
    if (!out_ || doc_.size() <= keep) return;
    out_->write(doc_.data(), static_cast<std::streamsize>(doc_.size()));
    doc_.clear();
  }

  void writeIndent() { doc_ += "\n" + indent_; }

  void writeWithIndent(const std::string& text) {
    if (!indented_) writeIndent();
    doc_ += text;
    indented_ = false;
  }

  void writeValue(const nlohmann::json& v) {
    switch (v.type()) {
    case nlohmann::json::value_t::object:
      writeObject(v);
      break;
    case nlohmann::json::value_t::array:
      writeArray(v);
      break;
    case nlohmann::json::value_t::string:
      doc_ += core::jsonQuoted(v.get_ref<const std::string&>());
      break;
    case nlohmann::json::value_t::number_float:
      doc_ += core::jsonDouble(v.get<double>());
      break;
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
    case nlohmann::json::value_t::boolean:
      doc_ += v.dump();
      break;
    default:  // null, and the types jsoncpp cannot hold (binary, discarded)
      doc_ += "null";
      break;
    }
  }

  void writeObject(const nlohmann::json& v) {
    if (v.empty()) {
      doc_ += "{}";
      return;
    }
    writeWithIndent("{");
    indent_ += '\t';
    bool first = true;
    // nlohmann::json keeps object keys in a std::map, i.e. in byte order, as jsoncpp prints them.
    for (auto it = v.begin(); it != v.end(); ++it) {
      if (!first) doc_ += ",";
      first = false;
      writeWithIndent(core::jsonQuoted(it.key()));
      doc_ += " : ";
      writeValue(it.value());
    }
    indent_.pop_back();
    writeWithIndent("}");
  }

  // The elements of `v`, or of the streamed array where `v` is its placeholder.
  void writeArray(const nlohmann::json& v) {
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
    writeWithIndent("[");
    indent_ += '\t';
    for (bool first = true; child; child = next()) {
      writeElement(*child, first);
      drain(kChunkBytes);
    }
    indent_.pop_back();
    writeWithIndent("]");
  }

  void writeElement(const nlohmann::json& child, bool& first) {
    if (!first) doc_ += ",";
    first = false;
    if (!indented_) writeIndent();
    indented_ = true;
    writeValue(child);
    indented_ = false;
  }

  std::ostream* out_;
  const StreamedArray* streamed_;
  std::string doc_;
  std::string indent_;
  bool indented_ = true;
};

}  // namespace

std::string styledJson(const nlohmann::json& value) {
  return StyledWriter(nullptr, nullptr).write(value);
}

void writeStyledJson(std::ostream& out, const nlohmann::json& value,
                     const StreamedArray* streamed) {
  StyledWriter(&out, streamed).write(value);
}

}  // namespace nvbw
