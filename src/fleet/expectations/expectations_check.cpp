// Judging a report against expectations: its matrices read from either layout (upstream's
// stacked bidirectional entries split), each cell held to the most specific lines covering it.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>

#include "fleet/expectations/expectations.h"

namespace nvbw {

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

// One matrix of a passed entry (upstream's stacked entries split by the model), with what the
// checks need of it.
struct ReportMatrix {
  MatrixView view;
  std::string name;      // the matrix key
  std::string testcase;  // the testcase it is a matrix of
  std::string unit;      // "GB/s" or "ns", as the model has the entry's
  std::optional<std::uint64_t> sizeMiB;
  bool rowsAreGpus = false;  // for GPU<n>: whether row n, column n are GPU n's (gpuAxes)
  bool colsAreGpus = false;
  std::size_t rows() const { return view.rows(); }
  std::size_t cols() const { return view.cols(); }
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

// The testcase an entry belongs to: its "testcase", else what its key belongs to, else itself.
std::string testcaseOf(const ReportEntry& entry, const ExpectationKeys& keys) {
  if (entry.testcase && !entry.testcase->empty()) return *entry.testcase;
  if (const auto known = keys.lookUp(entry.name)) return known->testcase;
  return entry.name;
}

// A one-row matrix's row is the host or all GPUs together, never one GPU; the title's axes say
// whether the rows and columns are GPUs ("CPU(row) -> GPU(column)", "GPU(row) -> GPU(column)";
// in multinode testcases the ranks' GPUs). Without a title, the shape decides.
void gpuAxes(ReportMatrix& m) {
  if (m.view.part().title.empty()) {
    m.rowsAreGpus = m.rows() > 1 && m.rows() == m.cols();
    m.colsAreGpus = true;
    return;
  }
  const MatrixAxes& axes = m.view.part().axes;
  m.rowsAreGpus = m.rows() > 1 && axes.rowsAreGpus();
  m.colsAreGpus = axes.colsAreGpus();
}

std::string nonEmpty(const std::optional<std::string>& text) { return text.value_or(""); }

ReportContents readContents(const Report& report, const ExpectationKeys& keys,
                            const StopRequest& stop) {
  ReportContents contents;
  contents.upstream = report.upstream();
  if (const std::string error = nonEmpty(report.error); !error.empty())
    contents.notes.push_back("the run reported an error: " + error);
  if (const std::string signal = nonEmpty(report.interrupted); !signal.empty())
    contents.notes.push_back("the run was interrupted by " + signal);
  if (!report.testcases) {
    contents.notes.push_back("the report has no testcases");
    return contents;
  }
  for (const ReportEntry& entry : *report.testcases) {
    throwIfStopped(stop);
    const std::string testcase = testcaseOf(entry, keys);
    if (entry.passedWithMatrix()) {
      for (const MatrixPart& part : entry.parts) {
        ReportMatrix m{MatrixView(entry, part), part.key, testcase, unitName(entry.unit),
                       entry.bufferSizeMiB};
        gpuAxes(m);
        contents.matrices.push_back(std::move(m));
      }
      continue;
    }
    ReportStatus s{entry.name, testcase, statusName(entry.status), "", entry.bufferSizeMiB};
    s.detail = nonEmpty(entry.status == Status::Waived ? entry.waiveReason : entry.error);
    contents.statuses.push_back(std::move(s));
  }
  return contents;
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
    for (std::size_t c = 0; c < m.cols(); ++c) {
      const OrNull value = m.view.value(r, c);
      if (!value) continue;
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
      cell.value = *value;
      cell.bound = best->bound();
      cell.limit = best->limit;
      cell.line = best->line;
      tally.judged(std::move(cell), fails(*best, *value), best->line);
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

ExpectationResult checkExpectations(const Expectations& expectations, const Report& report,
                                    const ExpectationKeys& keys, const StopRequest& stop) {
  const ReportContents contents = readContents(report, keys, stop);
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

}  // namespace

ExpectationResult checkPercentOfPeak(double minPercent, const Report& report,
                                     const ExpectationKeys& keys, const StopRequest& stop) {
  if (!std::isfinite(minPercent) || minPercent <= 0.0 || minPercent > 100.0)
    throw std::invalid_argument("the minimum percent of peak must be above 0 and at most 100");
  const ReportContents contents = readContents(report, keys, stop);
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
      for (std::size_t c = 0; c < m.cols(); ++c) {
        const OrNull value = m.view.value(r, c);
        if (!value) continue;
        const OrNull percent = m.view.percent(r, c);
        if (m.unit == "ns" || !percent) {
          ++unknown;
          continue;
        }
        BelowCell cell;
        cell.row = r;
        cell.col = c;
        cell.value = *value;
        cell.bound = Bound::Floor;
        cell.limit = minPercent;
        cell.percentOfPeak = percent;
        cell.peakGBps = m.view.peak(r, c);
        const bool isBelow = *percent < minPercent;
        if (const std::string* link = m.view.link(r, c); isBelow && link) cell.link = *link;
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
