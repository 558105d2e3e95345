// The least room a report's metrics take (metrics_internal.h), so that a report whose metrics
// cannot fit the budget is refused before its time and memory are spent on them. A lower bound:
// it may only leave out what a series might not carry, never count what it might not.
#include <algorithm>
#include <cstring>
#include <limits>

#include "fleet/metrics/metrics.h"
#include "fleet/metrics/metrics_internal.h"

namespace nvbw::metrics {
namespace {

struct LeastSize {
  std::size_t cells = 0;  // cells with a value
  std::size_t bytes = 0;  // at least this many bytes of value series for them
};

// The bytes of `labels` as the exposition writes them, their values unescaped (escaping only adds).
std::size_t labelBytes(const MetricLabels& labels) {
  std::size_t bytes = 0;
  std::size_t written = 0;
  for (const MetricLabel& l : labels) {
    if (l.value.empty()) continue;
    bytes += std::strlen(l.name) + 3 + l.value.size();  // name="value"
    ++written;
  }
  return written ? bytes + (written - 1) + 2 : 0;  // commas, braces
}

// One series of `family` with `labels`: name, labels, a space, one digit, a line feed.
std::size_t seriesBytes(bool latency, const MetricLabels& labels) {
  return std::strlen(kFamilyPrefix) + std::strlen(latency ? kLatencyFamily : kBandwidthFamily) +
         labelBytes(labels) + 3;
}

constexpr std::size_t kMost = std::numeric_limits<std::size_t>::max();

std::size_t saturatingAdd(std::size_t a, std::size_t b) { return a > kMost - b ? kMost : a + b; }

// Counts `cells` cells of at least `each` bytes each into `least`.
void addCells(LeastSize& least, std::size_t cells, std::size_t each) {
  least.cells = saturatingAdd(least.cells, cells);
  least.bytes = saturatingAdd(least.bytes, each && cells > kMost / each ? kMost : cells * each);
}

// The shortest model and UUID label values GPUs 0 .. count-1 have: "" when one has none.
std::pair<std::size_t, std::size_t> shortestGpuFacts(std::size_t count, const Facts& facts) {
  std::size_t model = kMost;
  std::size_t uuid = model;
  for (std::size_t i = 0; i < count; ++i) {
    const auto it = facts.gpus.find(static_cast<std::int64_t>(i));
    if (it == facts.gpus.end()) return {0, 0};
    model = std::min(model, it->second.model.size());
    uuid = std::min(uuid, it->second.uuid.size());
  }
  return count ? std::make_pair(model, uuid) : std::make_pair(std::size_t{0}, std::size_t{0});
}

// What every cell of `m` carries at the least: the labels of its cell [0][0] (cellSubject), no
// link, and the shortest values its layout's labels may take in another cell: rank 0 of no known
// GPU or host, the GPU whose model and UUID are shortest.
Subject leastCellSubject(const MetricMatrix& m, const Facts& facts) {
  Subject s = cellSubject(m, 0, 0, facts);
  s.link.clear();
  if (!s.rank.empty()) {
    s.gpu = s.uuid = s.model = s.host = "";
    s.rank = "0";
    if (!s.peerRank.empty()) s.peerRank = "0";
  } else if (!s.gpu.empty()) {
    const auto [model, uuid] =
        shortestGpuFacts(m.layout == Layout::GpuByPeer ? m.view.rows() : m.view.cols(), facts);
    s.model.assign(model, 'x');
    s.uuid.assign(uuid, 'x');
  }
  return s;
}

void refuse(const LeastSize& least, std::size_t maxBytes) {
  if (least.bytes <= maxBytes) return;
  throw MetricsTooLarge(tooLargeText(maxBytes) + " (its " + std::to_string(least.cells) +
                        " cells alone take at least " +
                        (least.bytes >> 20 ? std::to_string(least.bytes >> 20) + " MiB"
                                           : std::to_string(least.bytes) + " bytes") +
                        ")");
}

}  // namespace

void refuseIfOver(const std::vector<ReportEntry>& testcases, const Facts& facts,
                  std::size_t maxBytes) {
  LeastSize least;
  for (const ReportEntry& entry : testcases) {
    if (!entry.passedWithMatrix()) continue;
    const std::vector<OrNull>& cells = entry.matrix()->cells;
    Subject s = entrySubject(facts, entry.name, wholeText(entry.bufferSizeMiB));
    if (!entry.parts.empty() && entry.parts.front().axes.ranks)
      s.host.clear();  // cells of ranks carry their rank's host, which may be none
    addCells(
        least,
        std::count_if(cells.begin(), cells.end(), [](const OrNull& c) { return c.has_value(); }),
        seriesBytes(entry.unit == Unit::Nanoseconds, s.labels()));
  }
  refuse(least, maxBytes);
}

void refuseIfOver(const Entries& entries, const Facts& facts, std::size_t maxBytes) {
  LeastSize least;
  for (const MetricMatrix& m : entries.matrices) {
    std::size_t cells = 0;
    for (std::size_t r = 0; r < m.view.rows(); ++r)
      for (std::size_t c = 0; c < m.view.cols(); ++c) cells += m.view.value(r, c).has_value();
    addCells(least, cells, seriesBytes(m.view.latency(), leastCellSubject(m, facts).labels()));
  }
  refuse(least, maxBytes);
}

}  // namespace nvbw::metrics
