// SIGINT, SIGTERM and SIGHUP as a request to stop: the run finishes the sample under way,
// releases the GPUs and prints what it has (docs/compatibility.md#c17).
#pragma once

namespace nvbw {

// Installs the handlers for its lifetime and restores the previous ones afterwards. The first
// such signal is recorded; a repeat within a second is taken for the same request delivered
// twice and ignored, a later one ends the process at once with the signal's default action.
// SIGXFSZ is ignored meanwhile, so that a file-size limit fails the write instead of the process.
// Only one may exist at a time (a signal handler can only reach process-wide state).
class SignalStop {
 public:
  SignalStop();
  ~SignalStop();
  SignalStop(const SignalStop&) = delete;
  SignalStop& operator=(const SignalStop&) = delete;
  // The signal received, or 0.
  int pending() const;
};

}  // namespace nvbw
