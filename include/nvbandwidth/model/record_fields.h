// How the model's small records meet a document's objects (internal to the model): one table per
// record names each key with its field, so that the reader binds an object to a record (a member
// the record has no field for, or one of another type, read past) and the writer turns the
// record back into those members.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "model/report.h"

namespace nvbw::model {

// Whether a value is of a field's type: a string, a boolean, a number (any for a double, a
// whole number of 0 or more for an unsigned, one that fits for a signed one), null or one of them
// for an optional, an array of them for a list.
template <typename T> struct IsOptional : std::false_type {};
template <typename T> struct IsOptional<std::optional<T>> : std::true_type {};
template <typename T> struct IsList : std::false_type {};
template <typename T> struct IsList<std::vector<T>> : std::true_type {};

template <typename T> bool isOfType(const Json& v) {
  if constexpr (std::is_same_v<T, std::string>) {
    return v.is_string();
  } else if constexpr (std::is_same_v<T, bool>) {
    return v.is_boolean();
  } else if constexpr (std::is_same_v<T, double>) {
    return v.is_number();
  } else if constexpr (std::is_same_v<T, std::uint64_t>) {
    return v.is_number_unsigned();
  } else if constexpr (std::is_same_v<T, std::int64_t>) {
    return v.is_number_integer() && !(v.is_number_unsigned() && v.get<std::uint64_t>() > INT64_MAX);
  } else if constexpr (IsOptional<T>::value) {
    return v.is_null() || isOfType<typename T::value_type>(v);
  } else {
    static_assert(IsList<T>::value, "a field of another type");
    if (!v.is_array()) return false;
    for (const Json& item : v)
      if (!isOfType<typename T::value_type>(item)) return false;
    return true;
  }
}

// The value as the field type (isOfType says it is one).
template <typename T> T valueAs(const Json& v) {
  if constexpr (IsOptional<T>::value) {
    return v.is_null() ? T() : T(valueAs<typename T::value_type>(v));
  } else if constexpr (IsList<T>::value) {
    T list;
    for (const Json& item : v) list.push_back(valueAs<typename T::value_type>(item));
    return list;
  } else {
    return v.get<T>();
  }
}

// A value as the field type, when it is one (`out` set); false when it is not.
template <typename T> bool take(const Json& v, std::optional<T>& out) {
  if (!isOfType<T>(v)) return false;
  out = valueAs<T>(v);
  return true;
}

// A field as its value.
template <typename T> Json give(const T& v) {
  if constexpr (IsOptional<T>::value) {
    return v ? give(*v) : Json();
  } else if constexpr (IsList<T>::value) {
    Json list = Json::array();
    for (const auto& item : v) list.push_back(give(item));
    return list;
  } else {
    return Json(v);
  }
}

template <typename R> struct Field {
  const char* key;
  // Binds the member's value; false when it is not of the field's type (it is read past).
  std::function<bool(R&, const Json&)> read;
  // The member to write, or nullopt for none.
  std::function<std::optional<Json>(const R&)> write;
};

// A member the record has or has not: absent when the field is empty.
template <typename R, typename T> Field<R> field(const char* key, std::optional<T> R::*member) {
  return {key, [member](R& r, const Json& v) { return take(v, r.*member); },
          [member](const R& r) -> std::optional<Json> {
            if (!(r.*member)) return std::nullopt;
            return give(*(r.*member));
          }};
}

// A member every such record has: always written.
template <typename R, typename T> Field<R> always(const char* key, T R::*member) {
  return {key,
          [member](R& r, const Json& v) {
            std::optional<T> got;
            if (!take(v, got)) return false;
            r.*member = std::move(*got);
            return true;
          },
          [member](const R& r) -> std::optional<Json> { return give(r.*member); }};
}

// A member the writer always writes, null when the field is empty (a fact not known); read, null
// empties the field.
template <typename R, typename T> Field<R> nullable(const char* key, std::optional<T> R::*member) {
  return {key,
          [member](R& r, const Json& v) {
            if (v.is_null()) {
              (r.*member).reset();
              return true;
            }
            return take(v, r.*member);
          },
          [member](const R& r) -> std::optional<Json> {
            if (!(r.*member)) return Json();
            return give(*(r.*member));
          }};
}

// A nested record or list of them, with its own reader and writer.
template <typename R, typename T>
Field<R> nested(const char* key, std::optional<T> R::*member,
                std::function<std::optional<T>(const Json&)> readOne,
                std::function<Json(const T&)> writeOne) {
  return {key,
          [member, readOne](R& r, const Json& v) {
            std::optional<T> got = readOne(v);
            if (!got) return false;
            r.*member = std::move(got);
            return true;
          },
          [member, writeOne](const R& r) -> std::optional<Json> {
            if (!(r.*member)) return std::nullopt;
            return writeOne(*(r.*member));
          }};
}

// Binds every member of `object` (which must be an object) that `record` has a field for.
template <typename R>
void readRecord(const Json& object, R& record, const std::vector<Field<R>>& fields) {
  for (const Field<R>& f : fields)
    if (const Json* v = findMember(object, f.key)) f.read(record, *v);
}

template <typename R>
std::optional<R> recordOf(const Json& v, const std::vector<Field<R>>& fields) {
  if (!v.is_object()) return std::nullopt;
  R record;
  readRecord(v, record, fields);
  return record;
}

// The record's members, sorted by key.
template <typename R> Json writeRecord(const R& record, const std::vector<Field<R>>& fields) {
  Json object = Json::object();
  for (const Field<R>& f : fields)
    if (std::optional<Json> v = f.write(record)) object[f.key] = std::move(*v);
  return object;
}

// A list of records: every element an object, else not such a list.
template <typename R>
std::optional<std::vector<R>> recordsOf(const Json& v, const std::vector<Field<R>>& fields) {
  if (!v.is_array()) return std::nullopt;
  std::vector<R> out;
  for (const Json& item : v) {
    std::optional<R> r = recordOf(item, fields);
    if (!r) return std::nullopt;
    out.push_back(std::move(*r));
  }
  return out;
}

template <typename R>
Json writeRecords(const std::vector<R>& records, const std::vector<Field<R>>& fields) {
  Json list = Json::array();
  for (const R& r : records) list.push_back(writeRecord(r, fields));
  return list;
}

// A nested record, or a list of them, read and written by its own table.
template <typename R, typename T>
Field<R> record(const char* key, std::optional<T> R::*member,
                const std::vector<Field<T>>& (*fields)()) {
  return nested<R, T>(
      key, member, [fields](const Json& v) { return recordOf(v, fields()); },
      [fields](const T& r) { return writeRecord(r, fields()); });
}
template <typename R, typename T>
Field<R> records(const char* key, std::optional<std::vector<T>> R::*member,
                 const std::vector<Field<T>>& (*fields)()) {
  return nested<R, std::vector<T>>(
      key, member, [fields](const Json& v) { return recordsOf(v, fields()); },
      [fields](const std::vector<T>& list) { return writeRecords(list, fields()); });
}

// The tables of the records (record_tables.cpp).
const std::vector<Field<ReportEntry>>& entryFields();
const std::vector<Field<SettingsRecord>>& settingsFields();
const std::vector<Field<TimingRecord>>& timingFields();
const std::vector<Field<MemoryRecord>>& memoryFields();
const std::vector<Field<ProcessRecord>>& processFields();
const std::vector<Field<EnvironmentRecord>>& environmentFields();
const std::vector<Field<SweepSeriesRecord>>& sweepSeriesFields();
const std::vector<Field<SweepSection>>& sweepFields();
const std::vector<Field<ComparedCellRecord>>& comparedCellFields();
const std::vector<Field<ComparisonSection>>& comparisonFields();
const std::vector<Field<ExpectationSection>>& expectationFields();
const std::vector<Field<OutlierRecord>>& outlierFields();
const std::vector<Field<LinkPeakRecord>>& linkPeakFields();

}  // namespace nvbw::model
