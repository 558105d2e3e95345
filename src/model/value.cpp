#include "model/value.h"

#include <algorithm>

namespace nvbw {

namespace {

Members::iterator lowerBound(Members& members, const std::string& key) {
  return std::lower_bound(members.begin(), members.end(), key,
                          [](const Value::Member& m, const std::string& k) { return m.first < k; });
}

}  // namespace

Value Value::array(Array items) {
  Value v;
  v.v_ = std::move(items);
  return v;
}

Value Value::object(Object members) {
  std::stable_sort(members.begin(), members.end(),
                   [](const Member& a, const Member& b) { return a.first < b.first; });
  Object unique;
  for (Member& m : members) {
    if (!unique.empty() && unique.back().first == m.first)
      unique.back().second = std::move(m.second);
    else
      unique.push_back(std::move(m));
  }
  Value v;
  v.v_ = std::move(unique);
  return v;
}

const char* Value::typeName() const {
  switch (v_.index()) {
  case 1:
    return "boolean";
  case 2:
  case 3:
  case 4:
    return "number";
  case 5:
    return "string";
  case 6:
    return "array";
  case 7:
    return "object";
  default:
    return "null";
  }
}

std::int64_t Value::asInteger() const {
  if (v_.index() == 3) return static_cast<std::int64_t>(std::get<std::uint64_t>(v_));
  return std::get<std::int64_t>(v_);
}

std::uint64_t Value::asUnsigned() const {
  if (v_.index() == 2) return static_cast<std::uint64_t>(std::get<std::int64_t>(v_));
  return std::get<std::uint64_t>(v_);
}

double Value::asDouble() const {
  switch (v_.index()) {
  case 2:
    return static_cast<double>(std::get<std::int64_t>(v_));
  case 3:
    return static_cast<double>(std::get<std::uint64_t>(v_));
  default:
    return std::get<double>(v_);
  }
}

const Value* Value::find(const std::string& key) const {
  return isObject() ? findMember(members(), key) : nullptr;
}

void Value::set(const std::string& key, Value value) {
  if (isNull()) v_ = Object();
  setMember(std::get<Object>(v_), key, std::move(value));
}

void Value::erase(const std::string& key) {
  if (!isObject()) return;
  Object& members = std::get<Object>(v_);
  const auto at = lowerBound(members, key);
  if (at != members.end() && at->first == key) members.erase(at);
}

void Value::push(Value value) {
  if (isNull()) v_ = Array();
  std::get<Array>(v_).push_back(std::move(value));
}

bool Value::operator==(const Value& other) const {
  if (isNumber() && other.isNumber()) {
    if (isInteger() && other.isInteger()) {
      const bool negative = v_.index() == 2 && asInteger() < 0;
      const bool otherNegative = other.v_.index() == 2 && other.asInteger() < 0;
      if (negative != otherNegative) return false;
      return negative ? asInteger() == other.asInteger() : asUnsigned() == other.asUnsigned();
    }
    return asDouble() == other.asDouble();
  }
  return v_ == other.v_;
}

void setMember(Members& members, const std::string& key, Value value) {
  const auto at = lowerBound(members, key);
  if (at != members.end() && at->first == key)
    at->second = std::move(value);
  else
    members.insert(at, {key, std::move(value)});
}

const Value* findMember(const Members& members, const std::string& key) {
  const auto at =
      std::lower_bound(members.begin(), members.end(), key,
                       [](const Value::Member& m, const std::string& k) { return m.first < k; });
  return at != members.end() && at->first == key ? &at->second : nullptr;
}

}  // namespace nvbw
