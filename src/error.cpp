#include "nvbandwidth/error.h"

#include <csignal>

namespace nvbw {

Interrupted::Interrupted(int signal)
    : Error("interrupted by " + signalName(signal)), signal_(signal) {}

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
