#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "core/escape.h"
#include "fleet/metrics/metrics.h"
#include "fleet/metrics/metrics_internal.h"

namespace nvbw::metrics {
namespace {

// "\\xNN": the four characters \xNN in the label's value, its backslash escaped.
void appendHexEscape(std::string& out, unsigned char byte) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\\\x%02x", byte);
  out += buf;
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
  const auto result = std::to_chars(buf.data(), buf.data() + buf.size(), value);
  return std::string(buf.data(), result.ptr);
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
  if (count_ == 0) bytes += 2 * name_.size() + help_.size() + 23;  // # HELP, # TYPE
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
  out.push_back("# HELP " + name_ + " " + help_ + "\n# TYPE " + name_ + " gauge\n");
  for (std::string& piece : samples_) out.push_back(std::move(piece));
  std::vector<std::string>().swap(samples_);
}

}  // namespace nvbw::metrics
