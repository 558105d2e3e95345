// One testcase entry of a report document, checked and made a ReportEntry (internal to the
// reader, report_reader.cpp).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/stop_request.h"
#include "model/json_scanner.h"
#include "model/report.h"
#include "model/report_checks.h"

namespace nvbw::model {

// A matrix's size, checked against the report's GPUs once the whole run object is read, where
// its "GPU Device list" and "processes" come after the entry.
struct GridSize {
  std::string where;
  std::size_t rows = 0;
  std::size_t cols = 0;
};

struct EntryReading {
  ReadScope scope = ReadScope::Whole;
  // The report's GPUs where its "GPU Device list" or "processes" came before (0: not yet known:
  // the sizes are recorded in `sizes` and checked at the end).
  std::size_t gpus = 0;
  const StopRequest* stop = nullptr;  // asked every matrix row
  std::vector<GridSize>* sizes = nullptr;
};

// One element of "testcases" (or "confirmations") as the scanner read it: its members as values,
// but the matrices it could read straight into cells (values, percent_of_peak, peak_GBps,
// bandwidth_matrix) as those, absent from `members`.
struct ScannedEntry {
  Value members;  // an object where the element is one
  std::optional<JsonScanner::NumberRows> values, percents, peaks;
  std::optional<JsonScanner::StringRows> texts;
};

// The value of the entry's member `key`, which the scanner is at: read into its matrix and true,
// where it is one of those matrices and the scanner can read it so; else false, nothing read (and
// a matrix of that key read before forgotten: a repeated key's later value counts).
bool scanMatrix(JsonScanner& scan, const std::string& key, ScannedEntry& entry);

// `entry` is at `at`. Throws ReportShapeError, or Interrupted.
ReportEntry readEntry(ScannedEntry&& entry, const Path& at, const EntryReading& reading);

// The range of an entry's (or a sweep series', or a compared cell's) values: by its "unit" where
// it has one (which must be "GB/s" or "ns"), else by its `name` (a latency's key names one).
// Throws ReportShapeError.
const ValueRange& entryRange(const Value& entry, const std::string& name, const Path& where);

// The report's GPUs against every matrix size: throws ReportShapeError for the first that does
// not fit (a report without GPUs has none).
void checkGridSizes(const std::vector<GridSize>& sizes, std::size_t gpus);

}  // namespace nvbw::model
