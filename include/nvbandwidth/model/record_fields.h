// How the model's small records meet a document's objects (internal to the model): one table per
// record names each key with its field, so that the reader binds an object to a record (a member
// the record has no field for, or one of another type, kept in its extras) and the writer turns
// the record back into the members it had.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/report.h"

namespace nvbw::model {

// A value as the field type, when it is one (`out` set); false when it is not.
bool take(const Value& v, std::optional<std::string>& out);
bool take(const Value& v, std::optional<bool>& out);
bool take(const Value& v, std::optional<double>& out);
bool take(const Value& v, std::optional<std::uint64_t>& out);  // a whole number of 0 or more
bool take(const Value& v, std::optional<std::int64_t>& out);
bool take(const Value& v, std::optional<OrNull>& out);                      // a number or null
bool take(const Value& v, std::optional<std::optional<std::string>>& out);  // a string or null
bool take(const Value& v, std::optional<std::vector<std::string>>& out);
bool take(const Value& v, std::optional<std::vector<std::uint64_t>>& out);
bool take(const Value& v, std::optional<std::vector<double>>& out);
bool take(const Value& v, std::optional<std::vector<OrNull>>& out);

Value give(const std::string& v);
Value give(bool v);
Value give(double v);
Value give(std::uint64_t v);
Value give(std::int64_t v);
Value give(const OrNull& v);
Value give(const std::optional<std::string>& v);
Value give(const std::vector<std::string>& v);
Value give(const std::vector<std::uint64_t>& v);
Value give(const std::vector<double>& v);
Value give(const std::vector<OrNull>& v);

template <typename R> struct Field {
  const char* key;
  // Binds the member's value; false when it is not of the field's type (it goes to the extras).
  std::function<bool(R&, const Value&)> read;
  // The member to write, or nullopt for none.
  std::function<std::optional<Value>(const R&)> write;
};

// A member the record has or has not: absent when the field is empty.
template <typename R, typename T> Field<R> field(const char* key, std::optional<T> R::*member) {
  return {key, [member](R& r, const Value& v) { return take(v, r.*member); },
          [member](const R& r) -> std::optional<Value> {
            if (!(r.*member)) return std::nullopt;
            return give(*(r.*member));
          }};
}

// A member every such record has: always written.
template <typename R, typename T> Field<R> always(const char* key, T R::*member) {
  return {key,
          [member](R& r, const Value& v) {
            std::optional<T> got;
            if (!take(v, got)) return false;
            r.*member = std::move(*got);
            return true;
          },
          [member](const R& r) -> std::optional<Value> { return give(r.*member); }};
}

// A member the writer always writes, null when the field is empty (a fact not known); read, null
// empties the field.
template <typename R, typename T> Field<R> nullable(const char* key, std::optional<T> R::*member) {
  return {key,
          [member](R& r, const Value& v) {
            if (v.isNull()) {
              (r.*member).reset();
              return true;
            }
            return take(v, r.*member);
          },
          [member](const R& r) -> std::optional<Value> {
            if (!(r.*member)) return Value();
            return give(*(r.*member));
          }};
}

// A nested record or list of them, with its own reader and writer.
template <typename R, typename T>
Field<R> nested(const char* key, std::optional<T> R::*member,
                std::function<std::optional<T>(const Value&)> readOne,
                std::function<Value(const T&)> writeOne) {
  return {key,
          [member, readOne](R& r, const Value& v) {
            std::optional<T> got = readOne(v);
            if (!got) return false;
            r.*member = std::move(got);
            return true;
          },
          [member, writeOne](const R& r) -> std::optional<Value> {
            if (!(r.*member)) return std::nullopt;
            return writeOne(*(r.*member));
          }};
}

// Binds every member of `object` (which must be an object) to `record`.
template <typename R>
void readRecord(const Value& object, R& record, const std::vector<Field<R>>& fields) {
  for (const Value::Member& m : object.members()) {
    bool bound = false;
    for (const Field<R>& f : fields)
      if (m.first == f.key) {
        bound = f.read(record, m.second);
        break;
      }
    if (!bound) setMember(record.extras, m.first, m.second);
  }
}

template <typename R>
std::optional<R> recordOf(const Value& v, const std::vector<Field<R>>& fields) {
  if (!v.isObject()) return std::nullopt;
  R record;
  readRecord(v, record, fields);
  return record;
}

// The record's members (its extras among them), sorted by key.
template <typename R> Value writeRecord(const R& record, const std::vector<Field<R>>& fields) {
  Value object = Value::object(record.extras);
  for (const Field<R>& f : fields)
    if (std::optional<Value> v = f.write(record)) object.set(f.key, std::move(*v));
  return object;
}

// A list of records: every element an object, else not such a list.
template <typename R>
std::optional<std::vector<R>> recordsOf(const Value& v, const std::vector<Field<R>>& fields) {
  if (!v.isArray()) return std::nullopt;
  std::vector<R> out;
  for (const Value& item : v.items()) {
    std::optional<R> r = recordOf(item, fields);
    if (!r) return std::nullopt;
    out.push_back(std::move(*r));
  }
  return out;
}

template <typename R>
Value writeRecords(const std::vector<R>& records, const std::vector<Field<R>>& fields) {
  Value list = Value::array();
  for (const R& r : records) list.push(writeRecord(r, fields));
  return list;
}

// The tables of the records (record_tables.cpp).
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
