// A strict JSON reader that walks a text once, front to back, without building a document: the
// caller says what it expects next and skips the rest. Internal to the fleet summary, which reads
// a thousand reports of a megabyte each and has no use for most of their values (samples,
// environment): nlohmann's parser reads 60 MB/s here and its document takes as long again.
//
// It accepts exactly RFC 8259 JSON as nlohmann::json::accept does (a leading UTF-8 byte order
// mark skipped; strings must be UTF-8 without raw control characters or lone surrogates), nested
// at most `maxDepth` levels (the document itself is level 1), and nothing recurses over the input.
// Every fault throws JsonInputError("not JSON at byte N: why" or "nested more than N levels deep").
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/bounded_json.h"

namespace nvbw::summary {

class JsonScanner {
 public:
  enum class Kind { Object, Array, String, Number, Boolean, Null };

  JsonScanner(const std::string& text, std::size_t maxDepth);
  // A part of a text already scanned (a value skipped before it was known to be wanted); offsets
  // in messages count from `begin`, the start of the whole text.
  JsonScanner(const char* begin, const char* from, const char* to, std::size_t maxDepth);

  // The kind of the value that comes next (in a container: after nextKey/nextElement).
  Kind peek();
  const char* kindName(Kind k) const;  // as nlohmann's type_name: "object", "number", ...

  // Objects: enterObject(); while (nextKey(key)) { read or skip the member's value }.
  void enterObject();
  bool nextKey(std::string& key);  // false once the object is closed
  // Arrays: enterArray(); while (nextElement()) { read or skip the element }.
  void enterArray();
  bool nextElement();  // false once the array is closed

  void readString(std::string& out);
  double readNumber();  // too large for a double: an error, as for nlohmann; too small: 0
  bool readBoolean();
  void readNull();
  void skipValue();  // checks it as it goes
  void finish();     // nothing but whitespace may follow the document
  // Wherever the reading stopped (a value expected or not, containers open): checks the rest of
  // the text, so that a caller who found a fault in what it read can still report the text's
  // first syntax error instead, as a parser that reads everything first would.
  void skipRest();

  std::size_t offset() const { return static_cast<std::size_t>(p_ - begin_); }
  const char* position() const { return p_; }  // after skipValue: the end of the value
  std::size_t depth() const { return open_.size(); }

 private:
  [[noreturn]] void fail(const std::string& why) const;
  void skipWhitespace();
  void open(char closer);
  bool next(char closer);  // the comma or the closer after an element
  void scanString(std::string* out);
  void scanNumber(double* out);
  void readDigits(const char* start, const char* fraction, const char* exponent, double* out);
  void expectWord(const char* word);
  unsigned hex4();

  const char* begin_;
  const char* p_;
  const char* end_;
  std::size_t maxDepth_;
  // Per open container: its closer, and whether an element has been read yet.
  std::vector<char> open_;
  std::vector<bool> started_;
  bool pending_ = true;  // a value is due (the document's, a member's, an element's)
};

}  // namespace nvbw::summary
