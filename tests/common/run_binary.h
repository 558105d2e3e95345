// Runs a program in a child process and collects its exit status and output, with the knobs the
// CLI tests need: extra environment, a signal sent while it runs, and stdout that is a pipe,
// /dev/full or closed. A hung program is killed and reported, never hangs the suite.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace nvbw::test {

enum class StdoutMode { Pipe, DevFull, Closed };

struct RunSpec {
  RunSpec(std::string program, std::vector<std::string> arguments = {})
      : binary(std::move(program)), args(std::move(arguments)) {}
  std::string binary;
  std::vector<std::string> args;
  std::vector<std::pair<std::string, std::string>> env;  // set in the child
  std::vector<std::string> unsetEnv;                     // removed in the child
  std::optional<int> signal;                             // sent once `signalAfter` has passed
  std::chrono::milliseconds signalAfter{0};
  StdoutMode stdoutMode = StdoutMode::Pipe;
  std::chrono::seconds killAfter{20};
};

struct RunResult {
  int exitCode = -1;  // -1 when the process did not exit normally
  int signal = 0;     // the signal that killed it
  bool timedOut = false;
  double seconds = 0;
  std::string out;
  std::string err;
};

inline std::string describe(const RunResult& run) {
  return "exit " + std::to_string(run.exitCode) + " signal " + std::to_string(run.signal) +
         (run.timedOut ? " (timed out)" : "") + "\n--- stdout ---\n" + run.out +
         "\n--- stderr ---\n" + run.err;
}

namespace detail {
[[noreturn]] inline void execChild(const RunSpec& spec, int outPipe[2], int errPipe[2]) {
  if (spec.stdoutMode == StdoutMode::Pipe) dup2(outPipe[1], STDOUT_FILENO);
  if (spec.stdoutMode == StdoutMode::DevFull) {
    const int full = open("/dev/full", O_WRONLY);
    dup2(full, STDOUT_FILENO);
  }
  if (spec.stdoutMode == StdoutMode::Closed) close(STDOUT_FILENO);
  dup2(errPipe[1], STDERR_FILENO);
  for (int fd : {outPipe[0], outPipe[1], errPipe[0], errPipe[1]}) close(fd);
  const int devNull = open("/dev/null", O_RDONLY);
  if (devNull >= 0) dup2(devNull, STDIN_FILENO);
  // The test process is single-threaded, so the child may still use setenv before execv.
  for (const std::string& name : spec.unsetEnv) unsetenv(name.c_str());
  for (const auto& [name, value] : spec.env) setenv(name.c_str(), value.c_str(), 1);
  std::vector<std::string> copies(spec.args);
  std::vector<char*> argv{const_cast<char*>(spec.binary.c_str())};
  for (std::string& arg : copies) argv.push_back(arg.data());
  argv.push_back(nullptr);
  execv(argv[0], argv.data());
  _exit(127);
}
}  // namespace detail

inline RunResult runProgram(const RunSpec& spec) {
  RunResult result;
  int outPipe[2];
  int errPipe[2];
  if (pipe(outPipe) != 0 || pipe(errPipe) != 0) {
    ADD_FAILURE() << "pipe: " << std::strerror(errno);
    return result;
  }
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid < 0) {
    ADD_FAILURE() << "fork: " << std::strerror(errno);
    return result;
  }
  if (pid == 0) detail::execChild(spec, outPipe, errPipe);
  close(outPipe[1]);
  close(errPipe[1]);

  // Drain both pipes together: reading one to the end first could deadlock on the other.
  pollfd fds[2] = {{outPipe[0], POLLIN, 0}, {errPipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&result.out, &result.err};
  int openPipes = 2;
  bool signalled = false;
  while (openPipes > 0) {
    const auto elapsed = std::chrono::steady_clock::now() - start;
    if (spec.signal && !signalled && elapsed >= spec.signalAfter) {
      kill(pid, *spec.signal);
      signalled = true;
    }
    if (elapsed > spec.killAfter) {
      kill(pid, SIGKILL);
      result.timedOut = true;
      break;
    }
    const int ready = poll(fds, 2, 20);
    if (ready < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buffer[4096];
      const ssize_t n = read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        sinks[i]->append(buffer, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --openPipes;
      }
    }
  }
  for (pollfd& fd : fds)
    if (fd.fd >= 0) close(fd.fd);

  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (WIFEXITED(status))
    result.exitCode = WEXITSTATUS(status);
  else if (WIFSIGNALED(status))
    result.signal = WTERMSIG(status);
  return result;
}

// Whether this machine has an NVIDIA GPU (nvidia-smi lists one): tests of the no-GPU paths of
// the real binary skip themselves on GPU machines.
inline bool gpuPresent() {
  static const bool present = [] {
    FILE* pipe = popen("nvidia-smi -L 2>/dev/null", "r");
    if (!pipe) return false;
    std::string output;
    char buffer[512];
    while (std::fgets(buffer, sizeof buffer, pipe)) output += buffer;
    pclose(pipe);
    return output.find("GPU ") != std::string::npos;
  }();
  return present;
}

}  // namespace nvbw::test
