// The project's JSON reader: a strict scanner that walks a text once, front to back, while the
// caller says what it expects next, reads the values it wants (as typed numbers and strings, or
// as a Value) and skips the rest. Nothing recurses over the input.
//
// It accepts exactly RFC 8259 JSON as nlohmann::json::accept does (a leading UTF-8 byte order
// mark skipped; strings must be UTF-8 without raw control characters or lone surrogates), nested
// at most `maxDepth` levels (the document itself is level 1), and holding at most about
// `maxBytes` as a document in memory (every value it passes, read or skipped, counted as a
// generic JSON document holds it: the limit is on how densely a text packs its values, whatever
// the reader keeps of them). Every fault throws JsonInputError: "not JSON at byte N: why" (N the
// 1-based position of the byte at fault, one past the end where the text ends early), "nested
// more than N levels deep", "would take more than N MiB of memory to hold (...)".
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "model/value.h"

namespace nvbw {

// Why a text is not a usable JSON document: not JSON, nested too deeply, packed too densely.
// One line that says where (byte offset) without quoting the input.
class JsonInputError : public Error {
 public:
  using Error::Error;
};

class JsonScanner {
 public:
  enum class Kind { Object, Array, String, Number, Boolean, Null };

  // `text` must outlive the scanner (its terminating '\0' ends the scanner's inner loops).
  JsonScanner(const std::string& text, std::size_t maxDepth,
              std::size_t maxBytes = static_cast<std::size_t>(-1));

  // The kind of the value that comes next (in a container: after nextKey/nextElement).
  Kind peek();
  static const char* kindName(Kind k);  // as Value::typeName: "object", "number", ...

  // Objects: enterObject(); while (nextKey(key)) { read or skip the member's value }.
  void enterObject();
  bool nextKey(std::string& key);  // false once the object is closed
  // Arrays: enterArray(); while (nextElement()) { read or skip the element }.
  void enterArray();
  bool nextElement();  // false once the array is closed

  void readString(std::string& out);
  // A number as a Value: whole numbers as integers (unsigned when not negative) while they fit
  // 64 bits, the others as doubles, as nlohmann reads them. Too large for a double: an error, as
  // for nlohmann; too small: 0.
  Value readNumber();
  void readNull();
  // The next value, whole (iteratively, within the depth limit).
  Value readValue();
  void skipValue();  // checks it as it goes

  // A matrix as readValue would read it (the same checks, faults and memory counted), straight
  // into `out` without a Value per cell: an array of rows, each an array as long as the first, of
  // numbers (as doubles) and nulls (nullopt), or of strings. Anything else there (another type,
  // rows of different lengths) and nothing is read: false, the scanner where it was, for the
  // caller to read the value as a Value.
  template <typename T> struct Rows {
    std::size_t rows = 0;
    std::size_t cols = 0;
    std::vector<T> cells;  // row-major
  };
  using NumberRows = Rows<std::optional<double>>;
  using StringRows = Rows<std::string>;
  bool readNumberRows(NumberRows& out);
  bool readStringRows(StringRows& out);
  void finish();  // nothing but whitespace may follow the document
  // Wherever the reading stopped (a value expected or not, containers open): checks the rest of
  // the text, so that a caller who found a fault in what it read can still report the text's
  // first syntax error instead, as a parser that reads everything first would.
  void skipRest();

  std::size_t depth() const { return open_.size(); }

 private:
  [[noreturn]] void fail(const std::string& why) const;
  [[noreturn]] void failAt(const char* at, const char* why);  // fail, at byte `at`
  void spend(std::size_t bytes);
  [[noreturn]] void tooDense() const;  // the memory limit passed
  void spendValue(std::size_t bytes);  // a value placed in the container that is open
  void skipWhitespace();
  void open(char closer);
  bool next(char closer);  // the comma or the closer after an element
  void scanKey(std::string* out);
  void scanString(std::string* out);
  // A number's text: where it starts, where its fraction and its exponent start (each where the
  // next part starts when it has none).
  struct NumberText {
    const char* start;
    const char* fraction;
    const char* exponent;
  };
  NumberText scanNumberText();
  Value scanNumber();
  void skipNumber();  // checks what only its value can tell (beyond a double's range)
  Value numberValue(const char* start, const char* fraction, const char* exponent);
  void expectWord(const char* word);
  // readNumberRows and readStringRows: `cell(kind, cells)` reads a cell of that kind into `cells`
  // or says false.
  template <typename T, typename Cell> bool readRows(Rows<T>& out, Cell cell);
  unsigned hex4();

  const char* begin_;
  const char* p_;
  const char* end_;
  std::size_t maxDepth_;
  std::size_t maxBytes_;
  std::size_t bytes_ = 0;
  std::size_t decoded_ = 0;  // the length of the last string scanned, as decoded
  // Per open container: its closer, and whether an element has been read yet.
  std::vector<char> open_;
  std::vector<unsigned char> started_;
  bool pending_ = true;  // a value is due (the document's, a member's, an element's)
};

}  // namespace nvbw
