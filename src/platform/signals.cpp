#include "platform/signals.h"

#include <csignal>
#include <ctime>
#include <iterator>
#include <stdexcept>

namespace nvbw {
namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

// A repeat within this window is the same request delivered twice (`timeout` signals the child
// and its process group; a launcher may forward what the terminal sent), not a user insisting.
constexpr long kRepeatWindowNs = 1000000000;

// The one piece of process-wide state: a handler can reach nothing else.
volatile std::sig_atomic_t receivedSignal = 0;
timespec firstSignalAt{};
bool installed = false;
struct sigaction previous[std::size(kSignals)];
struct sigaction previousFileSize;

long nanosecondsSince(const timespec& then) {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);  // async-signal-safe
  return (now.tv_sec - then.tv_sec) * 1000000000L + (now.tv_nsec - then.tv_nsec);
}

// Only async-signal-safe calls here: clock_gettime, signal, raise.
extern "C" void recordSignal(int signal) {
  if (receivedSignal == 0) {
    clock_gettime(CLOCK_MONOTONIC, &firstSignalAt);
    receivedSignal = signal;
    return;
  }
  // A second request, later than a duplicate delivery would come: take the default action now.
  if (nanosecondsSince(firstSignalAt) >= kRepeatWindowNs) {
    std::signal(signal, SIG_DFL);
    std::raise(signal);
  }
}

}  // namespace

SignalStop::SignalStop() {
  if (installed) throw std::logic_error("SignalStop is already installed");
  receivedSignal = 0;
  struct sigaction action {};
  action.sa_handler = recordSignal;
  sigemptyset(&action.sa_mask);
  for (int s : kSignals) sigaddset(&action.sa_mask, s);  // one handler at a time
  // SA_RESTART: the driver's and the stream writes' system calls carry on instead of EINTR.
  action.sa_flags = SA_RESTART;
  for (std::size_t i = 0; i < std::size(kSignals); ++i)
    sigaction(kSignals[i], &action, &previous[i]);
  // A file-size limit (ulimit -f) makes the write fail with EFBIG, which is reported like any
  // other failed write, instead of killing the process mid-report.
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGXFSZ, &ignore, &previousFileSize);
  installed = true;
}

SignalStop::~SignalStop() {
  for (std::size_t i = 0; i < std::size(kSignals); ++i)
    sigaction(kSignals[i], &previous[i], nullptr);
  sigaction(SIGXFSZ, &previousFileSize, nullptr);
  installed = false;
}

int SignalStop::pending() const { return receivedSignal; }

}  // namespace nvbw
