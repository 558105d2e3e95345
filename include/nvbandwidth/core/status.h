// How a testcase ended, for the engine, the report and every view of it.
#pragma once

#include <optional>
#include <string>

namespace nvbw {

// Running: a testcase that an interrupted run had begun and not finished (a report's entry only;
// the engine ends every testcase Passed, Waived or Error).
enum class Status { Passed, Waived, Error, Running };
const char* statusName(Status s);  // "Passed", "Waived", "ERROR", "Running", as reports write them
std::optional<Status> statusNamed(const std::string& name);

}  // namespace nvbw
