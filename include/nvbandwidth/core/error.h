// The tool's exceptions: one base class, so callers that report and go on catch `Error`, and the
// kinds below say what went wrong where the caller must tell them apart (exit status, waivers).
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

namespace nvbw {

// `what()` is the line a user reads, in their terms; `detail()` is what a developer needs besides
// (the failing call as written in the source and where): the JSON's `error_detail` and -v show it.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message, std::string detail = {})
      : std::runtime_error(message), detail_(std::move(detail)) {}
  const std::string& detail() const { return detail_; }

 private:
  std::string detail_;
};

// A bad command line: the message is one line for stderr; the exit status is 2.
struct UsageError : Error {
  using Error::Error;
};

// The run could not start: no driver, a stub driver, no GPU, an implausible device count.
struct StartupError : Error {
  using Error::Error;
};

// Data verification found a mismatch: "<copy>: N of M words differ, first at byte X".
struct VerificationError : Error {
  using Error::Error;
};

// The spin kernel released itself after its timeout: the timing included the enqueueing.
struct SpinTimeoutError : Error {
  using Error::Error;
};

// An elapsed time that cannot be right (zero, negative, not finite): no bandwidth comes of it.
struct TimingError : Error {
  using Error::Error;
};

// A kernel launch failed (CUDA runtime).
struct KernelError : Error {
  using Error::Error;
};

// A system call failed: what() is "<call> failed: <text()>", the call as written the detail.
class SystemError : public Error {
 public:
  SystemError(const std::string& call, int errnum, const std::string& also, std::string detail);
  const std::string& call() const { return call_; }
  int errnum() const { return errnum_; }
  // strerror's text, then `also` (what else the caller knows) after "; ".
  const std::string& text() const { return text_; }

 private:
  std::string call_;
  int errnum_;
  std::string text_;
};

// The run was asked to stop by a signal; `signal()` is its number (SIGINT, SIGTERM, SIGHUP).
class Interrupted : public Error {
 public:
  explicit Interrupted(int signal);
  int signal() const { return signal_; }

 private:
  int signal_;
};

// The detail of `e` when it is an Error, else "".
std::string errorDetail(const std::exception& e);

// "SIGINT", "SIGTERM", "SIGHUP", else "signal N".
std::string signalName(int signal);

}  // namespace nvbw
