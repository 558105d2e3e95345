#include "core/status.h"

namespace nvbw {

const char* statusName(Status s) {
  constexpr const char* names[] = {"Passed", "Waived", "ERROR", "Running"};  // in Status's order
  return names[static_cast<int>(s)];
}

std::optional<Status> statusNamed(const std::string& name) {
  for (Status s : {Status::Passed, Status::Waived, Status::Error, Status::Running})
    if (name == statusName(s)) return s;
  return std::nullopt;
}

}  // namespace nvbw
