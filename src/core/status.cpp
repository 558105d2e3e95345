#include "core/status.h"

namespace nvbw {

const char* statusName(Status s) {
  switch (s) {
  case Status::Waived:
    return "Waived";
  case Status::Error:
    return "ERROR";
  case Status::Running:
    return "Running";
  case Status::Passed:
    break;
  }
  return "Passed";
}

std::optional<Status> statusNamed(const std::string& name) {
  for (Status s : {Status::Passed, Status::Waived, Status::Error, Status::Running})
    if (name == statusName(s)) return s;
  return std::nullopt;
}

}  // namespace nvbw
