// One testcase entry of a report document, checked and made a ReportEntry (internal to the
// reader, report_reader.cpp).
#pragma once

#include <cstddef>
#include <string>

#include "core/stop_request.h"
#include "model/json.h"
#include "model/report.h"
#include "model/report_checks.h"

namespace nvbw::model {

struct EntryReading {
  ReadScope scope = ReadScope::Whole;
  std::size_t gpus = 0;  // the report's (0: none, and a matrix has no shape to be checked against)
  const StopRequest* stop = nullptr;  // asked every matrix row
};

// `entry` is at `at`. Throws ReportShapeError, or Interrupted.
ReportEntry readEntry(const Json& entry, const Path& at, const EntryReading& reading);

}  // namespace nvbw::model
