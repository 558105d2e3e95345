// Reading a report for the metrics view (metrics.cpp): the facts about its GPUs and processes,
// its matrices with what their rows and columns are (the model's axes), its entries, and the
// labels of a series. Private to the metrics view.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fleet/metrics/metrics_exposition.h"
#include "model/report.h"

namespace nvbw::metrics {

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
  const std::string& key() const { return view.key(); }
  bool latency() const { return view.latency(); }
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

struct LeastSize {
  std::size_t cells = 0;  // cells with a value
  std::size_t bytes = 0;  // at least this many bytes of value series for them
};

// Each cell with a value is one value series with at least the labels tests/metrics/README.md
// ("Hostile reports") lists and a one-digit value. Of the entries before their matrices are laid
// out:
LeastSize leastMetricsBytes(const std::vector<ReportEntry>& testcases, const Facts& facts);
// Of the matrices read, with their layouts:
LeastSize leastMetricsBytes(const Entries& entries, const Facts& facts);

// Throws MetricsTooLarge when `least` is over `maxBytes`.
void refuseIfOver(const LeastSize& least, std::size_t maxBytes);

}  // namespace nvbw::metrics
