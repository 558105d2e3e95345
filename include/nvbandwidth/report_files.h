// Reports on disk: reading a saved -j report (--compare, --baseline, --from) and writing the
// HTML view (--html). Errors are ReportFileError with a message naming the file and the cause.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "nvbandwidth/error.h"

namespace nvbw {

class ReportFileError : public Error {
 public:
  using Error::Error;
};

// Parses the file as JSON and checks it is a report ({"nvbandwidth": {"testcases": [...]}}).
nlohmann::json readReportFile(const std::string& path);

// Writes `text` to `path` (replacing it); throws ReportFileError when it cannot.
void writeTextFile(const std::string& path, const std::string& text);

}  // namespace nvbw
