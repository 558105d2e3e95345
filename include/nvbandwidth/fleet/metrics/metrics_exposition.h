// Writing the Prometheus text exposition format (0.0.4): one family of gauges at a time, its
// samples kept together, every label set once. Private to the metrics view (metrics.cpp).
#pragma once

#include <cstddef>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/error.h"

namespace nvbw {

// The largest metrics text: as large as the largest report read (kMaxReportBytes); why only a
// hostile report gets near: tests/metrics/README.md, "Hostile reports".
inline constexpr std::size_t kMaxMetricsBytes = 256u << 20;

// The metrics of a report would be larger than kMaxMetricsBytes.
class MetricsTooLarge : public Error {
 public:
  using Error::Error;
};

namespace metrics {

// "the metrics of this report would exceed 256 MiB" (or "... N bytes" for a budget that is no
// whole number of MiB).
std::string tooLargeText(std::size_t limit);

// A label value as the exposition format writes it between the quotes: \\, \" and \n escaped, the
// bytes of control characters and of invalid UTF-8 as the text \\xNN.
std::string metricsLabelValue(const std::string& value);

// A sample value: the shortest decimal text that parses back to `value` ("55.39419706710477",
// "1e+20"), independent of the locale. `value` must be finite.
std::string metricsNumber(double value);

struct MetricLabel {
  const char* name;   // a valid label name, [a-zA-Z_][a-zA-Z0-9_]*
  std::string value;  // raw; escaped when written; an empty value is not written
};
using MetricLabels = std::vector<MetricLabel>;

// One gauge family: # HELP, # TYPE and its samples, in the order they were added. Every family of
// one file draws on one budget of bytes (`budget`, which must outlive it).
class GaugeFamily {
 public:
  // `mayRepeat`: the caller cannot rule out giving one label set twice; such a family remembers
  // its label sets and marks a repeated one duplicate="2", "3", ... The others' sets are
  // distinct by construction (metrics.cpp), and remembering them would double the largest.
  GaugeFamily(std::string name, std::string help, std::size_t& budget, bool mayRepeat = false);
  // Adds one sample; a value that is not finite is left out. Throws MetricsTooLarge when the
  // budget would be exceeded.
  void add(const MetricLabels& labels, double value);
  // Moves the family's text, in pieces, to the end of `out` (nothing when it has no sample); the
  // family takes no sample after this.
  void moveTo(std::vector<std::string>& out);

 private:
  std::string name_;
  std::string help_;
  std::size_t* budget_;
  std::size_t limit_;  // the whole budget, for the message
  // The samples' text in pieces of about kPieceBytes: a growing string would at times hold twice
  // the family (while it moves to a larger buffer), pieces never more than one piece extra.
  std::vector<std::string> samples_;
  bool mayRepeat_;
  std::unordered_set<std::string> seen_;  // with mayRepeat_: the label sets written, as text
  std::size_t count_ = 0;
};

}  // namespace metrics
}  // namespace nvbw
