// The tool's exceptions: one base class, so callers that report and go on catch `Error`, and the
// kinds below say what went wrong where the caller must tell them apart (exit status, waivers).
#pragma once

#include <stdexcept>
#include <string>

namespace nvbw {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A bad command line: the message is one line for stderr; the exit status is 2.
class UsageError : public Error {
 public:
  using Error::Error;
};

// The run could not start: no driver, a stub driver, no GPU, an implausible device count.
class StartupError : public Error {
 public:
  using Error::Error;
};

// Data verification found a mismatch: "<copy>: N of M words differ, first at byte X".
class VerificationError : public Error {
 public:
  using Error::Error;
};

// The spin kernel released itself after its timeout: the measurement included the time to
// enqueue and is not trustworthy.
class SpinTimeoutError : public Error {
 public:
  using Error::Error;
};

// An elapsed time that cannot be right (zero, negative, not finite): no bandwidth is derived
// from it.
class TimingError : public Error {
 public:
  using Error::Error;
};

// A kernel launch failed (CUDA runtime).
class KernelError : public Error {
 public:
  using Error::Error;
};

// The run was asked to stop by a signal; `signal()` is its number (SIGINT, SIGTERM, SIGHUP).
class Interrupted : public Error {
 public:
  explicit Interrupted(int signal);
  int signal() const { return signal_; }

 private:
  int signal_;
};

// "SIGINT", "SIGTERM", "SIGHUP", else "signal N".
std::string signalName(int signal);

}  // namespace nvbw
