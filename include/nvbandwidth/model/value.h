// A JSON value of the report model's own, without a JSON library in sight: what a report holds
// under keys the model does not know (a newer layout's), and the small messages the processes of
// a run exchange. Objects keep their members in byte order of their keys, as the writer prints
// them; a key set twice keeps the later value (as the reader takes a repeated key).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace nvbw {

class Value {
 public:
  using Array = std::vector<Value>;
  using Member = std::pair<std::string, Value>;
  using Object = std::vector<Member>;  // sorted by key, each key once

  Value() = default;  // null
  Value(bool v) : v_(v) {}
  Value(int v) : v_(static_cast<std::int64_t>(v)) {}
  Value(long v) : v_(static_cast<std::int64_t>(v)) {}
  Value(long long v) : v_(static_cast<std::int64_t>(v)) {}
  Value(unsigned v) : v_(static_cast<std::uint64_t>(v)) {}
  Value(unsigned long v) : v_(static_cast<std::uint64_t>(v)) {}
  Value(unsigned long long v) : v_(static_cast<std::uint64_t>(v)) {}
  Value(double v) : v_(v) {}
  Value(std::string v) : v_(std::move(v)) {}
  Value(const char* v) : v_(std::string(v)) {}
  static Value array(Array items = {});
  static Value object(Object members = {});

  bool isNull() const { return v_.index() == 0; }
  bool isBoolean() const { return v_.index() == 1; }
  bool isInteger() const { return v_.index() == 2 || v_.index() == 3; }  // signed or unsigned
  bool isUnsigned() const { return v_.index() == 3; }
  bool isNumber() const { return v_.index() >= 2 && v_.index() <= 4; }
  bool isString() const { return v_.index() == 5; }
  bool isArray() const { return v_.index() == 6; }
  bool isObject() const { return v_.index() == 7; }
  // "null", "boolean", "number", "string", "array" or "object", as messages name them.
  const char* typeName() const;

  // The value as that type; each requires it (a number of either kind for asDouble; a whole
  // number for asInteger, and one of 0 or more for asUnsigned).
  bool asBoolean() const { return std::get<bool>(v_); }
  std::int64_t asInteger() const;
  std::uint64_t asUnsigned() const;
  double asDouble() const;
  const std::string& asString() const { return std::get<std::string>(v_); }
  const Array& items() const { return std::get<Array>(v_); }
  Array& items() { return std::get<Array>(v_); }
  const Object& members() const { return std::get<Object>(v_); }

  // The member `key` of an object, or nullptr (also when this is no object).
  const Value* find(const std::string& key) const;
  // Sets the member `key` of an object (a null value becomes an object first).
  void set(const std::string& key, Value value);
  // Removes the member `key` of an object, if it has one.
  void erase(const std::string& key);
  // Appends to an array (a null value becomes an array first).
  void push(Value value);

  // JSON's equality: numbers by value whatever their kind (1 == 1.0), objects member by member.
  bool operator==(const Value& other) const;
  bool operator!=(const Value& other) const { return !(*this == other); }

 private:
  std::variant<std::monostate, bool, std::int64_t, std::uint64_t, double, std::string, Array,
               Object>
      v_;
};

// The members of a record that the model knows by name, and those it does not (kept as they were
// read, so that a report written again loses nothing). Sorted by key.
using Members = Value::Object;

// Sets `key` in a sorted member list (replacing a member of that key).
void setMember(Members& members, const std::string& key, Value value);
const Value* findMember(const Members& members, const std::string& key);

}  // namespace nvbw
