#include "nvbandwidth/signals.h"

#include <csignal>
#include <stdexcept>

namespace nvbw {
namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

// The one piece of process-wide state: a handler can reach nothing else.
volatile std::sig_atomic_t receivedSignal = 0;
bool installed = false;
struct sigaction previous[sizeof kSignals / sizeof kSignals[0]];

extern "C" void recordSignal(int signal) {
  if (receivedSignal == 0) receivedSignal = signal;
}

}  // namespace

SignalStop::SignalStop() {
  if (installed) throw std::logic_error("SignalStop is already installed");
  receivedSignal = 0;
  struct sigaction action {};
  action.sa_handler = recordSignal;
  sigemptyset(&action.sa_mask);
  // SA_RESETHAND: the second signal takes the default action. SA_RESTART: the driver's and the
  // stream writes' system calls carry on instead of failing with EINTR.
  action.sa_flags = SA_RESETHAND | SA_RESTART;
  for (std::size_t i = 0; i < std::size(kSignals); ++i) sigaction(kSignals[i], &action, &previous[i]);
  installed = true;
}

SignalStop::~SignalStop() {
  for (std::size_t i = 0; i < std::size(kSignals); ++i) sigaction(kSignals[i], &previous[i], nullptr);
  installed = false;
}

int SignalStop::pending() const { return receivedSignal; }

}  // namespace nvbw
