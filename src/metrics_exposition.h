// Writing the Prometheus text exposition format (0.0.4): one family of gauges at a time, its
// samples kept together, every label set once. Private to the metrics view (metrics.cpp).
#pragma once

#include <set>
#include <string>
#include <vector>

namespace nvbw::detail {

struct MetricLabel {
  const char* name;   // a valid label name, [a-zA-Z_][a-zA-Z0-9_]*
  std::string value;  // raw; escaped when written; an empty value is not written
};
using MetricLabels = std::vector<MetricLabel>;

// One gauge family: # HELP, # TYPE and its samples, in the order they were added.
class GaugeFamily {
 public:
  GaugeFamily(std::string name, std::string help);
  // Adds one sample; a value that is not finite is left out. A label set given twice (which no
  // document the tool writes leads to) gets a label duplicate="2", "3", ..., so that the file
  // stays valid and no value is lost.
  void add(const MetricLabels& labels, double value);
  bool empty() const { return count_ == 0; }
  // Appends the family to `out`; nothing when it has no sample.
  void write(std::string& out) const;

 private:
  std::string name_;
  std::string help_;
  std::string samples_;
  std::set<std::string> seen_;  // the label sets written, as their text
  std::size_t count_ = 0;
};

}  // namespace nvbw::detail
