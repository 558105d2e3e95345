// The pieces of the metrics view (internal to it, metrics.cpp): writing the Prometheus text
// exposition format (0.0.4) one gauge family at a time, and reading a report for it: the facts
// about its GPUs and processes, its matrices and entries, and the labels of a series.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "model/report.h"

namespace nvbw::metrics {

// ---- Writing the exposition format ----

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

// One gauge family: # HELP, # TYPE and its samples, in the order they were added. `help` is this
// tool's text, with no backslash or line feed for the format to escape. Every family of one file
// draws on one budget of bytes (`budget`, which must outlive it).
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

// ---- What the report says about its GPUs and processes ----

// What the labels say of a GPU: its model and UUID; of a rank's, its device index and host too.
struct GpuFacts {
  std::string model;
  std::string uuid;
  std::string device;
  std::string host;
};

struct Facts {
  std::string hostname;                   // the report's host
  std::map<std::int64_t, GpuFacts> gpus;  // by device index
  std::map<std::int64_t, GpuFacts> ranks;
};

Facts readFacts(const Report& report);

// ---- Labels ----

// What a series is about, in the order its labels are written (dcgm-exporter's first).
struct Subject {
  std::string gpu, uuid, model, host, testcase, peer, rank, peerRank, row, col, link, bufferMiB,
      repeat;
  MetricLabels labels(MetricLabels extra = {}) const;
};

// ---- Matrices and entries ----

// How rows and columns become labels (tests/metrics/README.md, "Labels").
enum class Layout {
  HostByGpu,       // 1 row, the CPU; columns: gpu
  GpuByPeer,       // rows: gpu (issuing), columns: peer (whose memory)
  GpuColumns,      // 1 row; columns: gpu
  RankByPeerRank,  // multi-process: rows: rank, columns: peer_rank
  RankColumns,     // multi-process, 1 row; columns: rank
  Bisect,          // multi-process, 1 column; row labels "<from>-><to>": rank, peer_rank
  Single,          // 1 x 1, no device in the title
  RowCol,          // row and col labels
};

// One matrix of the report (a part of upstream's stacked entries among them), its cells read
// through the model's view of it.
struct MetricMatrix {
  explicit MetricMatrix(const MatrixView& v) : view(v) {}
  MatrixView view;
  Subject whole;  // the matrix as a whole (entrySubject)
  Layout layout = Layout::RowCol;
  std::vector<std::pair<std::string, std::string>> bisect;  // per row: from, to
};

struct StatusView {
  Subject entry;  // entrySubject
  std::string status;
};

struct Entries {
  std::vector<MetricMatrix> matrices;  // upstream's stacked entries split in three
  std::vector<StatusView> statuses;    // one per entry (per part of a stacked one)
};

// `testcases`: the report's entries; the views point into them.
Entries readEntries(const std::vector<ReportEntry>& testcases, const Facts& facts);

// A whole number of 0 or more as text ("" when absent).
std::string wholeText(const std::optional<std::uint64_t>& value);
// A device index, rank or cell position as the labels' maps key them; nullopt when absent or
// beyond their range.
std::optional<std::int64_t> indexOf(const std::optional<std::uint64_t>& value);

// An entry or matrix as a whole: the report's host, its key, size and (from the second
// occurrence of the key and size on) repeat.
Subject entrySubject(const Facts& facts, const std::string& key = "",
                     const std::string& bufferMiB = "", std::size_t occurrence = 1);
// One cell, by the matrix's layout.
Subject cellSubject(const MetricMatrix& m, std::size_t row, std::size_t col, const Facts& facts);
// `s` made about `rank` (digits): its GPU and the host of its GPU, none where the report has none.
void aboutRank(Subject& s, const std::string& rank, const Facts& facts);

// ---- The least room the metrics of a report take ----

// The families' names start so; the value series' names (metrics.cpp names its families so).
inline constexpr const char* kFamilyPrefix = "nvbandwidth_";
inline constexpr const char* kBandwidthFamily = "bandwidth_bytes_per_second";
inline constexpr const char* kLatencyFamily = "latency_seconds";

// Throws MetricsTooLarge when the cells alone cannot fit `maxBytes`: each cell with a value is
// one value series with at least the labels tests/metrics/README.md ("Hostile reports") lists and
// a one-digit value. Of the entries before their matrices are laid out:
void refuseIfOver(const std::vector<ReportEntry>& testcases, const Facts& facts,
                  std::size_t maxBytes);
// Of the matrices read, with their layouts:
void refuseIfOver(const Entries& entries, const Facts& facts, std::size_t maxBytes);

}  // namespace nvbw::metrics
