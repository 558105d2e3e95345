#include "fleet/metrics/metrics_exposition.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "core/escape.h"

namespace nvbw::metrics {
namespace {

// "\\xNN": the four characters \xNN in the label's value, its backslash escaped.
void appendHexEscape(std::string& out, unsigned char byte) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\\\x%02x", byte);
  out += buf;
}

// HELP text escaping (the format's: backslash and line feed).
std::string helpText(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

std::string labelText(const MetricLabels& labels) {
  std::string text;
  for (const MetricLabel& label : labels) {
    if (label.value.empty()) continue;
    text += text.empty() ? "{" : ",";
    text += label.name;
    text += "=\"";
    text += metricsLabelValue(label.value);
    text += '"';
  }
  if (!text.empty()) text += '}';
  return text;
}

// Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil).
std::int64_t daysFromCivil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

unsigned daysInMonth(std::int64_t year, unsigned month) {
  static const unsigned days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : days[month - 1];
}

constexpr std::size_t kPieceBytes = 1u << 20;

}  // namespace

std::string tooLargeText(std::size_t limit) {
  return "the metrics of this report would exceed " + (limit % (1u << 20) == 0
                                                           ? std::to_string(limit >> 20) + " MiB"
                                                           : std::to_string(limit) + " bytes");
}

std::string metricsLabelValue(const std::string& value) {
  std::string out;
  out.reserve(value.size());
  for (std::size_t i = 0; i < value.size();) {
    const auto c = static_cast<unsigned char>(value[i]);
    char32_t cp = 0;
    const std::size_t length = utf8Sequence(value, i, cp);
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else if (length == 0) {
      appendHexEscape(out, c);  // not UTF-8: the byte alone
    } else if (isControlCharacter(cp) || cp == 0x2028 || cp == 0x2029) {  // they end lines too
      for (std::size_t k = 0; k < length; ++k)
        appendHexEscape(out, static_cast<unsigned char>(value[i + k]));
    } else {
      out.append(value, i, length);
    }
    i += length == 0 ? 1 : length;
  }
  return out;
}

std::string metricsNumber(double value) {
  std::array<char, 32> buf{};
  // std::to_chars without a precision: the shortest text that reads back as `value`, never
  // affected by the locale.
  const auto result = std::to_chars(buf.data(), buf.data() + buf.size(), value);
  return std::string(buf.data(), result.ptr);
}

namespace {

// Reads an ISO 8601 text from the front: fixed-width digits, one of a set of characters.
struct TimestampCursor {
  const std::string& text;
  std::size_t at = 0;

  std::optional<unsigned> digits(std::size_t count) {
    if (at + count > text.size()) return std::nullopt;
    unsigned value = 0;
    for (std::size_t k = 0; k < count; ++k) {
      const char c = text[at + k];
      if (c < '0' || c > '9') return std::nullopt;
      value = value * 10 + static_cast<unsigned>(c - '0');
    }
    at += count;
    return value;
  }
  bool literal(const char* options) {
    if (at < text.size())
      for (const char* o = options; *o; ++o)
        if (text[at] == *o) {
          ++at;
          return true;
        }
    return false;
  }
  // ".123" or ",123": the fraction of a second; 0 without one, nullopt for a point without digits.
  std::optional<double> fraction() {
    double value = 0.0;
    if (!literal(".,")) return value;
    double scale = 0.1;
    const std::size_t first = at;
    for (; at < text.size() && text[at] >= '0' && text[at] <= '9'; ++at, scale /= 10)
      value += scale * (text[at] - '0');
    if (at == first) return std::nullopt;
    return value;
  }
  // "Z", or "+hh:mm" / "-hhmm": seconds east of UTC; nullopt for none (a local time of an unknown
  // zone) or a wrong one.
  std::optional<std::int64_t> offsetSeconds() {
    if (literal("Zz")) return 0;
    if (at >= text.size() || (text[at] != '+' && text[at] != '-')) return std::nullopt;
    const bool east = text[at++] == '+';
    const auto hours = digits(2);
    if (!hours) return std::nullopt;
    literal(":");
    const auto minutes = digits(2);
    if (!minutes || *hours > 23 || *minutes > 59) return std::nullopt;
    return (east ? 1 : -1) * static_cast<std::int64_t>(*hours * 3600 + *minutes * 60);
  }
};

}  // namespace

std::optional<double> parseUtcTimestamp(const std::string& text) {
  TimestampCursor c{text};
  const auto year = c.digits(4);
  if (!year || !c.literal("-")) return std::nullopt;
  const auto month = c.digits(2);
  if (!month || !c.literal("-")) return std::nullopt;
  const auto day = c.digits(2);
  if (!day || !c.literal("Tt ")) return std::nullopt;
  const auto hour = c.digits(2);
  if (!hour || !c.literal(":")) return std::nullopt;
  const auto minute = c.digits(2);
  if (!minute || !c.literal(":")) return std::nullopt;
  const auto second = c.digits(2);
  if (!second) return std::nullopt;
  if (*month < 1 || *month > 12 || *day < 1 || *day > daysInMonth(*year, *month) || *hour > 23 ||
      *minute > 59 || *second > 60)  // 60: a leap second
    return std::nullopt;
  const std::optional<double> fraction = c.fraction();
  const std::optional<std::int64_t> offset = fraction ? c.offsetSeconds() : std::nullopt;
  if (!offset || c.at != text.size()) return std::nullopt;
  const std::int64_t whole =
      daysFromCivil(*year, *month, *day) * 86400 + *hour * 3600 + *minute * 60 + *second - *offset;
  return static_cast<double>(whole) + *fraction;
}

GaugeFamily::GaugeFamily(std::string name, std::string help, std::size_t& budget, bool mayRepeat)
    : name_(std::move(name)), help_(std::move(help)), budget_(&budget), limit_(budget),
      mayRepeat_(mayRepeat) {}

void GaugeFamily::add(const MetricLabels& labels, double value) {
  if (!std::isfinite(value)) return;
  std::string text = labelText(labels);
  for (std::size_t copy = 2; mayRepeat_ && !seen_.insert(text).second; ++copy) {
    MetricLabels marked = labels;
    marked.push_back({"duplicate", std::to_string(copy)});
    text = labelText(marked);
  }
  const std::string number = metricsNumber(value);
  std::size_t bytes = name_.size() + text.size() + number.size() + 2;
  if (count_ == 0) bytes += 2 * name_.size() + helpText(help_).size() + 23;  // # HELP, # TYPE
  if (bytes > *budget_) throw MetricsTooLarge(tooLargeText(limit_));
  *budget_ -= bytes;
  if (samples_.empty() || samples_.back().size() >= kPieceBytes) {
    samples_.emplace_back();
    // The first piece grows as small families need; the next ones are one piece from the start.
    if (samples_.size() > 1) samples_.back().reserve(kPieceBytes + bytes);
  }
  std::string& piece = samples_.back();
  piece += name_;
  piece += text;
  piece += ' ';
  piece += number;
  piece += '\n';
  ++count_;
}

void GaugeFamily::moveTo(std::vector<std::string>& out) {
  std::unordered_set<std::string>().swap(seen_);
  if (count_ == 0) return;
  out.push_back("# HELP " + name_ + " " + helpText(help_) + "\n# TYPE " + name_ + " gauge\n");
  for (std::string& piece : samples_) out.push_back(std::move(piece));
  std::vector<std::string>().swap(samples_);
}

}  // namespace nvbw::metrics
