// Judging a report against expectations: its matrices read from either layout (upstream's
// stacked bidirectional entries split), each cell held to the most specific lines covering it.
#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <utility>

#include "core/format.h"
#include "fleet/expectations/expectations.h"

namespace nvbw {

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
};

// Calls `judge(row, col, value)` for every cell of `m` with a value (`stop` asked every row).
template <typename Judge>
void eachValue(const ReportMatrix& m, const StopRequest& stop, const Judge& judge) {
  for (std::size_t r = 0; r < m.view.rows(); ++r) {
    throwIfStopped(stop);
    for (std::size_t c = 0; c < m.view.cols(); ++c)
      if (const OrNull value = m.view.value(r, c)) judge(r, c, *value);
  }
}

// An entry without a matrix (Waived, ERROR, Running, or Passed without one) and its testcase.
struct ReportStatus {
  const ReportEntry* entry;
  std::string testcase;
};

struct ReportContents {
  std::vector<ReportMatrix> matrices;
  std::vector<ReportStatus> statuses;
  std::vector<std::string> notes;
};

// The testcase an entry belongs to: its "testcase", else what its key belongs to, else itself.
std::string testcaseOf(const ReportEntry& entry, const ExpectationKeys& keys) {
  if (entry.testcase && !entry.testcase->empty()) return *entry.testcase;
  if (const auto known = keys.find(entry.name); known != keys.end()) return known->second.testcase;
  return entry.name;
}

// A one-row matrix's row is the host or all GPUs together, never one GPU; the title's axes say
// whether the rows and columns are GPUs ("CPU(row) -> GPU(column)", "GPU(row) -> GPU(column)";
// in multinode testcases the ranks' GPUs). Without a title, the shape decides.
void gpuAxes(ReportMatrix& m) {
  const std::size_t rows = m.view.rows();
  const MatrixAxes& axes = m.view.part().axes;
  const bool titled = !m.view.part().title.empty();
  m.rowsAreGpus = rows > 1 && (titled ? axes.rowsAreGpus() : rows == m.view.cols());
  m.colsAreGpus = !titled || axes.colsAreGpus();
}

ReportContents readContents(const Report& report, const ExpectationKeys& keys,
                            const StopRequest& stop) {
  ReportContents contents;
  contents.notes = runNotes(report);
  if (!report.testcases) {
    contents.notes.push_back("the report has no testcases");
    return contents;
  }
  for (const ReportEntry& entry : *report.testcases) {
    throwIfStopped(stop);
    const std::string testcase = testcaseOf(entry, keys);
    if (!entry.passedWithMatrix())
      contents.statuses.push_back({&entry, testcase});
    else
      for (const MatrixPart& part : entry.parts) {
        ReportMatrix m{MatrixView(entry, part), part.key, testcase, unitName(entry.unit),
                       entry.bufferSizeMiB};
        gpuAxes(m);
        contents.matrices.push_back(std::move(m));
      }
  }
  return contents;
}

// ---- --expect ----

bool covers(const CellSelection& s, const ReportMatrix& m, std::size_t row, std::size_t col) {
  if (s.kind == CellSelection::Kind::Cell) return row == s.row && col == s.col;
  if (s.kind == CellSelection::Kind::Gpu)
    return (m.rowsAreGpus && row == s.gpu) || (m.colsAreGpus && col == s.gpu);
  return true;
}

// How specific a line is: its cells ([r][c] > GPU<n> > every), then its key (one matrix's key >
// its testcase's).
int rank(const Expectation& e) {
  return 2 * static_cast<int>(e.cells.kind) + (e.key == e.testcase ? 0 : 1);
}

bool stricter(const Expectation& a, const Expectation& b) {
  return a.ceiling() ? a.limit < b.limit : a.limit > b.limit;
}

bool fails(const Expectation& e, double value) {
  return e.ceiling() ? value > e.limit : value < e.limit;
}

bool appliesTo(const Expectation& e, const std::string& testcase, const std::string& name) {
  return e.testcase == testcase && (e.key == e.testcase || e.key == name);
}

struct LineState {
  bool judged = false;          // it covered a cell with a value
  bool sawMatrix = false;       // a passed matrix of its key was in the report
  bool reportedStatus = false;  // an entry of its testcase did not pass
  bool unitMismatch = false;
};

constexpr const char* kFileCheck = "file";
constexpr const char* kPercentOfPeakCheck = "percent_of_peak";

// A check's section before its summary: every list there, empty.
ExpectationSection openSection(const char* check, std::string label,
                               std::vector<std::string> notes) {
  ExpectationSection s;
  s.check = check;
  s.label = std::move(label);
  s.matrices.emplace();
  s.below.emplace();
  s.unmet.emplace();
  s.notJudged.emplace();
  s.notes = std::move(notes);
  return s;
}

