#include "model/json_scanner.h"

#include <charconv>
#include <limits>

namespace nvbw {

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// Byte classes, looked up once per byte on the paths every byte of a report takes: whitespace
// between tokens, and the bytes a string holds as they are (printable ASCII but the quote and the
// backslash), which need no further look.
struct ByteClasses {
  bool whitespace[256] = {};
  bool plainInString[256] = {};
  constexpr ByteClasses() {
    for (const char c : {' ', '\n', '\t', '\r'}) whitespace[static_cast<unsigned char>(c)] = true;
    for (unsigned c = 0x20; c < 0x80; ++c) plainInString[c] = c != '"' && c != '\\';
  }
};
constexpr ByteClasses kBytes;

bool isWhitespace(char c) { return kBytes.whitespace[static_cast<unsigned char>(c)]; }
bool isPlainInString(char c) { return kBytes.plainInString[static_cast<unsigned char>(c)]; }

void appendUtf8(std::string& out, unsigned cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// The length of the UTF-8 sequence at `p` (a byte of 0x80 or more), or 0 when it is not one
// that RFC 3629 allows (overlong forms, surrogates, beyond U+10FFFF, cut short).
std::size_t utf8Length(const unsigned char* p, const unsigned char* end) {
  const unsigned char c = p[0];
  unsigned char low = 0x80, high = 0xBF;
  std::size_t length = 0;
  if (c >= 0xC2 && c <= 0xDF) {
    length = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    length = 3;
    if (c == 0xE0) low = 0xA0;
    if (c == 0xED) high = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    length = 4;
    if (c == 0xF0) low = 0x90;
    if (c == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (static_cast<std::size_t>(end - p) < length) return 0;
  if (p[1] < low || p[1] > high) return 0;
  for (std::size_t i = 2; i < length; ++i)
    if (p[i] < 0x80 || p[i] > 0xBF) return 0;
  return length;
}

// What a value costs a generic document in memory (libstdc++ on 64 bits, with the allocator's
// 16 bytes per block): a value is 16 bytes in its container, whose vector may hold half as much
// again unused; an object member is a map node; a string value an object on the heap, and a long
// string its characters' block too.
constexpr std::size_t kValueBytes = 16;
constexpr std::size_t kElementSlackBytes = 8;
constexpr std::size_t kObjectBytes = 64;
constexpr std::size_t kArrayBytes = 40;
constexpr std::size_t kMemberBytes = 96;
constexpr std::size_t kStringBytes = 48;

std::size_t heapBytes(std::size_t length) { return length < 16 ? 0 : length + 1 + 16; }

}  // namespace

JsonScanner::JsonScanner(const std::string& text, std::size_t maxDepth, std::size_t maxBytes)
    : begin_(text.data()), p_(text.data()), end_(text.data() + text.size()), maxDepth_(maxDepth),
      maxBytes_(maxBytes) {
  // nlohmann's reader skips a byte order mark; so does this one, so both accept the same files.
  if (text.size() >= 3 && text.compare(0, 3, "\xEF\xBB\xBF") == 0) p_ += 3;
}

void JsonScanner::fail(const std::string& why) const {
  throw JsonInputError("not JSON at byte " + std::to_string(p_ - begin_ + 1) + ": " + why);
}

inline void JsonScanner::spend(std::size_t bytes) {
  bytes_ += bytes;
  if (bytes_ > maxBytes_) tooDense();
}

void JsonScanner::tooDense() const {
  throw JsonInputError("would take more than " + std::to_string(maxBytes_ >> 20) +
                       " MiB of memory to hold (values packed far more densely than in a report)");
}

inline void JsonScanner::spendValue(std::size_t bytes) {
  const bool inArray = !open_.empty() && open_.back() == ']';
  spend(bytes + kValueBytes + (inArray ? kElementSlackBytes : 0));
}

const char* JsonScanner::kindName(Kind k) {
  switch (k) {
  case Kind::Object:
    return "object";
  case Kind::Array:
    return "array";
  case Kind::String:
    return "string";
  case Kind::Number:
    return "number";
  case Kind::Boolean:
    return "boolean";
  case Kind::Null:
    break;
  }
  return "null";
}

inline void JsonScanner::skipWhitespace() {
  // A local cursor: the member would be stored and reloaded for every byte (a char may alias it).
  // The text's terminating '\0' (a std::string has one) ends the loop at the end of the text.
  const char* p = p_;
  while (isWhitespace(*p)) ++p;
  p_ = p;
}

JsonScanner::Kind JsonScanner::peek() {
  skipWhitespace();
  if (p_ == end_) fail("the text ends where a value should be");
  switch (*p_) {
  case '{':
    return Kind::Object;
  case '[':
    return Kind::Array;
  case '"':
    return Kind::String;
  case 't':
  case 'f':
    return Kind::Boolean;
  case 'n':
    return Kind::Null;
  default:
    if (*p_ == '-' || isDigit(*p_)) return Kind::Number;
  }
  fail("not the start of a value");
}

void JsonScanner::open(char closer) {
  spend(closer == '}' ? kObjectBytes : kArrayBytes);
  if (open_.size() >= maxDepth_)
    throw JsonInputError("nested more than " + std::to_string(maxDepth_) + " levels deep");
  spend(kValueBytes);
  ++p_;
  open_.push_back(closer);
  started_.push_back(false);
  pending_ = false;
}

void JsonScanner::enterObject() {
  if (peek() != Kind::Object) fail("expected an object");
  open('}');
}

void JsonScanner::enterArray() {
  if (peek() != Kind::Array) fail("expected an array");
  open(']');
}

inline bool JsonScanner::next(char closer) {
  skipWhitespace();
  if (p_ == end_) fail("the text ends inside an object or array");
  if (*p_ == closer) {
    ++p_;
    open_.pop_back();
    started_.pop_back();
    return false;
  }
  if (started_.back()) {
    if (*p_ != ',') fail(closer == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
    ++p_;
    skipWhitespace();
  }
  started_.back() = true;
  return true;
}

bool JsonScanner::nextKey(std::string& key) {
  if (open_.empty() || open_.back() != '}') fail("not in an object");
  if (!next('}')) return false;
  key.clear();
  scanKey(&key);
  pending_ = true;
  return true;
}

void JsonScanner::scanKey(std::string* out) {
  if (p_ == end_ || *p_ != '"') fail("expected a member name");
  scanString(out);
  spend(kMemberBytes + heapBytes(decoded_));
  skipWhitespace();
  if (p_ == end_ || *p_ != ':') fail("expected ':'");
  ++p_;
}

bool JsonScanner::nextElement() {
  if (open_.empty() || open_.back() != ']') fail("not in an array");
  pending_ = next(']');
  return pending_;
}

unsigned JsonScanner::hex4() {
  if (end_ - p_ < 4) fail("a \\u escape cut short");
  unsigned value = 0;
  for (int i = 0; i < 4; ++i, ++p_) {
    const char c = *p_;
    value <<= 4;
    if (isDigit(c))
      value |= static_cast<unsigned>(c - '0');
    else if (c >= 'a' && c <= 'f')
      value |= static_cast<unsigned>(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F')
      value |= static_cast<unsigned>(c - 'A' + 10);
    else
      fail("a \\u escape with a character that is not hexadecimal");
  }
  return value;
}

void JsonScanner::scanString(std::string* out) {
  ++p_;  // the opening quote
  const char* run = p_;
  decoded_ = 0;
  for (;;) {
    const char* p = p_;
    while (isPlainInString(*p)) ++p;  // stops at the text's '\0' (skipWhitespace)
    p_ = p;
    if (p_ == end_) fail("the text ends inside a string");
    const unsigned char c = static_cast<unsigned char>(*p_);
    if (c == '"') {
      decoded_ += static_cast<std::size_t>(p_ - run);
      if (out) out->append(run, p_);
      ++p_;
      return;
    }
    if (c == '\\') {
      decoded_ += static_cast<std::size_t>(p_ - run);
      if (out) out->append(run, p_);
      if (++p_ == end_) fail("the text ends inside a string");
      const char e = *p_++;
      char plain = 0;
      switch (e) {
      case '"':
      case '\\':
      case '/':
        plain = e;
        break;
      case 'b':
        plain = '\b';
        break;
      case 'f':
        plain = '\f';
        break;
      case 'n':
        plain = '\n';
        break;
      case 'r':
        plain = '\r';
        break;
      case 't':
        plain = '\t';
        break;
      case 'u': {
        unsigned cp = hex4();
        if (cp >= 0xDC00 && cp <= 0xDFFF) fail("a low surrogate without a high one");
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u')
            fail("a high surrogate without a low one");
          p_ += 2;
          const unsigned low = hex4();
          if (low < 0xDC00 || low > 0xDFFF) fail("a high surrogate without a low one");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        }
        decoded_ += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
        if (out) appendUtf8(*out, cp);
        break;
      }
      default:
        fail("an escape that JSON does not have");
      }
      if (plain) {
        ++decoded_;
        if (out) *out += plain;
      }
      run = p_;
      continue;
    }
    if (c < 0x20) fail("a control character in a string");
    if (c < 0x80) {
      ++p_;
      continue;
    }
    const std::size_t length = utf8Length(reinterpret_cast<const unsigned char*>(p_),
                                          reinterpret_cast<const unsigned char*>(end_));
    if (length == 0) fail("a string that is not UTF-8");
    p_ += length;
  }
}

void JsonScanner::failAt(const char* at, const char* why) {
  p_ = at;
  fail(why);
}

inline JsonScanner::NumberText JsonScanner::scanNumberText() {
  // A local cursor, as in skipWhitespace; p_ is set where the number ends or where it is wrong.
  const char* const start = p_;
  const char* const end = end_;
  const char* p = p_;
  const auto digits = [&p] {
    while (isDigit(*p)) ++p;  // stops at the text's '\0' (skipWhitespace)
  };
  if (*p == '-') ++p;
  if (p == end) failAt(p, "a number cut short");
  if (*p == '0') {
    ++p;
  } else if (isDigit(*p)) {
    digits();
  } else {
    failAt(p, "a number without digits");
  }
  const char* const fraction = p;
  if (p != end && *p == '.') {
    ++p;
    if (p == end || !isDigit(*p)) failAt(p, "a number without digits after its point");
    digits();
  }
  const char* const exponent = p;
  if (p != end && (*p == 'e' || *p == 'E')) {
    ++p;
    if (p != end && (*p == '+' || *p == '-')) ++p;
    if (p == end || !isDigit(*p)) failAt(p, "a number without digits in its exponent");
    digits();
  }
  p_ = p;
  spendValue(0);
  return {start, fraction, exponent};
}

Value JsonScanner::scanNumber() {
  const NumberText n = scanNumberText();
  return numberValue(n.start, n.fraction, n.exponent);
}

void JsonScanner::skipNumber() {
  const NumberText n = scanNumberText();
  // Only numbers that may lie beyond a double's range need reading to know whether they are
  // numbers at all: 291 digits or more before the point, or an exponent of 2 digits or more.
  if (p_ - n.exponent >= 3 || n.fraction - n.start > 290)
    numberValue(n.start, n.fraction, n.exponent);
}

// The value of the number text [start, p_), whose fraction starts at `fraction` and exponent at
// `exponent`. Whole numbers that fit 64 bits are integers. Beyond the range of a double,
// nlohmann's reader (strtod, then a check) fails on magnitudes too large ("number overflow") and
// reads magnitudes too small as 0; so does this.
Value JsonScanner::numberValue(const char* start, const char* fraction, const char* exponent) {
  if (fraction == p_) {
    if (*start == '-') {
      std::int64_t whole = 0;
      const auto r = std::from_chars(start, p_, whole);
      if (r.ec == std::errc() && r.ptr == p_) return Value(static_cast<long long>(whole));
    } else {
      std::uint64_t whole = 0;
      const auto r = std::from_chars(start, p_, whole);
      if (r.ec == std::errc() && r.ptr == p_) return Value(static_cast<unsigned long long>(whole));
    }
  }
  double out = 0.0;
  const auto result = std::from_chars(start, p_, out);
  if (result.ec == std::errc() && result.ptr == p_) return Value(out);
  // The decimal magnitude: digits before the point (leading zeros aside), or minus the zeros
  // after it, plus the exponent (saturated).
  long long magnitude = 0;
  bool nonzero = false;
  const char* digits = *start == '-' ? start + 1 : start;
  for (const char* d = digits; d < fraction; ++d)
    if (nonzero || *d != '0') {
      nonzero = true;
      ++magnitude;
    }
  for (const char* d = fraction + 1; !nonzero && d < exponent; ++d) {
    if (*d != '0')
      nonzero = true;
    else
      --magnitude;
  }
  if (nonzero) {
    long long power = 0;
    const char* e = exponent + 1;
    const bool negative = e < p_ && *e == '-';
    if (e < p_ && (*e == '+' || *e == '-')) ++e;
    for (; e < p_; ++e) power = std::min<long long>(power * 10 + (*e - '0'), 1000000000LL);
    magnitude += negative ? -power : power;
    if (magnitude > 0) fail("number overflow: beyond the range of a double");
  }
  return Value(*start == '-' ? -0.0 : 0.0);
}

void JsonScanner::expectWord(const char* word) {
  for (const char* w = word; *w; ++w, ++p_)
    if (p_ == end_ || *p_ != *w) fail("not a value (a misspelt true, false or null?)");
  spendValue(0);
}

void JsonScanner::readString(std::string& out) {
  if (peek() != Kind::String) fail("expected a string");
  out.clear();
  scanString(&out);
  spendValue(kStringBytes + heapBytes(decoded_));
  pending_ = false;
}

Value JsonScanner::readNumber() {
  if (peek() != Kind::Number) fail("expected a number");
  pending_ = false;
  return scanNumber();
}

void JsonScanner::readNull() {
  if (peek() != Kind::Null) fail("expected null");
  expectWord("null");
  pending_ = false;
}

namespace {

// Where readValue puts the next value: the array or the member of the object that is open.
struct OpenValue {
  Value value;
  std::string key;  // objects: the member being read
};

}  // namespace

Value JsonScanner::readValue() {
  const std::size_t base = open_.size();
  std::vector<OpenValue> stack;
  std::string text;
  pending_ = false;
  for (;;) {
    Value scalar;
    bool container = false;
    switch (peek()) {
    case Kind::Object:
      open('}');
      stack.push_back({Value::object(), ""});
      container = true;
      break;
    case Kind::Array:
      open(']');
      stack.push_back({Value::array(), ""});
      container = true;
      break;
    case Kind::String:
      text.clear();
      scanString(&text);
      spendValue(kStringBytes + heapBytes(decoded_));
      scalar = Value(text);
      break;
    case Kind::Number:
      scalar = scanNumber();
      break;
    case Kind::Boolean:
      scalar = Value(*p_ == 't');
      expectWord(*p_ == 't' ? "true" : "false");
      break;
    case Kind::Null:
      expectWord("null");
      break;
    }
    // Then to the next value inside what is open, closing what has ended and placing each
    // finished value in its parent.
    bool more = false;
    bool placing = !container;
    while (open_.size() > base) {
      if (placing) {
        OpenValue& parent = stack.back();
        if (parent.value.isArray())
          parent.value.push(std::move(scalar));
        else
          parent.value.set(parent.key, std::move(scalar));
        placing = false;
      }
      OpenValue& top = stack.back();
      if (open_.back() == '}') {
        if (next('}')) {
          top.key.clear();
          scanKey(&top.key);
          more = true;
          break;
        }
      } else if (next(']')) {
        more = true;
        break;
      }
      scalar = std::move(top.value);
      stack.pop_back();
      if (stack.empty()) return scalar;
      placing = true;
    }
    if (!more) return scalar;
  }
}

void JsonScanner::skipValue() {
  const std::size_t base = open_.size();
  pending_ = false;
  for (;;) {
    // At the start of a value: a scalar is consumed, a container opened.
    switch (peek()) {
    case Kind::Object:
      open('}');
      break;
    case Kind::Array:
      open(']');
      break;
    case Kind::String:
      scanString(nullptr);
      spendValue(kStringBytes + heapBytes(decoded_));
      break;
    case Kind::Number:
      skipNumber();
      break;
    case Kind::Boolean:
      expectWord(*p_ == 't' ? "true" : "false");
      break;
    case Kind::Null:
      expectWord("null");
      break;
    }
    // Then to the next value inside what is open, closing what has ended.
    bool more = false;
    while (open_.size() > base) {
      if (open_.back() == '}') {
        if (!next('}')) continue;
        scanKey(nullptr);
      } else if (!next(']')) {
        continue;
      }
      more = true;
      break;
    }
    if (!more) return;
  }
}

template <typename T, typename Cell> bool JsonScanner::readRows(Rows<T>& out, Cell cell) {
  const char* const start = p_;
  const std::size_t bytes = bytes_;
  const std::size_t depth = open_.size();
  const bool pending = pending_;
  const auto leave = [&] {
    p_ = start;
    bytes_ = bytes;
    open_.resize(depth);
    started_.resize(depth);
    pending_ = pending;
    return false;
  };
  out.rows = out.cols = 0;
  out.cells.clear();
  pending_ = false;
  // The scanner's steps in readValue's order, so that a fault is met where readValue meets it.
  if (peek() != Kind::Array) return leave();
  open(']');
  while (next(']')) {
    if (peek() != Kind::Array) return leave();
    open(']');
    std::size_t cols = 0;
    for (; next(']'); ++cols)
      if (!cell(peek(), out.cells)) return leave();
    if (out.rows == 0) out.cols = cols;
    if (cols != out.cols) return leave();
    ++out.rows;
  }
  return true;
}

bool JsonScanner::readNumberRows(NumberRows& out) {
  return readRows(out, [this](Kind kind, std::vector<std::optional<double>>& cells) {
    if (kind == Kind::Number) {
      cells.emplace_back(scanNumber().asDouble());
    } else if (kind == Kind::Null) {
      expectWord("null");
      cells.emplace_back();
    } else {
      return false;
    }
    return true;
  });
}

bool JsonScanner::readStringRows(StringRows& out) {
  return readRows(out, [this](Kind kind, std::vector<std::string>& cells) {
    if (kind != Kind::String) return false;
    scanString(&cells.emplace_back());
    spendValue(kStringBytes + heapBytes(decoded_));
    return true;
  });
}

void JsonScanner::skipRest() {
  if (pending_) skipValue();
  std::string key;
  while (!open_.empty()) {
    if (open_.back() == '}' ? nextKey(key) : nextElement()) skipValue();
  }
  finish();
}

void JsonScanner::finish() {
  skipWhitespace();
  if (!open_.empty()) fail("the document is not closed");
  if (p_ != end_) fail("more text after the document");
}

}  // namespace nvbw
