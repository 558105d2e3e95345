// Writing the Prometheus text exposition format (0.0.4): one family of gauges at a time, its
// samples kept together, every label set once. Private to the metrics view (metrics.cpp).
#pragma once

#include <cstddef>
#include <string>
#include <unordered_set>
#include <vector>

namespace nvbw::detail {

struct MetricLabel {
  const char* name;   // a valid label name, [a-zA-Z_][a-zA-Z0-9_]*
  std::string value;  // raw; escaped when written; an empty value is not written
};
using MetricLabels = std::vector<MetricLabel>;

// One gauge family: # HELP, # TYPE and its samples, in the order they were added. Every family of
// one file draws on one budget of bytes (`budget`, which must outlive it).
class GaugeFamily {
 public:
  // `mayRepeat`: the caller cannot rule out giving one label set twice. Such a family remembers
  // its label sets, and a set given again gets a label duplicate="2", "3", ..., so that the file
  // stays valid and no value is lost. The other families' label sets are distinct by
  // construction (metrics.cpp), and remembering them would double the memory of the largest.
  GaugeFamily(std::string name, std::string help, std::size_t& budget, bool mayRepeat = false);
  // Adds one sample; a value that is not finite is left out. Throws MetricsTooLarge when the
  // budget would be exceeded.
  void add(const MetricLabels& labels, double value);
  bool empty() const { return count_ == 0; }
  // Moves the family's text to the end of `out` (nothing when it has no sample) and frees its
  // memory; the family takes no sample after this.
  void moveTo(std::string& out);

 private:
  std::string name_;
  std::string help_;
  std::size_t* budget_;
  std::size_t limit_;  // the whole budget, for the message
  std::string samples_;
  bool mayRepeat_;
  std::unordered_set<std::string> seen_;  // with mayRepeat_: the label sets written, as text
  std::size_t count_ = 0;
};

}  // namespace nvbw::detail
