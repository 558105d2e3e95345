// Absolute expectations of a report, the way fleet health checks judge nodes today (Azure NHC and
// cluster-health-monitor: a fixed floor per machine type; docs/expectations/ has their floors):
//
//   --expect FILE              every cell a line of FILE names must reach its floor (GB/s) or stay
//                              under its ceiling (ns);
//   --min-percent-of-peak P    every bandwidth cell whose theoretical peak the report knows must
//                              reach P% of it.
//
// A cell that does not is BELOW. Pure apart from readExpectations: the checks read a Report (this
// tool's layout or upstream v0.8's, as the model's reader checked it: its entries' units, axes and
// parts), the testcases the tool knows come from the caller (ExpectationKeys), and the views render
// what they found.
//
// File syntax, one expectation per line (`#` starts a comment, blank lines are skipped):
//
//   <key> [<cells>] <number>[<unit>]
//
//   key     a testcase key (`device_to_device_bidirectional_memcpy_read_ce`: all its matrices) or
//           the key of one matrix of a testcase with several (`..._read1`, `..._read2`,
//           `..._write1`, `..._write2`, `..._total`); the names `nvbandwidth --list` prints,
//           multinode ones too.
//   cells   left out: every cell with a value; `[r][c]`: row r, column c, as the JSON `values`
//           and the comparison name cells; `GPU<n>`: every cell GPU n takes part in (the column n
//           of a `CPU(row) -> GPU(column)` matrix, row n and column n of a `GPU(row) ->
//           GPU(column)` one, as the entry's description says).
//   number  a floor in GB/s for bandwidth keys, a ceiling in ns for latency keys (the unit follows
//           the key); an optional unit, attached or after a space (`48GB/s`, `2000 ns`), must be
//           that unit.
//
// A cell is judged against the most specific lines that cover it: `[r][c]` before `GPU<n>` before
// the whole matrix, and at each of those a matrix key before its testcase key; where several lines
// of that rank cover it (`GPU0` and `GPU1` both cover [0][1]), the strictest applies. The same
// key and cells twice is an error, so an edited file never hides a floor.
//
// What fails. Besides BELOW cells, a line is unmet (and fails the check) when its testcase is not
// in the report, was Waived, failed (ERROR) or was interrupted (Running), or when the report has
// no cell with a value where the line points (a `GPU7` line on a node that lost GPU 7): a gate
// must not pass a node because what it expected never ran. N/A cells are not judged.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/stop_request.h"
#include "model/report.h"
#include "model/report_files.h"

namespace nvbw {

// Expectations files are small: a floor for every cell of every matrix of an 8-GPU run is 200 KB.
inline constexpr std::size_t kMaxExpectationsBytes = 4u << 20;
inline constexpr std::size_t kMaxExpectationLineBytes = 1024;

// A line of an expectations file (or the file itself) cannot be used. The message names the file
// and the line: "--expect 'h100.txt' line 7: ...". A usage error: exit status 2.
class ExpectationsError : public UsageError {
 public:
  using UsageError::UsageError;
};

// Which cells of a matrix a line names.
struct CellSelection {
  enum class Kind { Every, Gpu, Cell };
  Kind kind = Kind::Every;
  std::size_t gpu = 0;  // Kind::Gpu
  std::size_t row = 0;  // Kind::Cell
  std::size_t col = 0;  // Kind::Cell
  // "every", "GPU3" or "[0][1]".
  std::string text() const;
};

// A floor (GB/s: the cell must be at least this) or a ceiling (ns: at most this).
enum class Bound { Floor, Ceiling };
const char* boundName(Bound b);  // "floor", "ceiling"

struct Expectation {
  std::size_t line = 0;  // 1-based
  std::string key;       // as written: a testcase key or one matrix's key
  std::string testcase;  // the testcase `key` belongs to (== key for a testcase key)
  CellSelection cells;
  std::string unit;  // "GB/s" or "ns", from the key
  double limit = 0.0;
  Bound bound() const { return unit == "ns" ? Bound::Ceiling : Bound::Floor; }
  // "device_to_device_memcpy_read_ce [0][1]", "host_to_device_memcpy_ce GPU3", or the key.
  std::string selection() const;
};

struct Expectations {
  std::string label;               // how messages name the file: "--expect 'h100.txt'"
  std::string path;                // the file, as given (empty when parsed from text)
  std::vector<Expectation> lines;  // in file order; never empty
  // The testcases the lines name, once each, in file order (what a run must select).
  std::vector<std::string> testcases() const;
};

// What a key of an expectations file stands for: its testcase and its unit.
struct ExpectationKey {
  std::string testcase;
  std::string unit;  // "GB/s" or "ns"
};

// A testcase as the expectations need to know it: its key, its unit, and the keys of its matrices
// where it reports several ("<key>_read1", "<key>_read2", "<key>_total"; empty: one matrix under
// its key). The caller lists every testcase of this tool, in any build (the registry's facts), so
// that a file written for a fleet does not depend on which binary reads it.
struct KnownTestcase {
  std::string key;
  Unit unit = Unit::GBps;
  std::vector<std::string> matrixKeys;
};

// Every key a line may name (a testcase's, or one of its matrices'), with what it stands for.
class ExpectationKeys {
 public:
  explicit ExpectationKeys(const std::vector<KnownTestcase>& testcases);
  // nullopt for a key no known testcase reports.
  std::optional<ExpectationKey> lookUp(const std::string& key) const;