// The summary and the verdict, from what the check listed.
void closeSection(ExpectationSection& s) {
  std::uint64_t cells = 0, below = 0, notJudged = 0;
  for (const JudgedMatrixRecord& m : *s.matrices) {
    cells += m.cells.value_or(0);
    below += m.below.value_or(0);
  }
  for (const NotJudgedRecord& n : *s.notJudged) notJudged += n.cells.value_or(0);
  const std::uint64_t notListed = below - s.below->size();
  s.summary = ExpectationCounts{cells, cells - below, below, notListed, s.unmet->size(), notJudged};
  s.passed = below == 0 && s.unmet->empty();
}

// The section's record of `m`, made when its first cell is judged.
class MatrixTally {
 public:
  MatrixTally(const ReportMatrix& m, ExpectationSection& section) : m_(m), section_(section) {}

  // Counts a judged cell against `limit` (`line`: the file's line that judged it, 0 for percent
  // of peak). A BELOW cell is listed (up to kMaxListedBelowCells): its record, for the caller to
  // complete.
  BelowCellRecord* judged(std::size_t row, std::size_t col, double value, bool isBelow,
                          const char* bound, double limit, std::size_t line) {
    JudgedMatrixRecord& j = entry();
    ++*j.cells;
    if (j.lines && line > 0 && !std::binary_search(j.lines->begin(), j.lines->end(), line))
      j.lines->insert(std::upper_bound(j.lines->begin(), j.lines->end(), line), line);
    ++*(isBelow ? j.below : j.met);
    if (!isBelow || section_.below->size() >= kMaxListedBelowCells) return nullptr;
    BelowCellRecord& cell = section_.below->emplace_back();
    cell.name = m_.name;
    cell.testcase = m_.testcase;
    cell.row = row;
    cell.col = col;
    cell.unitText = m_.unit;
    cell.bufferSizeMiB = m_.sizeMiB;
    cell.value = value;
    cell.bound = bound;
    cell.limit = limit;
    if (line > 0) cell.line = line;
    return &cell;
  }

 private:
  JudgedMatrixRecord& entry() {
    if (!index_) {
      index_ = section_.matrices->size();
      std::optional<std::vector<std::uint64_t>> lines;  // the file's lines that judged its cells
      if (section_.check == kFileCheck) lines.emplace();
      section_.matrices->push_back({m_.name, m_.testcase, m_.unit, m_.sizeMiB, 0, 0, 0, lines});
    }
    return (*section_.matrices)[*index_];
  }

  const ReportMatrix& m_;
  ExpectationSection& section_;
  std::optional<std::size_t> index_;
};

// The most specific of the `candidates` lines that covers [r][c], the strictest among equals;
// null when none does. Marks the lines that cover it as judged.
const Expectation* bestLine(const ReportMatrix& m, std::size_t r, std::size_t c,
                            const std::vector<Expectation>& lines,
                            const std::vector<std::size_t>& candidates,
                            std::vector<LineState>& states) {
  const Expectation* best = nullptr;
  for (std::size_t i : candidates) {
    const Expectation& e = lines[i];
    if (!covers(e.cells, m, r, c)) continue;
    states[i].judged = true;
    if (!best || rank(e) > rank(*best) || (rank(e) == rank(*best) && stricter(e, *best))) best = &e;
  }
  return best;
}

void judgeMatrix(const ReportMatrix& m, const std::vector<Expectation>& lines,
                 std::vector<LineState>& states, ExpectationSection& section,
                 const StopRequest& stop) {
  std::vector<std::size_t> candidates;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!appliesTo(lines[i], m.testcase, m.name)) continue;
    states[i].sawMatrix = true;
    if (lines[i].unit != m.unit) {
      if (!states[i].unitMismatch)
        section.unmet->push_back({lines[i].line, lines[i].selection(), "unit_mismatch",
                                  "the report gives " + m.name + atSize(m.sizeMiB) + " in " +
                                      m.unit + ", the line is in " + lines[i].unit});
      states[i].unitMismatch = true;
      continue;
    }
    candidates.push_back(i);
  }
  if (candidates.empty()) return;
  MatrixTally tally(m, section);
  eachValue(m, stop, [&](std::size_t r, std::size_t c, double value) {
    const Expectation* best = bestLine(m, r, c, lines, candidates, states);
    if (best)
      tally.judged(r, c, value, fails(*best, value), best->bound(), best->limit, best->line);
  });
}

// The unmet reason of a line whose testcase's entry has `status`.
const char* reasonOf(const std::string& status) {
  if (status == "Waived") return "waived";
  if (status == "ERROR") return "error";
  if (status == "Running") return "running";
  return "no_value";  // Passed without a matrix
}

std::string noValueDetail(const Expectation& e) {
  if (e.cells.kind == CellSelection::Kind::Cell)
    return "the report has no value at " + e.cells.text() + " of " + e.key;
  if (e.cells.kind == CellSelection::Kind::Gpu)
    return "the report has no value of GPU " + std::to_string(e.cells.gpu) + " in " + e.key;
  return "every cell of " + e.key + " is N/A";
}

