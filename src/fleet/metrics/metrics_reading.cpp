// Reading a report for the metrics view (metrics_internal.h): the facts, the matrices with their
// layouts (from the model's axes), the labels of a series.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>

#include "core/text.h"
#include "fleet/metrics/metrics_internal.h"

namespace nvbw::metrics {

std::string wholeText(const std::optional<std::uint64_t>& value) {
  return value ? std::to_string(*value) : std::string();
}

std::optional<std::int64_t> indexOf(const std::optional<std::uint64_t>& value) {
  if (!value || *value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    return std::nullopt;
  return static_cast<std::int64_t>(*value);
}

namespace {

// The device index a "GPU Device list" line starts with ("0: NVIDIA H200 (...): (host)").
std::optional<std::int64_t> listedIndex(const std::string& line) {
  std::int64_t index = 0;
  if (line.empty() || !std::isdigit(static_cast<unsigned char>(line[0]))) return std::nullopt;
  const auto r = std::from_chars(line.data(), line.data() + line.size(), index);
  if (r.ec != std::errc() || line.compare(r.ptr - line.data(), 2, ": ") != 0) return std::nullopt;
  return index;
}

// A rank as a bisect row label writes it, padded with spaces: canonical ("01" is rank 1), so that
// two spellings cannot name one pair twice; "" unless it is 1 to 9 digits.
std::string rankText(const std::string& s) {
  const std::size_t first = s.find_first_not_of(' ');
  if (first == std::string::npos) return "";
  const std::string digits = s.substr(first, s.find_last_not_of(' ') - first + 1);
  if (!allDigits(digits) || digits.size() > 9) return "";
  return std::to_string(std::stol(digits));
}

// The bisect testcase's rows, "<from>-><to>" each; empty unless every row has one and no pair
// repeats.
std::vector<std::pair<std::string, std::string>> bisectRows(const ReportEntry& entry,
                                                            std::size_t rows) {
  std::vector<std::pair<std::string, std::string>> pairs;
  if (!entry.rowLabels || entry.rowLabels->size() != rows) return {};
  for (const std::string& s : *entry.rowLabels) {
    const std::size_t arrow = s.find("->");
    if (arrow == std::string::npos) return {};
    std::pair<std::string, std::string> p{rankText(s.substr(0, arrow)),
                                          rankText(s.substr(arrow + 2))};
    if (p.first.empty() || p.second.empty() ||
        std::find(pairs.begin(), pairs.end(), p) != pairs.end())
      return {};
    pairs.push_back(std::move(p));
  }
  return pairs;
}

// `m` is new (RowCol). The model's matrices are rectangular, of one row and one column at least.
void chooseLayout(MetricMatrix& m) {
  const std::size_t rows = m.view.rows();
  const std::size_t cols = m.view.cols();
  const MatrixAxes& a = m.view.part().axes;
  const bool square = rows == cols;
  if (rows == 0 || cols == 0) return;
  if (a.ranks) {
    if (a.rowsNamed && a.colsNamed && square && rows > 1) {
      m.layout = Layout::RankByPeerRank;
    } else if (rows == 1 && a.colsNamed && !a.rowsNamed) {
      m.layout = Layout::RankColumns;
    } else if (cols == 1) {
      m.bisect = bisectRows(m.view.entry(), rows);
      if (!m.bisect.empty()) m.layout = Layout::Bisect;
    }
  } else if (a.rowsAreCpu() && a.colsNamed && rows == 1) {
    m.layout = Layout::HostByGpu;
  } else if (a.rowsAreGpus() && a.colsAreGpus() && rows == 1) {
    m.layout = Layout::GpuColumns;
  } else if (a.rowsAreGpus() && a.colsAreGpus() && square) {
    m.layout = Layout::GpuByPeer;
  } else if (a.colsAreGpus() && !a.rowsNamed && rows == 1) {
    m.layout = Layout::GpuColumns;
  }
  if (m.layout == Layout::RowCol && rows == 1 && cols == 1 && !a.rowsNamed && !a.colsNamed)
    m.layout = Layout::Single;
}

void aboutGpu(Subject& s, std::size_t index, const Facts& facts) {
  s.gpu = std::to_string(index);
  if (const auto it = facts.gpus.find(static_cast<std::int64_t>(index)); it != facts.gpus.end()) {
    s.uuid = it->second.uuid;
    s.model = it->second.model;
  }
}

}  // namespace

Facts readFacts(const Report& report) {
  Facts facts;
  std::string listedHost;
  for (const std::string& line : orEmpty(report.gpuDeviceList)) {
    const auto index = listedIndex(line);
    if (!index) continue;
    const DeviceListEntry d = readDeviceListEntry(line);
    // The first line of an index counts.
    facts.gpus.emplace(*index, GpuFacts{d.model, "", "", ""});
    if (listedHost.empty()) listedHost = d.host;
  }
  if (report.environment && report.environment->gpus)
    for (const GpuStateRecord& gpu : *report.environment->gpus) {
      const auto device = indexOf(gpu.device);
      const std::string uuid = gpu.uuid.value_or("");
      if (device && !uuid.empty() && facts.gpus[*device].uuid.empty())
        facts.gpus[*device].uuid = uuid;
    }
  if (report.processes)
    for (std::size_t i = 0; i < report.processes->size(); ++i) {
      const ProcessRecord& p = (*report.processes)[i];
      const auto rank = indexOf(p.rank);
      facts.ranks.emplace(rank ? *rank : static_cast<std::int64_t>(i),
                          GpuFacts{p.name.value_or(""), p.uuid.value_or(""), wholeText(p.device),
                                   p.host.value_or("")});
    }
  // Rank 0 measures the single-process testcases with its own device numbering, in which its
  // GPU is `device`; the other ranks' indices may count other GPUs (CUDA_VISIBLE_DEVICES).
  if (const auto rank0 = facts.ranks.find(0); rank0 != facts.ranks.end()) {
    std::int64_t device = 0;
    const std::string& d = rank0->second.device;
    if (!d.empty() && std::from_chars(d.data(), d.data() + d.size(), device).ec == std::errc() &&
        facts.gpus[device].uuid.empty())
      facts.gpus[device].uuid = rank0->second.uuid;
  }
  facts.hostname = report.hostname.value_or("");
  if (facts.hostname.empty()) facts.hostname = listedHost;
  if (facts.hostname.empty() && facts.ranks.count(0)) facts.hostname = facts.ranks[0].host;
  return facts;
}

Entries readEntries(const std::vector<ReportEntry>& testcases, const Facts& facts) {
  Entries out;
  std::map<std::pair<std::string, std::string>, std::size_t> seen;  // (key, size) -> entries
  auto subject = [&seen, &facts](const std::string& key, const std::string& size) {
    return entrySubject(facts, key, size, ++seen[{key, size}]);
  };
  for (const ReportEntry& entry : testcases) {
    const std::string size = wholeText(entry.bufferSizeMiB);
    if (!entry.passedWithMatrix())
      out.statuses.push_back({subject(entry.name, size), statusName(entry.status)});
    else
      for (const MatrixPart& part : entry.parts) {
        MetricMatrix m{MatrixView(entry, part)};
        m.whole = subject(part.key, size);
        chooseLayout(m);
        out.statuses.push_back({m.whole, statusName(Status::Passed)});
        out.matrices.push_back(std::move(m));
      }
  }
  return out;
}

MetricLabels Subject::labels(MetricLabels extra) const {
  MetricLabels l{{"gpu", gpu},       {"UUID", uuid},          {"modelName", model},
                 {"Hostname", host}, {"testcase", testcase},  {"peer", peer},
                 {"rank", rank},     {"peer_rank", peerRank}, {"row", row},
                 {"col", col},       {"link", link},          {"buffer_size_mib", bufferMiB},
                 {"repeat", repeat}};
  l.insert(l.end(), extra.begin(), extra.end());
  return l;
}

Subject entrySubject(const Facts& facts, const std::string& key, const std::string& bufferMiB,
                     std::size_t occurrence) {
  Subject s;
  s.host = facts.hostname;
  s.testcase = key;
  s.bufferMiB = bufferMiB;
  s.repeat = occurrence > 1 ? std::to_string(occurrence) : "";
  return s;
}

void aboutRank(Subject& s, const std::string& rank, const Facts& facts) {
  s.rank = rank;
  s.host.clear();  // the host of this rank's GPU, not the report's
  std::int64_t r = 0;
  if (std::from_chars(rank.data(), rank.data() + rank.size(), r).ec != std::errc()) return;
  if (const auto it = facts.ranks.find(r); it != facts.ranks.end()) {
    s.gpu = it->second.device;
    s.uuid = it->second.uuid;
    s.model = it->second.model;
    s.host = it->second.host;
  }
}

Subject cellSubject(const MetricMatrix& m, std::size_t row, std::size_t col, const Facts& facts) {
  Subject s = m.whole;
  if (const std::string* link = m.view.link(row, col)) s.link = *link;
  switch (m.layout) {
  case Layout::HostByGpu:
    aboutGpu(s, col, facts);
    s.peer = "CPU";
    break;
  case Layout::GpuByPeer:
    aboutGpu(s, row, facts);
    s.peer = std::to_string(col);
    break;
  case Layout::GpuColumns:
    aboutGpu(s, col, facts);
    break;
  case Layout::RankByPeerRank:
    aboutRank(s, std::to_string(row), facts);
    s.peerRank = std::to_string(col);
    break;
  case Layout::RankColumns:
    aboutRank(s, std::to_string(col), facts);
    break;
  case Layout::Bisect:
    aboutRank(s, m.bisect[row].first, facts);
    s.peerRank = m.bisect[row].second;
    break;
  case Layout::Single:
    break;
  case Layout::RowCol:
    s.row = std::to_string(row);
    s.col = std::to_string(col);
    break;
  }
  return s;
}

}  // namespace nvbw::metrics
