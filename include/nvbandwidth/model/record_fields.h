// How the model's records meet a document's objects (internal to the model): one table per record
// (record_fields.cpp) names each key with its field and, where a view relies on it, its check; the
// same table binds an object to the record and writes the record back. A member that fails its
// check refuses the report (ReportShapeError); one the record has no field for, or one of another
// type without a check, is read past. `where` is the object's place, for messages.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "core/stop_request.h"
#include "core/unit.h"
#include "model/json.h"
#include "model/report.h"
#include "model/report_limits.h"

namespace nvbw::model {

// ---- The checks on one piece of a document at a time: types, ranges, where a value is ----

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

// Reads the members of the run object other than its entries ("testcases", "confirmations").
void readFields(const Json& object, Report& report, const Path& where);
// Reads the members of an entry other than its name, status and grids.
void readFields(const Json& object, ReportEntry& entry, const Path& where);

struct EntryReading {
  ReadScope scope = ReadScope::Whole;
  std::size_t gpus = 0;  // the report's (0: none, and a matrix has no shape to be checked against)
  const StopRequest* stop = nullptr;  // asked every matrix row
};
// The whole entry at `at` (entry_reader.cpp). Throws ReportShapeError, or Interrupted.
ReportEntry readEntry(const Json& entry, const Path& at, const EntryReading& reading);

}  // namespace nvbw::model
