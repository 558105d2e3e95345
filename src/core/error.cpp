#include "core/error.h"

#include <csignal>

#include "core/stop_request.h"

namespace nvbw {

Interrupted::Interrupted(int signal)
    : Error("interrupted by " + signalName(signal)), signal_(signal) {}

void throwIfStopped(const StopRequest& stop) {
  if (!stop) return;
  if (const int signal = stop()) throw Interrupted(signal);
}

std::string signalName(int signal) {
  switch (signal) {
  case SIGINT:
    return "SIGINT";
  case SIGTERM:
    return "SIGTERM";
  case SIGHUP:
    return "SIGHUP";
  default:
    return "signal " + std::to_string(signal);
  }
}

}  // namespace nvbw
