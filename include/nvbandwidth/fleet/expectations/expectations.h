// Absolute expectations of a report, the way fleet health checks judge nodes: --expect FILE holds
// cells to a floor (GB/s) or ceiling (ns), --min-percent-of-peak P bandwidth cells to P% of their
// peak (docs/verdicts.md, "Expectations"). Pure apart from readExpectations; the testcases the
// tool knows come from the caller (ExpectationKeys).
#pragma once

#include <cstddef>
#include <map>
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

// A line of an expectations file (or the file itself) cannot be used: "--expect 'h100.txt' line
// 7: ...". A usage error: exit status 2.
class ExpectationsError : public UsageError {
 public:
  using UsageError::UsageError;
};

// Which cells of a matrix a line names.
struct CellSelection {
  enum class Kind { Every, Gpu, Cell };  // from the least specific to the most
  Kind kind = Kind::Every;
  std::size_t gpu = 0;  // Kind::Gpu
  std::size_t row = 0;  // Kind::Cell
  std::size_t col = 0;  // Kind::Cell
  // "every", "GPU3" or "[0][1]".
  std::string text() const;
};

struct Expectation {
  std::size_t line = 0;  // 1-based
  std::string key;       // as written: a testcase key or one matrix's key
  std::string testcase;  // the testcase `key` belongs to (== key for a testcase key)
  CellSelection cells;
  std::string unit;  // "GB/s" or "ns", from the key
  double limit = 0.0;
  // A ceiling (ns: the cell must be at most `limit`), else a floor (GB/s: at least `limit`).
  bool ceiling() const { return unit == "ns"; }
  const char* bound() const { return ceiling() ? "ceiling" : "floor"; }
  // "device_to_device_memcpy_read_ce [0][1]", "host_to_device_memcpy_ce GPU3", or the key.
  std::string selection() const;
};

struct Expectations {
  std::string label;               // how messages name the file: "--expect 'h100.txt'"
  std::string path;                // the file, as given (empty when parsed from text)
  std::vector<Expectation> lines;  // in file order; never empty
};

// What a key of an expectations file stands for: its testcase and its unit.
struct ExpectationKey {
  std::string testcase;
  std::string unit;  // "GB/s" or "ns"
};

// Every key a line may name: a testcase's, or one of its matrices' where it reports several
// ("<key>_read1", "<key>_total"), with what it stands for.
using ExpectationKeys = std::map<std::string, ExpectationKey>;

// Parses the text of an expectations file. Throws ExpectationsError ("<fileLabel> line N: ...",
// or "<fileLabel>: ..." for the file as a whole: too large, no expectation in it).
Expectations parseExpectations(const std::string& text, const std::string& fileLabel,
                               const ExpectationKeys& keys);

// Reads (a regular file or "-", as report files are read: report_files.h) and parses. Throws
// ReportFileError, ExpectationsError or Interrupted.
Expectations readExpectations(const NamedFile& file, const ExpectationKeys& keys,
                              const StopRequest& stop);

// ---- Results: an element of the report's "expectations" (docs/nvbandwidth.schema.json) ----

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

// The text view's lines (without their newlines; the list of cells not judged wrapped over
// several): "BELOW ..." and "UNMET ..." lines, the cells not judged, notes, and last the summary
// line: "Expectations --expect 'h100.txt': FAILED: 6 cells: 4 met, 2 BELOW; 1 unmet." A saved
// report's section may lack a field or list: it reads "unknown", or has no line. The HTML page
// shows the same lines.
std::vector<std::string> expectationLines(const ExpectationSection& check);

// The lines, each ending in a newline.
std::string expectationText(const ExpectationSection& check);

// The line of one BELOW cell: "BELOW <key> [0][1]: 393.89 GB/s, floor 400 GB/s (line 3)" (a file's
// line judged it), "BELOW <key> [0][1]: 393.89 GB/s is 82.38% of its 478.13 GB/s peak (NVLink),
// below 88%" (--min-percent-of-peak). The heatmap's tooltip of the cell says it too.
std::string belowCellLine(const BelowCellRecord& cell);

}  // namespace nvbw
