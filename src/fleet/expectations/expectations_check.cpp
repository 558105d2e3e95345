// Judging a report against expectations: its matrices read from either layout (upstream's
// stacked bidirectional entries split), each cell held to the most specific lines covering it.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>

#include "fleet/expectations/expectations.h"
#include "model/report_document.h"
#include "model/report_keys.h"

namespace nvbw {

using nlohmann::json;

const char* unmetReasonName(UnmetExpectation::Reason r) {
  using R = UnmetExpectation::Reason;
  switch (r) {
  case R::Waived:
    return "waived";
  case R::Error:
    return "error";
  case R::Running:
    return "running";
  case R::NoValue:
    return "no_value";
  case R::UnitMismatch:
    return "unit_mismatch";
  case R::NothingJudged:
    return "nothing_judged";
  case R::Missing:
    break;
  }
  return "missing";
}

std::size_t ExpectationResult::judgedCells() const {
  std::size_t n = 0;
  for (const JudgedMatrix& m : matrices) n += m.cells;
  return n;
}

std::size_t ExpectationResult::belowCells() const {
  std::size_t n = 0;
  for (const JudgedMatrix& m : matrices) n += m.below;
  return n;
}

std::size_t ExpectationResult::notJudgedCells() const {
  std::size_t n = 0;
  for (const NotJudged& item : notJudged) n += item.cells;
  return n;
}

namespace {

using Grid = std::vector<std::vector<std::optional<double>>>;

// One matrix of a passed entry, as both layouts reduce to it.
struct ReportMatrix {
  std::string name;
  std::string testcase;
  std::string unit;
  std::optional<std::uint64_t> sizeMiB;
  std::string description;   // the entry's bandwidth_description
  bool rowsAreGpus = false;  // for GPU<n>: whether row n, column n are GPU n's (gpuAxes)
  bool colsAreGpus = false;
  Grid values;
  Grid percent;  // empty where the report has no peaks
  Grid peak;
  std::vector<std::vector<std::string>> links;
  std::size_t rows() const { return values.size(); }
  std::size_t cols() const { return values.empty() ? 0 : values[0].size(); }
};

// An entry without a matrix: Waived, ERROR, Running, or Passed without one.
struct ReportStatus {
  std::string name;
  std::string testcase;
  std::string status;
  std::string detail;  // the waive reason or the error
  std::optional<std::uint64_t> sizeMiB;
};

struct ReportContents {
  std::vector<ReportMatrix> matrices;
  std::vector<ReportStatus> statuses;
  std::vector<std::string> notes;
  bool upstream = false;
};

[[noreturn]] void notAReport(const std::string& where, const std::string& why) {
  throw ReportShapeError("nvbandwidth" + where + ": " + why + " (not checked as a report?)");
}

const json* memberOf(const json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

std::string stringMember(const json& object, const char* key) {
  const json* value = memberOf(object, key);
  return value && value->is_string() ? value->get<std::string>() : std::string();
}

std::optional<double> numberCell(const json& cell, const std::string& where) {
  if (cell.is_null()) return std::nullopt;
  if (cell.is_string()) return parseCellText(cell.get_ref<const std::string&>(), where);
  if (!cell.is_number()) notAReport(where, "is neither a number nor null");
  const double v = cell.get<double>();
  if (!std::isfinite(v)) notAReport(where, "is not finite");
  return v;
}

// A grid of numbers (null: none), or of upstream's cell strings.
Grid numberGrid(const json& rows, const std::string& where) {
  if (!rows.is_array()) notAReport(where, "is not an array of rows");
  Grid grid;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (!rows[r].is_array()) notAReport(where, "has a row that is not an array");
    auto& row = grid.emplace_back();
    for (std::size_t c = 0; c < rows[r].size(); ++c)
      row.push_back(
          numberCell(rows[r][c], where + "[" + std::to_string(r) + "][" + std::to_string(c) + "]"));
  }
  return grid;
}

std::vector<std::vector<std::string>> linkGrid(const json& rows) {
  std::vector<std::vector<std::string>> grid;
  if (!rows.is_array()) return grid;
  for (const json& row : rows) {
    auto& out = grid.emplace_back();
    if (row.is_array())
      for (const json& cell : row) out.push_back(cell.is_string() ? cell.get<std::string>() : "");
  }
  return grid;
}

// The testcase an entry belongs to: its "testcase", else what its key belongs to, else itself.
std::string testcaseOf(const json& entry, const std::string& name) {
  if (const std::string t = stringMember(entry, keys::kTestcase); !t.empty()) return t;
  if (const auto known = lookUpExpectationKey(name)) return known->testcase;
  return name;
}

// A one-row matrix's row is the host or all GPUs together, never one GPU; the description says
// whether the rows and columns are GPUs ("CPU(row) -> GPU(column)", "GPU(row) -> GPU(column)";
// in multinode testcases the ranks' GPUs). Without one, the shape decides.
void gpuAxes(ReportMatrix& m) {
  if (m.description.empty()) {
    m.rowsAreGpus = m.rows() > 1 && m.rows() == m.cols();
    m.colsAreGpus = true;
    return;
  }
  m.rowsAreGpus = m.rows() > 1 && m.description.find("GPU(row)") != std::string::npos;
  m.colsAreGpus = m.description.find("GPU(column)") != std::string::npos;
}

// Upstream appends the rows of a bidirectional testcase's three N x N matrices to one entry
// (3N rows); this tool reports three entries, <key>_read1/_read2/_total (or _write...).
void splitStacked(ReportMatrix stacked, std::vector<ReportMatrix>& out) {
  std::vector<const char*> suffixes;
  if (lookUpExpectationKey(stacked.name + "_read1")) suffixes = {"_read1", "_read2", "_total"};
  if (lookUpExpectationKey(stacked.name + "_write1")) suffixes = {"_write1", "_write2", "_total"};
  const std::size_t rows = stacked.rows(), cols = stacked.cols();
  if (suffixes.empty() || rows == 0 || rows != 3 * cols) {
    gpuAxes(stacked);
    out.push_back(std::move(stacked));
    return;
  }
  for (std::size_t part = 0; part < 3; ++part) {
    ReportMatrix m = stacked;
    m.name = stacked.name + suffixes[part];
    m.values.assign(stacked.values.begin() + part * cols,
                    stacked.values.begin() + (part + 1) * cols);
    gpuAxes(m);
    out.push_back(std::move(m));
  }
}

void readMatrix(const json& entry, const std::string& name, const std::string& where,
                ReportContents& report) {
  ReportMatrix m;
  m.name = name;
  m.testcase = testcaseOf(entry, name);
  m.unit = stringMember(entry, keys::kUnit);
  if (m.unit.empty()) m.unit = name.find("latency") != std::string::npos ? "ns" : "GB/s";
  if (const json* size = memberOf(entry, keys::kBufferSizeMiB); size && size->is_number_unsigned())
    m.sizeMiB = size->get<std::uint64_t>();
  const json* values = memberOf(entry, keys::kValues);
  const bool ours = values != nullptr;
  m.values =
      ours ? numberGrid(*values, where + ".values")
           : numberGrid(*memberOf(entry, keys::kBandwidthMatrix), where + ".bandwidth_matrix");
  if (const json* p = memberOf(entry, keys::kPercentOfPeak)) m.percent = numberGrid(*p, where);
  if (const json* p = memberOf(entry, keys::kPeakGBps)) m.peak = numberGrid(*p, where);
  if (const json* l = memberOf(entry, keys::kLinks)) m.links = linkGrid(*l);
  m.description = stringMember(entry, keys::kBandwidthDescription);
  if (ours) {
    gpuAxes(m);
    report.matrices.push_back(std::move(m));
  } else {
    splitStacked(std::move(m), report.matrices);
  }
}

ReportContents readContents(const json& document, const StopRequest& stop) {
  ReportContents report;
  const json* run = memberOf(document, keys::kRoot);
  if (!run || !run->is_object()) notAReport("", "is not an object");
  report.upstream = memberOf(*run, keys::kSchemaVersion) == nullptr;
  if (const std::string error = stringMember(*run, keys::kError); !error.empty())
    report.notes.push_back("the run reported an error: " + error);
  if (const std::string signal = stringMember(*run, keys::kInterrupted); !signal.empty())
    report.notes.push_back("the run was interrupted by " + signal);
  const json* testcases = memberOf(*run, keys::kTestcases);
  if (!testcases) {
    report.notes.push_back("the report has no testcases");
    return report;
  }
  if (!testcases->is_array()) notAReport(".testcases", "is not an array");
  for (std::size_t i = 0; i < testcases->size(); ++i) {
    throwIfStopped(stop);
    const json& entry = (*testcases)[i];
    const std::string where = ".testcases[" + std::to_string(i) + "]";
    const json* name = memberOf(entry, keys::kName);
    const json* status = memberOf(entry, keys::kStatus);
    if (!name || !name->is_string() || !status || !status->is_string())
      notAReport(where, "has no \"name\" and \"status\" strings");
    const std::string key = name->get<std::string>();
    if (*status == "Passed" &&
        (memberOf(entry, keys::kValues) || memberOf(entry, keys::kBandwidthMatrix))) {
      readMatrix(entry, key, where, report);
      continue;
    }
    ReportStatus s{key, testcaseOf(entry, key), status->get<std::string>(), "", std::nullopt};
    s.detail = stringMember(entry, s.status == "Waived" ? "waive_reason" : "error");
    if (const json* size = memberOf(entry, keys::kBufferSizeMiB);
        size && size->is_number_unsigned())
      s.sizeMiB = size->get<std::uint64_t>();
    report.statuses.push_back(std::move(s));
  }
  return report;
}

// ---- --expect ----

bool covers(const CellSelection& s, const ReportMatrix& m, std::size_t row, std::size_t col) {
  switch (s.kind) {
  case CellSelection::Kind::Cell:
    return row == s.row && col == s.col;
  case CellSelection::Kind::Gpu:
    return (m.rowsAreGpus && row == s.gpu) || (m.colsAreGpus && col == s.gpu);
  case CellSelection::Kind::Every:
    break;
  }
  return true;
}

// How specific a line is: its cells ([r][c] > GPU<n> > every), then its key (one matrix's key >
// its testcase's).
int rank(const Expectation& e) {
  const int cells = e.cells.kind == CellSelection::Kind::Cell  ? 2
                    : e.cells.kind == CellSelection::Kind::Gpu ? 1
                                                               : 0;
  return 2 * cells + (e.key == e.testcase ? 0 : 1);
}

bool stricter(const Expectation& a, const Expectation& b) {
  return a.bound() == Bound::Ceiling ? a.limit < b.limit : a.limit > b.limit;
}

bool fails(const Expectation& e, double value) {
  return e.bound() == Bound::Ceiling ? value > e.limit : value < e.limit;
}

bool appliesTo(const Expectation& e, const std::string& testcase, const std::string& name) {
  return e.testcase == testcase && (e.key == e.testcase || e.key == name);
}

// What became of each line.
struct LineState {
  bool judged = false;          // it covered a cell with a value
  bool sawMatrix = false;       // a passed matrix of its key was in the report
  bool reportedStatus = false;  // an entry of its testcase did not pass
  bool unitMismatch = false;
};

std::string sizeText(const std::optional<std::uint64_t>& size) {
  return size ? " at " + std::to_string(*size) + " MiB" : "";
}

// The result's entry for `m`, made when its first cell is judged.
class MatrixTally {
 public:
  MatrixTally(const ReportMatrix& m, ExpectationResult& result) : m_(m), result_(result) {}

