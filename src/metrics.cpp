// The metrics view (metrics.h): reads the report's matrices, entries, comparison and run facts
// and fills the gauge families in the order the file lists them.
#include "nvbandwidth/metrics.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "metrics_exposition.h"
#include "nvbandwidth/report_shape.h"

namespace nvbw {
namespace {

using detail::GaugeFamily;
using detail::MetricLabels;
using nlohmann::json;

// ---- Reading the document defensively: a key of an unexpected type is absent ----

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

// A whole number of 0 or more, as text ("" when absent).
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

// grid[row][col] of an entry's matrix key ("links", "percent_of_peak", ...), or nullptr.
const json* gridCell(const json& entry, const char* key, std::size_t row, std::size_t col) {
  const json* grid = member(entry, key);
  if (!grid || !grid->is_array() || row >= grid->size()) return nullptr;
  const json& cells = (*grid)[row];
  if (!cells.is_array() || col >= cells.size()) return nullptr;
  return &cells[col];
}

bool startsWith(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

bool endsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

bool contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

// ---- What the report says about its GPUs and processes ----

struct GpuFacts {
  std::string model;
  std::string uuid;
};

struct ProcessFacts {
  std::string device;  // the rank's device index, as text
  std::string host;
  std::string model;
  std::string uuid;
};

struct Facts {
  std::string hostname;                   // the report's host
  std::map<std::int64_t, GpuFacts> gpus;  // by device index
  std::map<std::int64_t, ProcessFacts> ranks;
};

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

Facts readFacts(const json& run) {
  Facts facts;
  std::string listedHost;
  if (const json* list = member(run, "GPU Device list"); list && list->is_array())
    for (const json& line : *list) {
      if (!line.is_string()) continue;
      const auto d = parseDeviceLine(line.get<std::string>());
      if (!d) continue;
      facts.gpus.emplace(d->index, GpuFacts{d->name, ""});  // the first line of an index counts
      if (listedHost.empty()) listedHost = d->host;
    }
  if (const json* env = member(run, "environment"))
    if (const json* gpus = member(*env, "gpus"); gpus && gpus->is_array())
      for (const json& gpu : *gpus) {
        const auto device = wholeNumber(member(gpu, "device"));
        const std::string uuid = text(gpu, "uuid");
        if (device && !uuid.empty() && facts.gpus[*device].uuid.empty())
          facts.gpus[*device].uuid = uuid;
      }
  if (const json* processes = member(run, "processes"); processes && processes->is_array())
    for (std::size_t i = 0; i < processes->size(); ++i) {
      const json& p = (*processes)[i];
      if (!p.is_object()) continue;
      const auto rank = wholeNumber(member(p, "rank"));
      facts.ranks.emplace(rank ? *rank : static_cast<std::int64_t>(i),
                          ProcessFacts{wholeText(member(p, "device")), text(p, "host"),
                                       text(p, "name"), text(p, "uuid")});
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
  facts.hostname = text(run, "hostname");
  if (facts.hostname.empty()) facts.hostname = listedHost;
  if (facts.hostname.empty() && facts.ranks.count(0)) facts.hostname = facts.ranks[0].host;
  return facts;
}

// ---- Matrices ----

using Grid = std::vector<std::vector<std::optional<double>>>;

// How rows and columns become labels (metrics.h says which title gets which).
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

struct MatrixView {
  std::string key;
  std::string title;
  bool latency = false;
  std::string bufferMiB;       // "" unless the entry has bufferSize_MiB
  std::size_t occurrence = 1;  // among the entries of this key and size
  Grid values;
  const json* entry = nullptr;
  std::size_t rowOffset = 0;  // where this matrix starts in a stacked upstream entry's grids
  std::optional<double> sum;  // the entry's SUM; nullopt: add up the cells
  Layout layout = Layout::RowCol;
  std::vector<std::pair<std::string, std::string>> bisect;  // per row: from, to
};

struct StatusView {
  std::string key;
  std::string status;
  std::string bufferMiB;
  std::size_t occurrence = 1;
};

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

// The title of one part of a stacked entry: upstream's entry carries the last part's ("... Total
// bandwidth (GB/s)"); the parts are titled as this tool titles them ("... Read1 bandwidth ...").
std::string partTitle(std::string title, const std::string& suffix) {
  if (suffix == "_total") return title;
  const std::size_t at = title.find(" Total ");
  if (at == std::string::npos) return title;
  std::string word = suffix.substr(1);
  word[0] = static_cast<char>(word[0] - 'a' + 'A');
  return title.replace(at + 1, 5, word);
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

Grid readGrid(const json& rows, bool strings) {
  Grid grid;
  if (!rows.is_array()) return grid;
  for (const json& row : rows) {
    auto& out = grid.emplace_back();
    if (!row.is_array()) continue;
    for (const json& cell : row) out.push_back(strings ? upstreamCell(cell) : finite(&cell));
  }
  return grid;
}

bool square(const Grid& g) {
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
  const json* labels = member(entry, "row_labels");
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

void chooseLayout(MatrixView& m) {
  const Grid& g = m.values;
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

struct Entries {
  std::vector<MatrixView> matrices;
  std::vector<StatusView> statuses;
};

Entries readEntries(const json& testcases) {
  Entries out;
  std::map<std::pair<std::string, std::string>, std::size_t> seen;  // (key, size) -> entries
  auto occurrence = [&seen](const std::string& key, const std::string& size) {
    return ++seen[{key, size}];
  };
  for (const json& entry : testcases) {
    if (!entry.is_object()) continue;
    const json* name = member(entry, "name");
    const json* status = member(entry, "status");
    if (!name || !name->is_string() || !status || !status->is_string()) continue;
    const std::string key = name->get<std::string>();
    const std::string size = wholeText(member(entry, "bufferSize_MiB"));
    const json* values = member(entry, "values");
    const json* strings = member(entry, "bandwidth_matrix");
    if (*status != "Passed" || (!values && !strings)) {
      out.statuses.push_back({key, status->get<std::string>(), size, occurrence(key, size)});
      continue;
    }
    MatrixView m;
    m.key = key;
    m.title = text(entry, "bandwidth_description");
    const std::string unit = text(entry, "unit");
    m.latency = unit.empty() ? contains(key, "latency") : unit == "ns";
    m.bufferMiB = size;
    m.entry = &entry;
    m.values = values ? readGrid(*values, false) : readGrid(*strings, true);
    m.sum = finite(member(entry, "sum"));
    const auto suffixes = values ? std::nullopt : stackedSuffixes(key);
    const std::size_t rows = m.values.size();
    const std::size_t cols = rows ? m.values[0].size() : 0;
    std::vector<MatrixView> parts;
    if (suffixes && rows > 0 && rows == 3 * cols) {
      for (std::size_t part = 0; part < 3; ++part) {
        MatrixView p = m;
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
    for (MatrixView& p : parts) {
      p.occurrence = occurrence(p.key, size);
      chooseLayout(p);
      out.statuses.push_back({p.key, "Passed", size, p.occurrence});
      out.matrices.push_back(std::move(p));
    }
  }
  return out;
}

// ---- Labels ----

// What a series is about, in the order its labels are written (dcgm-exporter's first).
struct Subject {
  std::string gpu, uuid, model, host, testcase, peer, rank, peerRank, row, col, link, bufferMiB,
      repeat;
  MetricLabels labels(MetricLabels extra = {}) const {
    MetricLabels l{{"gpu", gpu},       {"UUID", uuid},          {"modelName", model},
                   {"Hostname", host}, {"testcase", testcase},  {"peer", peer},
                   {"rank", rank},     {"peer_rank", peerRank}, {"row", row},
                   {"col", col},       {"link", link},          {"buffer_size_mib", bufferMiB},
                   {"repeat", repeat}};
    l.insert(l.end(), extra.begin(), extra.end());
    return l;
  }
};

std::string repeatText(std::size_t occurrence) {
  return occurrence > 1 ? std::to_string(occurrence) : "";
}

Subject matrixSubject(const MatrixView& m, const Facts& facts) {
  Subject s;
  s.host = facts.hostname;
  s.testcase = m.key;
  s.bufferMiB = m.bufferMiB;
  s.repeat = repeatText(m.occurrence);
  return s;
}

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

Subject cellSubject(const MatrixView& m, std::size_t row, std::size_t col, const Facts& facts) {
  Subject s = matrixSubject(m, facts);
  if (const json* link = gridCell(*m.entry, "links", m.rowOffset + row, col);
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

// ---- The families, in the order the file lists them ----

enum Family : std::size_t {
  RunInfo,
  RunStart,
  RunDuration,
  RunInterrupted,
  RunError,
  ProcessInfo,
  TestcaseStatus,
  MatrixInfo,
  Bandwidth,
  Latency,
  BandwidthPeak,
  PercentOfPeak,
  CellCv,
  CellOutlier,
  BandwidthSum,
  LatencySum,
  Verdict,
  ChangePercent,
  BandPercent,
  VerdictCells,
  Unmatched,
  Tolerance,
  kFamilyCount
};

// Label sets are distinct by construction: an entry's (key, size, occurrence) is its own, and
// within a matrix every layout labels each cell differently (bisect rows are checked to name
// distinct pairs). Only a compared cell's fallback labels (testcase, row, col, repeat) can meet a
// matrix cell's, in a hostile document; those families remember what they wrote.
std::vector<GaugeFamily> families(std::size_t& budget) {
  auto f = [&budget](const char* name, const char* help, bool mayRepeat = false) {
    return GaugeFamily(std::string("nvbandwidth_") + name, help, budget, mayRepeat);
  };
  return {
      f("run_info",
        "The report: tool version, git version, report layout (schema_version; none for upstream "
        "v0.8), driver and CUDA versions (1000 x major + 10 x minor), the statistic of the cells "
        "and the buffer size in MiB. Always 1."),
      f("run_start_timestamp_seconds",
        "When the run started (the report's started_at), seconds since the Unix epoch."),
      f("run_duration_seconds",
        "Wall-clock time of the run from start-up to the end of the report (timing.wall_seconds), "
        "seconds."),
      f("run_interrupted",
        "1 when a signal (label signal) stopped the run: the interrupted testcase is ERROR and the "
        "ones after it did not run. 0 otherwise."),
      f("run_error",
        "1 when a run-level error stopped the run (it could not start, or the copies could not be "
        "set up); testcase failures are in nvbandwidth_testcase_status. 0 otherwise."),
      f("process_info", "Multinode runs: the host and GPU of each MPI rank. Always 1."),
      f("testcase_status",
        "One series per reported entry (a matrix, or a testcase without one) with its status: "
        "Passed, Waived, ERROR or Running. Always 1."),
      f("matrix_info", "The title (description) and unit (GB/s or ns) of a matrix. Always 1."),
      f("bandwidth_gigabytes_per_second",
        "Bandwidth of a matrix cell in decimal GB/s (10^9 bytes/s), as the report gives it: the "
        "run's statistic (median by default) of the cell's samples. N/A cells have no series."),
      f("latency_nanoseconds",
        "Latency of a matrix cell in nanoseconds, as the report gives it: the run's statistic "
        "(median by default) of the cell's samples. N/A cells have no series."),
      f("bandwidth_peak_gigabytes_per_second",
        "Theoretical peak of the cell's link in the cell's counting convention, decimal GB/s."),
      f("bandwidth_percent_of_peak",
        "The cell's bandwidth in percent of its link's theoretical peak."),
      f("cell_cv_ratio",
        "Coefficient of variation (standard deviation / mean) of the cell's samples, as a ratio "
        "(0.02 is 2%)."),
      f("cell_outlier",
        "1 when the cell is more than 10% below the median of the matrix's cells on the same "
        "link class (the report's outliers), 0 otherwise."),
      f("bandwidth_sum_gigabytes_per_second",
        "The matrix's SUM line: the sum of its present cells, decimal GB/s."),
      f("latency_sum_nanoseconds", "The matrix's SUM line: the sum of its present cells, ns."),
      f("comparison_verdict",
        "Compared with a baseline (--baseline, --compare): one series per compared cell, labelled "
        "with its verdict. Always 1.",
        true),
      f("comparison_change_percent",
        "Compared with a baseline: the cell's change, (current - baseline) / baseline x 100.",
        true),
      f("comparison_band_percent",
        "Compared with a baseline: the band the cell's change was judged against, percent.", true),
      f("comparison_cells", "Compared with a baseline: how many cells got each verdict."),
      f("comparison_unmatched",
        "Compared with a baseline: entries or cells on one side only (label side)."),
      f("comparison_tolerance_percent", "Compared with a baseline: --tolerance, percent."),
  };
}

// Every verdict the comparison can give, counted even when no cell has it, so that a dashboard
// sees a 0 rather than no series. Verdicts outside this list are counted too.
const char* const kKnownVerdicts[] = {"SAME", "SLOWER", "FASTER", "NOISY", "BELOW"};

void addMatrix(std::vector<GaugeFamily>& out, const MatrixView& m, const Facts& facts) {
  const Subject whole = matrixSubject(m, facts);
  out[MatrixInfo].add(whole.labels({{"description", m.title}, {"unit", m.latency ? "ns" : "GB/s"}}),
                      1);
  std::vector<std::pair<std::size_t, std::size_t>> outliers;
  const json* listed = m.latency ? nullptr : member(*m.entry, "outliers");
  if (listed && listed->is_array())
    for (const json& o : *listed) {
      const auto r = wholeNumber(member(o, "row"));
      const auto c = wholeNumber(member(o, "col"));
      if (r && c) outliers.emplace_back(static_cast<std::size_t>(*r), static_cast<std::size_t>(*c));
    }
  double sum = 0.0;
  for (std::size_t r = 0; r < m.values.size(); ++r)
    for (std::size_t c = 0; c < m.values[r].size(); ++c) {
      if (!m.values[r][c]) continue;
      const double value = *m.values[r][c];
      sum += value;
      const MetricLabels labels = cellSubject(m, r, c, facts).labels();
      const std::size_t row = m.rowOffset + r;
      out[m.latency ? Latency : Bandwidth].add(labels, value);
      if (!m.latency) {
        if (const auto peak = finite(gridCell(*m.entry, "peak_GBps", row, c)))
          out[BandwidthPeak].add(labels, *peak);
        if (const auto percent = finite(gridCell(*m.entry, "percent_of_peak", row, c)))
          out[PercentOfPeak].add(labels, *percent);
      }
      if (const json* cell = gridCell(*m.entry, "cells", row, c))
        if (const auto cv = finite(member(*cell, "cv"))) out[CellCv].add(labels, *cv);
      if (listed && listed->is_array()) {
        bool flagged = false;
        for (const auto& o : outliers) flagged = flagged || o == std::make_pair(row, c);
        out[CellOutlier].add(labels, flagged ? 1 : 0);
      }
    }
  out[m.latency ? LatencySum : BandwidthSum].add(whole.labels(), m.sum ? *m.sum : sum);
}

void addComparison(std::vector<GaugeFamily>& out, const json& comparison, const Entries& entries,
                   const Facts& facts) {
  std::map<std::string, std::vector<const MatrixView*>> byKey;
  for (const MatrixView& m : entries.matrices) byKey[m.key].push_back(&m);
  std::map<std::string, double> counts;
  for (const char* v : kKnownVerdicts) counts[v] = 0;
  std::map<std::tuple<std::string, std::int64_t, std::int64_t>, std::size_t> seen;
  static const json kNoCells = json::array();
  const json* listed = member(comparison, "cells");
  for (const json& cell : listed && listed->is_array() ? *listed : kNoCells) {
    const std::string name = text(cell, "name");
    const auto row = wholeNumber(member(cell, "row"));
    const auto col = wholeNumber(member(cell, "col"));
    if (name.empty() || !row || !col) continue;
    const std::size_t n = ++seen[{name, *row, *col}];
    const auto r = static_cast<std::size_t>(*row);
    const auto c = static_cast<std::size_t>(*col);
    Subject s;
    const auto it = byKey.find(name);
    if (it != byKey.end() && n <= it->second.size() && r < it->second[n - 1]->values.size() &&
        c < it->second[n - 1]->values[r].size()) {
      s = cellSubject(*it->second[n - 1], r, c, facts);
    } else {
      s.host = facts.hostname;
      s.testcase = name;
      s.row = std::to_string(r);
      s.col = std::to_string(c);
      s.repeat = repeatText(n);
    }
    const std::string verdict = text(cell, "verdict");
    if (!verdict.empty()) {
      out[Verdict].add(s.labels({{"verdict", verdict}}), 1);
      counts[verdict] += 1;
    }
    if (const auto change = finite(member(cell, "change_percent")))
      out[ChangePercent].add(s.labels(), *change);
    if (const auto band = finite(member(cell, "band_percent")))
      out[BandPercent].add(s.labels(), *band);
  }
  Subject run;
  run.host = facts.hostname;
  for (const char* v : kKnownVerdicts)
    out[VerdictCells].add(run.labels({{"verdict", v}}), counts[v]);
  for (const auto& [verdict, count] : counts)
    if (std::find(std::begin(kKnownVerdicts), std::end(kKnownVerdicts), verdict) ==
        std::end(kKnownVerdicts))
      out[VerdictCells].add(run.labels({{"verdict", verdict}}), count);
  for (const auto& [key, side] :
       {std::pair{"only_in_baseline", "baseline"}, std::pair{"only_in_current", "current"}})
    if (const json* list = member(comparison, key); list && list->is_array())
      out[Unmatched].add(run.labels({{"side", side}}), static_cast<double>(list->size()));
  if (const auto tolerance = finite(member(comparison, "tolerance_percent")))
    out[Tolerance].add(run.labels(), *tolerance);
}

void addRun(std::vector<GaugeFamily>& out, const json& run, const Facts& facts, bool isRun) {
  Subject about;
  about.host = facts.hostname;
  const json* settings = member(run, "settings");
  out[RunInfo].add(
      about.labels(
          {{"version", text(run, "version")},
           {"git_version", text(run, "git_version")},
           {"schema_version", text(run, "schema_version")},
           {"driver_version", text(run, "Driver Version")},
           {"cuda_runtime_version", wholeText(member(run, "CUDA Runtime Version"))},
           {"cuda_driver_version", wholeText(member(run, "CUDA Driver Version"))},
           {"statistic", settings ? text(*settings, "statistic") : ""},
           {"buffer_size_mib", settings ? wholeText(member(*settings, "bufferSize_MiB")) : ""}}),
      1);
  if (const auto started = detail::parseUtcTimestamp(text(run, "started_at")))
    out[RunStart].add(about.labels(), *started);
  if (const json* timing = member(run, "timing"))
    if (const auto wall = finite(member(*timing, "wall_seconds")))
      out[RunDuration].add(about.labels(), *wall);
  if (isRun) {
    const std::string signal = text(run, "interrupted");
    out[RunInterrupted].add(about.labels({{"signal", signal}}), signal.empty() ? 0 : 1);
    out[RunError].add(about.labels(), text(run, "error").empty() ? 0 : 1);
  }
  for (const auto& [rank, p] : facts.ranks) {
    Subject s;
    s.gpu = p.device;
    s.uuid = p.uuid;
    s.model = p.model;
    s.host = p.host;
    s.rank = std::to_string(rank);
    out[ProcessInfo].add(s.labels(), 1);
  }
}

}  // namespace

std::string metricsText(const json& report) {
  return detail::metricsTextWithin(report, kMaxMetricsBytes);
}

std::string detail::metricsTextWithin(const json& report, std::size_t maxBytes) {
  std::size_t budget = maxBytes;
  std::vector<GaugeFamily> out = families(budget);
  const json* run = member(report, "nvbandwidth");
  if (!run || !run->is_object()) return "";
  const Facts facts = readFacts(*run);
  const json* testcases = member(*run, "testcases");
  const bool isRun = testcases && testcases->is_array();
  const Entries entries = isRun ? readEntries(*testcases) : Entries{};
  addRun(out, *run, facts, isRun);
  for (const StatusView& s : entries.statuses) {
    Subject about;
    about.host = facts.hostname;
    about.testcase = s.key;
    about.bufferMiB = s.bufferMiB;
    about.repeat = repeatText(s.occurrence);
    out[TestcaseStatus].add(about.labels({{"status", s.status}}), 1);
  }
  for (const MatrixView& m : entries.matrices) addMatrix(out, m, facts);
  if (const json* comparison = member(*run, "comparison"); comparison && comparison->is_object())
    addComparison(out, *comparison, entries, facts);
  std::string text;
  text.reserve(maxBytes - budget);
  for (GaugeFamily& family : out) family.moveTo(text);
  return text;
}

}  // namespace nvbw
