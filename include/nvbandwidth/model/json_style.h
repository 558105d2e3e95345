// JSON text in the exact layout of upstream's writer (jsoncpp 1.9.5, Value::toStyledString()), so
// scripts that diff or line-parse upstream's -j output keep working. Internal to the report
// model (report_writer.cpp), included by the model's sources alone.
#pragma once

#include <functional>
#include <iosfwd>
#include <nlohmann/json_fwd.hpp>
#include <string>

namespace nvbw {

// TAB indentation, `"key" : value`, nested containers on their own line at the parent's
// indentation, keys in byte order, every non-empty array one element per line, doubles as %.17g
// (".0" added when needed; NaN and +-Inf as null: jsoncpp's +-1e+9999 is no JSON a strict reader
// takes). Ends with "\n" after the last bracket; upstream printed one more newline after that
// (std::endl), which callers add.
std::string styledJson(const nlohmann::json& value);

// An array of a document that is written from a generator, one element at a time, so that a long
// one never exists as a whole: where the document holds `placeholder` (compared by address; its
// own elements are ignored), the elements `next` gives (false: no more) are written instead.
struct StreamedArray {
  const nlohmann::json* placeholder = nullptr;
  std::function<bool(nlohmann::json&)> next;
};

// styledJson's text, written to `out` as it is made instead of kept whole.
void writeStyledJson(std::ostream& out, const nlohmann::json& value,
                     const StreamedArray* streamed = nullptr);

namespace core {
std::string jsonDouble(double value);              // jsoncpp's valueToString(double)
std::string jsonQuoted(const std::string& value);  // jsoncpp's valueToQuotedString, ASCII output
}  // namespace core

}  // namespace nvbw