  // Counts a judged cell; lists it if it is BELOW (up to kMaxListedBelowCells).
  void judged(BelowCell cell, bool isBelow, std::size_t line) {
    JudgedMatrix& j = entry();
    ++j.cells;
    if (line > 0 && !std::binary_search(j.lines.begin(), j.lines.end(), line))
      j.lines.insert(std::upper_bound(j.lines.begin(), j.lines.end(), line), line);
    if (!isBelow) return;
    ++j.below;
    if (result_.below.size() >= kMaxListedBelowCells) return;
    cell.matrix = index_;
    result_.below.push_back(std::move(cell));
  }

 private:
  JudgedMatrix& entry() {
    if (index_ == kNone) {
      index_ = result_.matrices.size();
      result_.matrices.push_back({m_.name, m_.testcase, m_.sizeMiB, m_.unit, 0, 0, {}});
    }
    return result_.matrices[index_];
  }

  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  const ReportMatrix& m_;
  ExpectationResult& result_;
  std::size_t index_ = kNone;
};

void judgeMatrix(const ReportMatrix& m, const std::vector<Expectation>& lines,
                 std::vector<LineState>& states, ExpectationResult& result,
                 const StopRequest& stop) {
  std::vector<std::size_t> candidates;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!appliesTo(lines[i], m.testcase, m.name)) continue;
    states[i].sawMatrix = true;
    if (lines[i].unit != m.unit) {
      if (!states[i].unitMismatch)
        result.unmet.push_back({lines[i].line, lines[i].selection(),
                                UnmetExpectation::Reason::UnitMismatch,
                                "the report gives " + m.name + sizeText(m.sizeMiB) + " in " +
                                    m.unit + ", the line is in " + lines[i].unit});
      states[i].unitMismatch = true;
      continue;
    }
    candidates.push_back(i);
  }
  if (candidates.empty()) return;
  MatrixTally tally(m, result);
  for (std::size_t r = 0; r < m.rows(); ++r) {
    throwIfStopped(stop);
    for (std::size_t c = 0; c < m.values[r].size(); ++c) {
      if (!m.values[r][c]) continue;
      const Expectation* best = nullptr;
      for (std::size_t i : candidates) {
        const Expectation& e = lines[i];
        if (!covers(e.cells, m, r, c)) continue;
        states[i].judged = true;
        if (!best || rank(e) > rank(*best) || (rank(e) == rank(*best) && stricter(e, *best)))
          best = &e;
      }
      if (!best) continue;
      BelowCell cell;
      cell.row = r;
      cell.col = c;
      cell.value = *m.values[r][c];
      cell.bound = best->bound();
      cell.limit = best->limit;
      cell.line = best->line;
      tally.judged(std::move(cell), fails(*best, *m.values[r][c]), best->line);
    }
  }
}