 private:
  std::map<std::string, ExpectationKey> keys_;
};

// Parses the text of an expectations file. Throws ExpectationsError ("<fileLabel> line N: ...",
// or "<fileLabel>: ..." for the file as a whole: too large, no expectation in it).
Expectations parseExpectations(const std::string& text, const std::string& fileLabel,
                               const ExpectationKeys& keys);

// Reads (a regular file or "-", as report files are read: report_files.h) and parses. Throws
// ReportFileError, ExpectationsError or Interrupted.
Expectations readExpectations(const NamedFile& file, const ExpectationKeys& keys,
                              const StopRequest& stop);

// ---- Results: the report's "expectations" section (model/report.h) ----
//
// Each check fills an ExpectationSection, the element of the report's "expectations" array
// (docs/nvbandwidth.schema.json): "check" ("file" or "percent_of_peak"), "label" ("--expect
// 'h100.txt'" or "--min-percent-of-peak 85"), "passed" (no BELOW cell and nothing unmet: the exit
// status stays 0, otherwise 3), "summary" (the counts, exact beyond the listed cells), and:
//
//   matrices   the matrices some of whose cells were judged, in report order. MET cells are
//              counted, not listed: their values are in the report, and a file check names the
//              lines that judged them ("lines", ascending), so the section stays small.
//   below      the BELOW cells in report order (under their floor, GB/s or percent of peak, or
//              above their ceiling, ns), the first kMaxListedBelowCells: a file check's with the
//              line that judged the cell, a percent-of-peak check's with the cell's percent, peak
//              and link as the report has them (null where not known).
//   unmet      the expectations no cell could answer, by line (0 for percent of peak); each fails
//              the check as a BELOW cell does. Reasons: "missing", "waived", "error", "running",
//              "no_value", "unit_mismatch", "nothing_judged".
//   not_judged cells a percent-of-peak check could not judge, per matrix ("latency: no peak",
//              "no known peak"), and the testcases that did not pass ("Waived", "ERROR", ...).
//   notes      the report's run-level error or interruption.
//
// A file check adds the file and its lines ("file", "expectations": a BELOW names what it was
// held to); a percent-of-peak check its minimum ("min_percent_of_peak").

// BELOW cells listed one by one; the counts stay exact beyond it. More than a broken 72-GPU
// NVLink domain has, so only a hostile report reaches it.
inline constexpr std::size_t kMaxListedBelowCells = 100000;

// Judges `report` against the file's lines (`keys` name the testcase of an entry that does not
// say it). Throws Interrupted when `stop` reports a signal (asked every entry and matrix row; so
// for checkPercentOfPeak).
ExpectationSection checkExpectations(const Expectations& expectations, const Report& report,
                                     const ExpectationKeys& keys, const StopRequest& stop = {});

// Judges every bandwidth cell with a known percent of peak against `minPercent` (0 < P <= 100;
// std::invalid_argument otherwise). A report where no cell has a known peak fails: nothing could
// be vouched for ("nothing_judged").
ExpectationSection checkPercentOfPeak(double minPercent, const Report& report,
                                      const ExpectationKeys& keys, const StopRequest& stop = {});

// The BELOW cells and unmet expectations, one line each ("BELOW ...", "UNMET ..."), the cells not
// judged, notes, and last one summary line:
// "Expectations --expect 'h100.txt': FAILED: 6 cells: 4 met, 2 BELOW; 1 unmet."
// Every line ends in a newline; text from the report and the file is escaped.
std::string expectationText(const ExpectationSection& check);

}  // namespace nvbw