// The file's section with its lines, before any is judged.
ExpectationSection fileSection(const Expectations& expectations, std::vector<std::string> notes) {
  ExpectationSection section = openSection(kFileCheck, expectations.label, std::move(notes));
  section.file = expectations.path;
  section.lines.emplace();
  for (const Expectation& e : expectations.lines)
    section.lines->push_back(
        {e.line, e.key, e.testcase, e.cells.text(), e.unit, e.bound(), e.limit});
  return section;
}

// ---- --min-percent-of-peak ----

// Judges the cells of `m` with a known percent of peak; lists those it cannot judge.
void judgePeaks(const ReportMatrix& m, double minPercent, ExpectationSection& section,
                const StopRequest& stop) {
  std::size_t unknown = 0;
  MatrixTally tally(m, section);
  eachValue(m, stop, [&](std::size_t r, std::size_t c, double value) {
    const OrNull percent = m.view.percent(r, c);
    if (m.unit == "ns" || !percent) {
      ++unknown;
      return;
    }
    BelowCellRecord* cell =
        tally.judged(r, c, value, *percent < minPercent, "floor", minPercent, 0);
    if (!cell) return;
    cell->percentOfPeak.emplace(percent);
    cell->peakGBps.emplace(m.view.peak(r, c));
    const std::string* link = m.view.link(r, c);
    cell->link.emplace(link && !link->empty() ? std::optional<std::string>(*link)
                                              : std::nullopt);  // null: no link known
  });
  if (unknown > 0)
    section.notJudged->push_back(
        {m.name, m.unit == "ns" ? "latency: no peak" : "no known peak", m.sizeMiB, unknown});
}

}  // namespace

ExpectationSection checkExpectations(const Expectations& expectations, const Report& report,
                                     const ExpectationKeys& keys, const StopRequest& stop) {
  ReportContents contents = readContents(report, keys, stop);
  ExpectationSection section = fileSection(expectations, std::move(contents.notes));
  std::vector<UnmetRecord>& unmet = *section.unmet;
  const std::vector<Expectation>& lines = expectations.lines;
  std::vector<LineState> states(lines.size());
  for (const ReportMatrix& m : contents.matrices) judgeMatrix(m, lines, states, section, stop);
  for (const ReportStatus& s : contents.statuses) {
    const ReportEntry& entry = *s.entry;
    const std::string status = statusName(entry.status);
    const auto& why = entry.status == Status::Waived ? entry.waiveReason : entry.error;
    std::string detail = status + atSize(entry.bufferSizeMiB);
    if (status == "Passed") detail += " without a matrix";
    if (!why.value_or("").empty()) detail += ": " + *why;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (lines[i].testcase != s.testcase) continue;
      states[i].reportedStatus = true;
      unmet.push_back({lines[i].line, lines[i].selection(), reasonOf(status), detail});
    }
  }
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const LineState& st = states[i];
    if (st.judged || st.reportedStatus || st.unitMismatch) continue;
    unmet.push_back(
        {lines[i].line, lines[i].selection(), st.sawMatrix ? "no_value" : "missing",
         st.sawMatrix ? noValueDetail(lines[i]) : lines[i].testcase + " is not in the report"});
  }
  std::stable_sort(unmet.begin(), unmet.end(), [](const UnmetRecord& a, const UnmetRecord& b) {
    return a.line.value_or(0) < b.line.value_or(0);
  });
  closeSection(section);
  return section;
}

ExpectationSection checkPercentOfPeak(double minPercent, const Report& report,
                                      const ExpectationKeys& keys, const StopRequest& stop) {
  if (!std::isfinite(minPercent) || minPercent <= 0.0 || minPercent > 100.0)
    throw std::invalid_argument("the minimum percent of peak must be above 0 and at most 100");
  ReportContents contents = readContents(report, keys, stop);
  if (report.upstream()) contents.notes.push_back("an upstream v0.8 report carries no peaks");
  ExpectationSection section =
      openSection(kPercentOfPeakCheck, "--min-percent-of-peak " + significant(minPercent, 15),
                  std::move(contents.notes));
  section.minPercentOfPeak = minPercent;
  for (const ReportMatrix& m : contents.matrices) judgePeaks(m, minPercent, section, stop);
  for (const ReportStatus& s : contents.statuses)
    section.notJudged->push_back(
        {s.entry->name, statusName(s.entry->status), s.entry->bufferSizeMiB, 0});
  if (section.matrices->empty())  // a matrix is listed from its first judged cell
    section.unmet->push_back(
        {0, *section.label, "nothing_judged", "no bandwidth cell of the report has a known peak"});
  closeSection(section);
  return section;
}

}  // namespace nvbw