UnmetExpectation::Reason reasonOf(const std::string& status) {
  if (status == "Waived") return UnmetExpectation::Reason::Waived;
  if (status == "ERROR") return UnmetExpectation::Reason::Error;
  if (status == "Running") return UnmetExpectation::Reason::Running;
  return UnmetExpectation::Reason::NoValue;  // Passed without a matrix
}

std::string noValueDetail(const Expectation& e) {
  switch (e.cells.kind) {
  case CellSelection::Kind::Cell:
    return "the report has no value at " + e.cells.text() + " of " + e.key;
  case CellSelection::Kind::Gpu:
    return "the report has no value of GPU " + std::to_string(e.cells.gpu) + " in " + e.key;
  case CellSelection::Kind::Every:
    break;
  }
  return "every cell of " + e.key + " is N/A";
}

}  // namespace

ExpectationResult checkExpectations(const Expectations& expectations, const json& report,
                                    const StopRequest& stop) {
  const ReportContents contents = readContents(report, stop);
  ExpectationResult result;
  result.check = ExpectationCheck::File;
  result.label = expectations.label;
  result.path = expectations.path;
  result.expectations = expectations.lines;
  result.notes = contents.notes;
  const std::vector<Expectation>& lines = expectations.lines;
  std::vector<LineState> states(lines.size());
  for (const ReportMatrix& m : contents.matrices) judgeMatrix(m, lines, states, result, stop);
  for (const ReportStatus& s : contents.statuses) {
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (lines[i].testcase != s.testcase) continue;
      states[i].reportedStatus = true;
      std::string detail = s.status + sizeText(s.sizeMiB);
      if (s.status == "Passed") detail += " without a matrix";
      if (!s.detail.empty()) detail += ": " + s.detail;
      result.unmet.push_back({lines[i].line, lines[i].selection(), reasonOf(s.status), detail});
    }
  }
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const LineState& st = states[i];
    if (st.judged || st.reportedStatus || st.unitMismatch) continue;
    if (st.sawMatrix)
      result.unmet.push_back({lines[i].line, lines[i].selection(),
                              UnmetExpectation::Reason::NoValue, noValueDetail(lines[i])});
    else
      result.unmet.push_back({lines[i].line, lines[i].selection(),
                              UnmetExpectation::Reason::Missing,
                              lines[i].testcase + " is not in the report"});
  }
  std::stable_sort(
      result.unmet.begin(), result.unmet.end(),
      [](const UnmetExpectation& a, const UnmetExpectation& b) { return a.line < b.line; });
  return result;
}

