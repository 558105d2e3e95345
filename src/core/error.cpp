#include "core/error.h"

#include <csignal>
#include <cstring>

#include "core/stop_request.h"

namespace nvbw {
namespace {

std::string errorText(int errnum, const std::string& also) {
  return std::string(std::strerror(errnum)) + (also.empty() ? "" : "; " + also);
}

}  // namespace

SystemError::SystemError(const std::string& call, int errnum, const std::string& also,
                         std::string detail)
    : Error(call + " failed: " + errorText(errnum, also), std::move(detail)), call_(call),
      errnum_(errnum), text_(errorText(errnum, also)) {}

Interrupted::Interrupted(int signal)
    : Error("interrupted by " + signalName(signal)), signal_(signal) {}

void throwIfStopped(const StopRequest& stop) {
  if (!stop) return;
  if (const int signal = stop()) throw Interrupted(signal);
}

std::string errorDetail(const std::exception& e) {
  const auto* error = dynamic_cast<const Error*>(&e);
  return error ? error->detail() : std::string();
}

std::string signalName(int signal) {
  if (signal == SIGINT) return "SIGINT";
  if (signal == SIGTERM) return "SIGTERM";
  if (signal == SIGHUP) return "SIGHUP";
  return "signal " + std::to_string(signal);
}

}  // namespace nvbw
