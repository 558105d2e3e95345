#include "core/utc_time.h"

#include <cstdint>
#include <ctime>
#include <string_view>

#include "core/text.h"

namespace nvbw {

std::string isoUtcSeconds(std::chrono::system_clock::time_point when) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(when);
  std::tm utc{};
  ::gmtime_r(&seconds, &utc);
  char text[32];
  // strftime bounds the text by the buffer (the years of a time_t fit 32 bytes).
  if (std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc) == 0) return "";
  return text;
}

namespace {

// Reads an ISO 8601 text from the front: fixed-width digits, one of a set of characters.
struct TimestampCursor {
  const std::string& text;
  std::size_t at = 0;

  std::optional<unsigned> digits(std::size_t count) {
    const std::string field = text.substr(at, count);
    if (field.size() != count || !allDigits(field)) return std::nullopt;
    at += count;
    return static_cast<unsigned>(std::stoul(field));
  }
  bool literal(std::string_view options) {
    if (at >= text.size() || options.find(text[at]) == std::string_view::npos) return false;
    ++at;
    return true;
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
  // "Z", "+hh:mm" or "-hhmm": seconds east of UTC; nullopt for none (an unknown zone) or a bad one.
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
  // Year, month, day, hour, minute, second: their widths and what follows each.
  enum { Year, Month, Day, Hour, Minute, Second };
  static constexpr std::size_t kWidths[] = {4, 2, 2, 2, 2, 2};
  static constexpr const char* kAfter[] = {"-", "-", "Tt ", ":", ":", nullptr};
  unsigned f[6] = {};
  for (int i = Year; i <= Second; ++i) {
    const auto value = c.digits(kWidths[i]);
    if (!value || (kAfter[i] && !c.literal(kAfter[i]))) return std::nullopt;
    f[i] = *value;
  }
  if (f[Month] < 1 || f[Month] > 12 || f[Hour] > 23 || f[Minute] > 59 || f[Second] > 60)  // leap
    return std::nullopt;
  const std::optional<double> fraction = c.fraction();
  const std::optional<std::int64_t> offset = fraction ? c.offsetSeconds() : std::nullopt;
  if (!offset || c.at != text.size()) return std::nullopt;
  std::tm date{};
  date.tm_year = static_cast<int>(f[Year]) - 1900;
  date.tm_mon = static_cast<int>(f[Month]) - 1;
  date.tm_mday = static_cast<int>(f[Day]);
  const std::int64_t midnight = ::timegm(&date);  // a day the month lacks moves to the next one
  if (date.tm_mday != static_cast<int>(f[Day])) return std::nullopt;
  const std::int64_t whole = midnight + f[Hour] * 3600 + f[Minute] * 60 + f[Second] - *offset;
  return static_cast<double>(whole) + *fraction;
}

}  // namespace nvbw
