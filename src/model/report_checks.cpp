#include <cctype>
#include <charconv>
#include <cmath>
#include <locale>
#include <sstream>

#include "core/format.h"
#include "model/record_fields.h"

namespace nvbw::model {

std::string Path::text() const {
  std::string t = parent_ ? parent_->text() : root_;
  if (key_) return t + "." + key_;
  if (note_) return t + *note_;
  if (parent_) return t + "[" + std::to_string(index_) + "]";
  return t;
}

void reject(const Path& where, const std::string& why) {
  throw ReportShapeError(where.text() + ": " + why);
}

void wrongType(const Json& value, const Path& where, const char* expected) {
  reject(where, std::string("is ") + value.type_name() + ", not " + expected);
}

const ValueRange& rangeOf(Unit unit) {
  return unit == Unit::Nanoseconds ? kLatencyRange : kBandwidthRange;
}

const ValueRange& spreadOf(const ValueRange& range) {
  return &range == &kLatencyRange ? kSpreadOfLatency : kSpreadOfBandwidth;
}

double number(const Json& value, const Path& where, const ValueRange& range) {
  if (!value.is_number()) wrongType(value, where, "a number");
  return number(value.get<double>(), where, range);
}

double number(double value, const Path& where, const ValueRange& range) {
  if (!std::isfinite(value) || value < range.low || value > range.high ||
      (value > 0.0 && value < range.lowestPositive)) {
    reject(where, significant(value) + " is not " + range.what);
  }
  return value;
}

void integer(const Json& value, const Path& where, long long minimum) {
  if (!value.is_number_integer()) wrongType(value, where, "a whole number");
  if (value.is_number_unsigned()) return;
  if (value.get<std::int64_t>() < minimum)
    reject(where,
           std::to_string(value.get<std::int64_t>()) + " is below " + std::to_string(minimum));
}

const std::string& string(const Json& value, const Path& where) {
  if (!value.is_string()) wrongType(value, where, "a string");
  return value.get_ref<const std::string&>();
}

const Json& object(const Json& value, const Path& where) {
  if (!value.is_object()) wrongType(value, where, "an object");
  return value;
}

const Json& requiredMember(const Json& parent, const char* key, const Path& where) {
  const Json* value = findMember(parent, key);
  if (!value) reject(where, std::string("has no \"") + key + "\"");
  return *value;
}

const std::string& requiredString(const Json& parent, const char* key, const Path& where) {
  return string(requiredMember(parent, key, where), Path(where, key));
}

std::optional<std::optional<double>> cellTextValue(const std::string& text) {
  if (text == "N/A") return std::optional<double>();
  // The common spellings ("55.4859", "1.23457e+06") without a stream per cell; the rest (a
  // leading "+", a value out of range) as the stream reads them.
  double value = 0.0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), value);
  if (r.ec == std::errc() && r.ptr == text.data() + text.size() && std::isfinite(value))
    return std::optional<double>(value);
  std::istringstream in(text);
  in.imbue(std::locale::classic());  // a global locale must not change the decimal point
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0])) || !(in >> value) ||
      in.peek() != std::char_traits<char>::eof())
    return std::nullopt;
  return std::optional<double>(value);
}

}  // namespace nvbw::model