// ---- --min-percent-of-peak ----

namespace {

std::string percentText(double percent) {
  std::ostringstream s;
  s.imbue(std::locale::classic());
  s.precision(15);
  s << percent;
  return s.str();
}

std::optional<double> gridAt(const Grid& grid, std::size_t r, std::size_t c) {
  if (r >= grid.size() || c >= grid[r].size()) return std::nullopt;
  return grid[r][c];
}

}  // namespace

ExpectationResult checkPercentOfPeak(double minPercent, const json& report,
                                     const StopRequest& stop) {
  if (!std::isfinite(minPercent) || minPercent <= 0.0 || minPercent > 100.0)
    throw std::invalid_argument("the minimum percent of peak must be above 0 and at most 100");
  const ReportContents contents = readContents(report, stop);
  ExpectationResult result;
  result.check = ExpectationCheck::PercentOfPeak;
  result.label = "--min-percent-of-peak " + percentText(minPercent);
  result.minPercent = minPercent;
  result.notes = contents.notes;
  if (contents.upstream) result.notes.push_back("an upstream v0.8 report carries no peaks");
  for (const ReportMatrix& m : contents.matrices) {
    std::size_t unknown = 0;
    MatrixTally tally(m, result);
    for (std::size_t r = 0; r < m.rows(); ++r) {
      throwIfStopped(stop);
      for (std::size_t c = 0; c < m.values[r].size(); ++c) {
        if (!m.values[r][c]) continue;
        const auto percent = gridAt(m.percent, r, c);
        if (m.unit == "ns" || !percent) {
          ++unknown;
          continue;
        }
        BelowCell cell;
        cell.row = r;
        cell.col = c;
        cell.value = *m.values[r][c];
        cell.bound = Bound::Floor;
        cell.limit = minPercent;
        cell.percentOfPeak = percent;
        cell.peakGBps = gridAt(m.peak, r, c);
        const bool isBelow = *percent < minPercent;
        if (isBelow && r < m.links.size() && c < m.links[r].size()) cell.link = m.links[r][c];
        tally.judged(std::move(cell), isBelow, 0);
      }
    }
    if (unknown > 0)
      result.notJudged.push_back(
          {m.name, m.sizeMiB, unknown, m.unit == "ns" ? "latency: no peak" : "no known peak"});
  }
  for (const ReportStatus& s : contents.statuses)
    result.notJudged.push_back({s.name, s.sizeMiB, 0, s.status});
  if (result.judgedCells() == 0)
    result.unmet.push_back({0, result.label, UnmetExpectation::Reason::NothingJudged,
                            "no bandwidth cell of the report has a known peak"});
  return result;
}

}  // namespace nvbw
