#include "fleet/metrics/metrics_reading.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>

#include "model/matrix_parts.h"
#include "model/report_document.h"
#include "model/report_keys.h"

namespace nvbw::metrics {

const json* member(const json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

std::string text(const json& object, const char* key) {
  const json* value = member(object, key);
  return value && value->is_string() ? value->get<std::string>() : std::string();
}

std::optional<double> finite(const json* value) {
  if (!value || !value->is_number()) return std::nullopt;
  const double number = value->get<double>();
  return std::isfinite(number) ? std::optional<double>(number) : std::nullopt;
}

std::string wholeText(const json* value) {
  if (!value) return "";
  if (value->is_number_unsigned()) return std::to_string(value->get<std::uint64_t>());
  if (value->is_number_integer() && value->get<std::int64_t>() >= 0)
    return std::to_string(value->get<std::int64_t>());
  return "";
}

std::optional<std::int64_t> wholeNumber(const json* value) {
  const std::string digits = wholeText(value);
  std::int64_t n = 0;
  const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (digits.empty() || r.ec != std::errc() || r.ptr != digits.data() + digits.size())
    return std::nullopt;
  return n;
}

const json* gridCell(const json& entry, const char* key, std::size_t row, std::size_t col) {
  const json* grid = member(entry, key);
  if (!grid || !grid->is_array() || row >= grid->size()) return nullptr;
  const json& cells = (*grid)[row];
  if (!cells.is_array() || col >= cells.size()) return nullptr;
  return &cells[col];
}

namespace {

bool startsWith(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

bool endsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

bool contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

struct DeviceLine {
  std::int64_t index = 0;
  std::string name;
  std::string host;
};

bool hexDigits(const std::string& s, std::size_t at, std::size_t count) {
  if (at + count > s.size()) return false;
  for (std::size_t k = at; k < at + count; ++k)
    if (!std::isxdigit(static_cast<unsigned char>(s[k]))) return false;
  return true;
}

// "<index>: <name> (<8 hex>:<2 hex>:<2 hex>): (<host>)", as this tool and upstream write it.
std::optional<DeviceLine> parseDeviceLine(const std::string& line) {
  DeviceLine d;
  const auto r = std::from_chars(line.data(), line.data() + line.size(), d.index);
  if (r.ec != std::errc() || r.ptr == line.data() || d.index < 0) return std::nullopt;
  const std::size_t nameAt = static_cast<std::size_t>(r.ptr - line.data());
  if (line.compare(nameAt, 2, ": ") != 0 || line.empty() || line.back() != ')') return std::nullopt;
  // The first " (pci): (" after the name: a GPU name holds no PCI address.
  for (std::size_t p = line.find(" (", nameAt + 2); p != std::string::npos;
       p = line.find(" (", p + 1)) {
    if (hexDigits(line, p + 2, 8) && line.compare(p + 10, 1, ":") == 0 &&
        hexDigits(line, p + 11, 2) && line.compare(p + 13, 1, ":") == 0 &&
        hexDigits(line, p + 14, 2) && line.compare(p + 16, 4, "): (") == 0) {
      d.name = line.substr(nameAt + 2, p - nameAt - 2);
      d.host = line.substr(p + 20, line.size() - 1 - (p + 20));
      return d;
    }
  }
  return std::nullopt;
}

}  // namespace

Facts readFacts(const json& run) {
  Facts facts;
  std::string listedHost;
  if (const json* list = member(run, keys::kGpuDeviceList); list && list->is_array())
    for (const json& line : *list) {
      if (!line.is_string()) continue;
      const auto d = parseDeviceLine(line.get<std::string>());
      if (!d) continue;
      facts.gpus.emplace(d->index, GpuFacts{d->name, ""});  // the first line of an index counts
      if (listedHost.empty()) listedHost = d->host;
    }
  if (const json* env = member(run, keys::kEnvironment))
    if (const json* gpus = member(*env, "gpus"); gpus && gpus->is_array())
      for (const json& gpu : *gpus) {
        const auto device = wholeNumber(member(gpu, "device"));
        const std::string uuid = text(gpu, "uuid");
        if (device && !uuid.empty() && facts.gpus[*device].uuid.empty())
          facts.gpus[*device].uuid = uuid;
      }
  if (const json* processes = member(run, keys::kProcesses); processes && processes->is_array())
    for (std::size_t i = 0; i < processes->size(); ++i) {
      const json& p = (*processes)[i];
      if (!p.is_object()) continue;
      const auto rank = wholeNumber(member(p, "rank"));
      facts.ranks.emplace(rank ? *rank : static_cast<std::int64_t>(i),
                          ProcessFacts{wholeText(member(p, "device")), text(p, "host"),
                                       text(p, keys::kName), text(p, "uuid")});
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
  facts.hostname = text(run, keys::kHostname);
  if (facts.hostname.empty()) facts.hostname = listedHost;
  if (facts.hostname.empty() && facts.ranks.count(0)) facts.hostname = facts.ranks[0].host;
  return facts;
}

namespace {

// The suffixes of the three matrices upstream stacks into one entry (comparison_report.cpp's
// rule, which the comparison uses to match them).
std::optional<std::array<const char*, 3>> stackedSuffixes(const std::string& key) {
  for (const char* tail : {"_read1", "_read2", "_write1", "_write2", "_total"})
    if (endsWith(key, tail)) return std::nullopt;
  if (contains(key, "device_to_device_bidirectional_memcpy_read"))
    return std::array<const char*, 3>{"_read1", "_read2", "_total"};
  if (contains(key, "device_to_device_bidirectional_memcpy_write"))
    return std::array<const char*, 3>{"_write1", "_write2", "_total"};
  return std::nullopt;
}

std::optional<double> upstreamCell(const json& cell) {
  if (cell.is_number()) return finite(&cell);
  if (!cell.is_string()) return std::nullopt;
  const std::string& text = cell.get_ref<const std::string&>();
  // The common spellings ("55.4859", "1.23457e+06") without a stream per cell; anything else
  // ("N/A", "+5") as the shape check reads it.
  double value = 0.0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), value);
  if (r.ec == std::errc() && r.ptr == text.data() + text.size() && std::isfinite(value))
    return value;
  try {
    return parseCellText(text, "bandwidth_matrix");
  } catch (const ReportShapeError&) {
    return std::nullopt;  // the shape check lets none through
  }
}

ValueRows readGrid(const json& rows, bool strings) {
  ValueRows grid;
  if (!rows.is_array()) return grid;
  for (const json& row : rows) {
    auto& out = grid.emplace_back();
    if (!row.is_array()) continue;
    for (const json& cell : row) out.push_back(strings ? upstreamCell(cell) : finite(&cell));
  }
  return grid;
}

bool square(const ValueRows& g) {
  for (const auto& row : g)
    if (row.size() != g.size()) return false;
  return !g.empty();
}

std::string trimmed(const std::string& s) {
  const std::size_t first = s.find_first_not_of(' ');
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(' ') - first + 1);
}

bool allDigits(const std::string& s) {
  if (s.empty() || s.size() > 9) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

// The bisect testcase's rows, "<from>-><to>" each (ranks, padded with spaces); empty unless every
// row has one and no pair repeats.
std::vector<std::pair<std::string, std::string>> bisectRows(const json& entry, std::size_t rows) {
  std::vector<std::pair<std::string, std::string>> pairs;
  const json* labels = member(entry, keys::kRowLabels);
  if (!labels || !labels->is_array() || labels->size() != rows) return {};
  for (const json& label : *labels) {
    if (!label.is_string()) return {};
    const std::string& s = label.get_ref<const std::string&>();
    const std::size_t arrow = s.find("->");
    if (arrow == std::string::npos) return {};
    std::pair<std::string, std::string> p{trimmed(s.substr(0, arrow)),
                                          trimmed(s.substr(arrow + 2))};
    if (!allDigits(p.first) || !allDigits(p.second)) return {};
    // Canonical numbers ("01" is rank 1), so that two spellings cannot name one pair twice.
    p.first = std::to_string(std::stol(p.first));
    p.second = std::to_string(std::stol(p.second));
    for (const auto& q : pairs)
      if (q == p) return {};
    pairs.push_back(std::move(p));
  }
  return pairs;
}

void chooseLayout(MetricMatrix& m) {
  const ValueRows& g = m.values;
  const std::size_t rows = g.size();
  const std::size_t cols = rows ? g[0].size() : 0;
  bool rectangular = rows > 0 && cols > 0;
  for (const auto& row : g) rectangular = rectangular && row.size() == cols;
  const std::string& t = m.title;
  const bool rowNamed = contains(t, "(row");
  const bool columnNamed = contains(t, "(column)");
  m.layout = Layout::RowCol;
  if (!rectangular) return;
  if (startsWith(m.key, "multinode")) {
    if (rowNamed && columnNamed && square(g) && rows > 1) {
      m.layout = Layout::RankByPeerRank;
    } else if (rows == 1 && columnNamed && !rowNamed) {
      m.layout = Layout::RankColumns;
    } else if (cols == 1) {
      m.bisect = bisectRows(*m.entry, rows);
      if (!m.bisect.empty()) m.layout = Layout::Bisect;
    }
  } else if (contains(t, "CPU(row)") && columnNamed && rows == 1) {
    m.layout = Layout::HostByGpu;
  } else if (contains(t, "GPU(row)") && contains(t, "GPU(column)") && rows == 1) {
    m.layout = Layout::GpuColumns;
  } else if (contains(t, "GPU(row)") && contains(t, "GPU(column)") && square(g)) {
    m.layout = Layout::GpuByPeer;
  } else if (contains(t, "GPU(column)") && !rowNamed && rows == 1) {
    m.layout = Layout::GpuColumns;
  }
  if (m.layout == Layout::RowCol && rows == 1 && cols == 1 && !rowNamed && !columnNamed)
    m.layout = Layout::Single;
}

}  // namespace

Entries readEntries(const json& testcases) {
  Entries out;
  std::map<std::pair<std::string, std::string>, std::size_t> seen;  // (key, size) -> entries
  auto occurrence = [&seen](const std::string& key, const std::string& size) {
    return ++seen[{key, size}];
  };
  for (const json& entry : testcases) {
    if (!entry.is_object()) continue;
    const json* name = member(entry, keys::kName);
    const json* status = member(entry, keys::kStatus);
    if (!name || !name->is_string() || !status || !status->is_string()) continue;
    const std::string key = name->get<std::string>();
    const std::string size = wholeText(member(entry, keys::kBufferSizeMiB));
    const json* values = member(entry, keys::kValues);
    const json* strings = member(entry, keys::kBandwidthMatrix);
    if (*status != "Passed" || (!values && !strings)) {
      out.statuses.push_back({key, status->get<std::string>(), size, occurrence(key, size)});
      continue;
    }
    MetricMatrix m;
    m.key = key;
    m.title = text(entry, keys::kBandwidthDescription);
    const std::string unit = text(entry, keys::kUnit);
    m.latency = unit.empty() ? contains(key, "latency") : unit == "ns";
    m.bufferMiB = size;
    m.entry = &entry;
    m.values = values ? readGrid(*values, false) : readGrid(*strings, true);
    m.sum = finite(member(entry, keys::kSum));
    const auto suffixes = values ? std::nullopt : stackedSuffixes(key);
    const std::size_t rows = m.values.size();
    const std::size_t cols = rows ? m.values[0].size() : 0;
    std::vector<MetricMatrix> parts;
    if (suffixes && rows > 0 && rows == 3 * cols) {
      for (std::size_t part = 0; part < 3; ++part) {
        MetricMatrix p = m;
        p.key = key + (*suffixes)[part];
        p.title = partTitle(m.title, (*suffixes)[part]);
        p.values.assign(m.values.begin() + part * cols, m.values.begin() + (part + 1) * cols);
        p.rowOffset = part * cols;
        p.sum.reset();  // upstream's SUM is of the whole stack
        parts.push_back(std::move(p));
      }
    } else {
      parts.push_back(std::move(m));
    }
    for (MetricMatrix& p : parts) {
      p.occurrence = occurrence(p.key, size);
      chooseLayout(p);
      out.statuses.push_back({p.key, "Passed", size, p.occurrence});
      out.matrices.push_back(std::move(p));
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

std::string repeatText(std::size_t occurrence) {
  return occurrence > 1 ? std::to_string(occurrence) : "";
}

Subject matrixSubject(const MetricMatrix& m, const Facts& facts) {
  Subject s;
  s.host = facts.hostname;
  s.testcase = m.key;
  s.bufferMiB = m.bufferMiB;
  s.repeat = repeatText(m.occurrence);
  return s;
}

namespace {

void aboutGpu(Subject& s, std::size_t index, const Facts& facts) {
  s.gpu = std::to_string(index);
  if (const auto it = facts.gpus.find(static_cast<std::int64_t>(index)); it != facts.gpus.end()) {
    s.uuid = it->second.uuid;
    s.model = it->second.model;
  }
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

}  // namespace

Subject cellSubject(const MetricMatrix& m, std::size_t row, std::size_t col, const Facts& facts) {
  Subject s = matrixSubject(m, facts);
  if (const json* link = gridCell(*m.entry, keys::kLinks, m.rowOffset + row, col);
      link && link->is_string())
    s.link = link->get<std::string>();
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
