// The checks of the report reader on one piece of a document at a time (internal to the model):
// types, ranges and where a value is, spelled out only when a check fails.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "core/unit.h"
#include "model/json.h"
#include "model/report_limits.h"

namespace nvbw::model {

// Where a value is in the document, spelled out only when it is reported: the checks visit every
// cell and sample, and must not build a string for each.
class Path {
 public:
  explicit Path(const char* root) : root_(root) {}
  Path(const Path& parent, const char* key) : parent_(&parent), key_(key) {}
  Path(const Path& parent, std::size_t index) : parent_(&parent), index_(index) {}
  // The parent with `suffix` spelled after it: ` ("key")` after `testcases[3]`, `.name` for a
  // key of the document's own.
  Path(const Path& parent, std::string suffix) : parent_(&parent), note_(std::move(suffix)) {}
  std::string text() const;

 private:
  const Path* parent_ = nullptr;
  const char* root_ = nullptr;
  const char* key_ = nullptr;
  std::size_t index_ = 0;
  std::optional<std::string> note_;
};

[[noreturn]] void reject(const Path& where, const std::string& why);
// "is string, not a number".
[[noreturn]] void wrongType(const Json& value, const Path& where, const char* expected);

// The values of a matrix of `unit`, and the spread (standard deviation) of values of `range`.
const ValueRange& rangeOf(Unit unit);
const ValueRange& spreadOf(const ValueRange& range);

// The number, checked to be within `range`.
double number(const Json& value, const Path& where, const ValueRange& range);
double number(double value, const Path& where, const ValueRange& range);
// A whole number of at least `minimum`.
void integer(const Json& value, const Path& where, long long minimum);
const std::string& string(const Json& value, const Path& where);
const Json& object(const Json& value, const Path& where);

// `check(element, where[i])` for every element of an array; the array's size is returned.
template <typename Check>
std::size_t eachElement(const Json& value, const Path& where, Check check) {
  if (!value.is_array()) wrongType(value, where, "an array");
  for (std::size_t i = 0; i < value.size(); ++i) check(value[i], Path(where, i));
  return value.size();
}

template <typename Check>
void optional(const Json& parent, const char* key, const Path& where, Check check) {
  if (const Json* value = findMember(parent, key)) check(*value, Path(where, key));
}

// The member `key` of `parent`, which must have it.
const Json& requiredMember(const Json& parent, const char* key, const Path& where);
const std::string& requiredString(const Json& parent, const char* key, const Path& where);

// An upstream cell's value (the inner nullopt: "N/A"); the outer nullopt when the text is neither
// a number nor "N/A".
std::optional<std::optional<double>> cellTextValue(const std::string& text);

}  // namespace nvbw::model
