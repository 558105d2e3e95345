// How the model's records meet a document's objects (internal to the model): one table per record
// (record_fields.cpp) names each key with its field and, where a view relies on it, its check; the
// same table binds an object to the record and writes the record back. A member that fails its
// check refuses the report (ReportShapeError); one the record has no field for, or one of another
// type without a check, is read past. `where` is the object's place, for messages.
#pragma once

#include <cstddef>

#include "core/stop_request.h"
#include "model/json.h"
#include "model/report.h"
#include "model/report_checks.h"

namespace nvbw::model {

// Reads the members of the run object other than its entries ("testcases", "confirmations").
void readFields(const Json& object, Report& report, const Path& where);
// Reads the members of an entry other than its name, status and grids.
void readFields(const Json& object, ReportEntry& entry, const Path& where);

struct EntryReading {
  ReadScope scope = ReadScope::Whole;
  std::size_t gpus = 0;  // the report's (0: none, and a matrix has no shape to be checked against)
  const StopRequest* stop = nullptr;  // asked every matrix row
};
// The whole entry at `at` (entry_reader.cpp). Throws ReportShapeError, or Interrupted.
ReportEntry readEntry(const Json& entry, const Path& at, const EntryReading& reading);

}  // namespace nvbw::model
