// One testcase entry of a report document, checked and made a ReportEntry (internal to the
// reader, report_reader.cpp).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/stop_request.h"
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

// `entry` is one element of "testcases" (or "confirmations"), `at` where it is. Throws
// ReportShapeError, or Interrupted.
ReportEntry readEntry(const Value& entry, const Path& at, const EntryReading& reading);

// The report's GPUs against every matrix size: throws ReportShapeError for the first that does
// not fit (a report without GPUs has none).
void checkGridSizes(const std::vector<GridSize>& sizes, std::size_t gpus);

}  // namespace nvbw::model
