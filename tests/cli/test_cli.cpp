// Runs the real nvbandwidth binary and checks what it prints and how it exits: the contract main
// keeps for scripts (help, list, usage errors, and the no-driver path).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "upstream_keys.h"

namespace {

// The 35 single-node keys in upstream's registry order (index = position).
using nvbw::test::kUpstreamKeys;

struct RunResult {
  int exitCode = -1;  // -1 when the process did not exit normally
  int signal = 0;
  bool timedOut = false;
  double seconds = 0;
  std::string out;
  std::string err;
};

// A hung binary must fail its test, not the whole suite.
constexpr auto kKillAfter = std::chrono::seconds(20);

RunResult runBinary(const std::vector<std::string>& args) {
  RunResult result;
  int outPipe[2];
  int errPipe[2];
  if (pipe(outPipe) != 0 || pipe(errPipe) != 0) {
    ADD_FAILURE() << "pipe: " << std::strerror(errno);
    return result;
  }
  std::vector<char*> argv;
  std::string binary = NVBW_BINARY;
  argv.push_back(binary.data());
  std::vector<std::string> copies(args);
  for (std::string& arg : copies) argv.push_back(arg.data());
  argv.push_back(nullptr);

  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid < 0) {
    ADD_FAILURE() << "fork: " << std::strerror(errno);
    return result;
  }
  if (pid == 0) {
    dup2(outPipe[1], STDOUT_FILENO);
    dup2(errPipe[1], STDERR_FILENO);
    close(outPipe[0]);
    close(outPipe[1]);
    close(errPipe[0]);
    close(errPipe[1]);
    const int devNull = open("/dev/null", O_RDONLY);
    if (devNull >= 0) dup2(devNull, STDIN_FILENO);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(outPipe[1]);
  close(errPipe[1]);

  // Drain both pipes together: reading one to the end first could deadlock on the other.
  pollfd fds[2] = {{outPipe[0], POLLIN, 0}, {errPipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&result.out, &result.err};
  int openPipes = 2;
  while (openPipes > 0) {
    const auto elapsed = std::chrono::steady_clock::now() - start;
    if (elapsed > kKillAfter) {
      kill(pid, SIGKILL);
      result.timedOut = true;
      break;
    }
    const int ready = poll(fds, 2, 100);
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

std::string describe(const RunResult& run) {
  return "exit " + std::to_string(run.exitCode) + " signal " + std::to_string(run.signal) +
         (run.timedOut ? " (timed out)" : "") + "\n--- stdout ---\n" + run.out +
         "\n--- stderr ---\n" + run.err;
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

bool gpuPresent() {
  static const bool present = [] {
    FILE* pipe = popen("nvidia-smi -L 2>/dev/null", "r");
    if (!pipe) return false;
    std::string output;
    char buffer[512];
    while (std::fgets(buffer, sizeof buffer, pipe)) output += buffer;
    pclose(pipe);
    return contains(output, "GPU ");
  }();
  return present;
}

// ---- help ---------------------------------------------------------------------------------

void expectHelp(const RunResult& run) {
  EXPECT_EQ(run.exitCode, 0) << describe(run);
  EXPECT_EQ(run.out.rfind("nvbandwidth Version: v0.8\nBuilt from Git version: ", 0), 0u)
      << describe(run);
  EXPECT_TRUE(contains(run.out, "nvbandwidth CLI:")) << describe(run);
  EXPECT_TRUE(contains(run.out, "--bufferSize")) << describe(run);
  EXPECT_EQ(run.err, "");
}

TEST(Cli, ShortHelp) { expectHelp(runBinary({"-h"})); }

TEST(Cli, LongHelp) { expectHelp(runBinary({"--help"})); }

TEST(Cli, HelpInJsonModeIsTheSameHelp) {
  const RunResult plain = runBinary({"-h"});
  const RunResult json = runBinary({"-j", "-h"});
  expectHelp(json);
  EXPECT_EQ(json.out, plain.out);
}

TEST(Cli, HelpIgnoresValuesThatOnlyMatterWhenRunning) { expectHelp(runBinary({"-h", "-b", "0"})); }

// ---- list ---------------------------------------------------------------------------------

TEST(Cli, ListsEveryTestcaseInOrder) {
  const RunResult run = runBinary({"-l"});
  ASSERT_EQ(run.exitCode, 0) << describe(run);
  EXPECT_EQ(run.err, "");
  const std::string header = "Index, Name:\n\tDescription\n=======================\n";
  std::size_t position = run.out.find(header);
  ASSERT_NE(position, std::string::npos) << describe(run);
  for (std::size_t i = 0; i < kUpstreamKeys.size(); ++i) {
    const std::string entry = std::to_string(i) + ", " + kUpstreamKeys[i] + ":\n";
    const std::size_t found = run.out.find(entry, position);
    ASSERT_NE(found, std::string::npos) << "missing or out of order: " << entry << describe(run);
    position = found + entry.size();
  }
  EXPECT_FALSE(contains(run.out, std::to_string(kUpstreamKeys.size()) + ", ")) << describe(run);
}

TEST(Cli, JsonListIsAJsonDocument) {
  const RunResult run = runBinary({"-j", "-l"});
  ASSERT_EQ(run.exitCode, 0) << describe(run);
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(run.out);
  } catch (const nlohmann::json::exception& error) {
    FAIL() << "not JSON: " << error.what() << "\n" << describe(run);
  }
  const nlohmann::json& testcases = document["nvbandwidth"]["testcases"];
  ASSERT_TRUE(testcases.is_array()) << document.dump(1);
  ASSERT_EQ(testcases.size(), kUpstreamKeys.size());
  for (std::size_t i = 0; i < kUpstreamKeys.size(); ++i) {
    const nlohmann::json& entry = testcases[i];
    ASSERT_TRUE(entry.is_object()) << entry.dump();
    ASSERT_TRUE(entry["index"].is_number_integer()) << entry.dump();
    EXPECT_EQ(entry["index"].get<long long>(), static_cast<long long>(i));
    ASSERT_TRUE(entry["name"].is_string()) << entry.dump();
    EXPECT_EQ(entry["name"].get<std::string>(), kUpstreamKeys[i]);
    ASSERT_TRUE(entry["description"].is_string()) << entry.dump();
    EXPECT_FALSE(entry["description"].get<std::string>().empty()) << entry.dump();
  }
}

// ---- usage errors -------------------------------------------------------------------------

std::size_t lineCount(const std::string& text) {
  std::size_t lines = 0;
  for (char c : text) lines += c == '\n';
  if (!text.empty() && text.back() != '\n') ++lines;
  return lines;
}

class CliUsageError : public ::testing::TestWithParam<std::vector<std::string>> {};

TEST_P(CliUsageError, ExitsTwoWithAShortMessageOnStderr) {
  const RunResult run = runBinary(GetParam());
  EXPECT_EQ(run.exitCode, 2) << describe(run);
  EXPECT_EQ(run.out, "") << describe(run);
  EXPECT_FALSE(run.err.empty()) << describe(run);
  EXPECT_LE(lineCount(run.err), 3u) << describe(run);
  EXPECT_EQ(run.err.rfind("nvbandwidth: ", 0), 0u) << describe(run);
  EXPECT_FALSE(contains(run.err, "terminate called")) << describe(run);
  EXPECT_FALSE(contains(run.err, "CUDA")) << describe(run);
  EXPECT_LT(run.seconds, 2.0) << describe(run);
}

INSTANTIATE_TEST_SUITE_P(
    BadArguments, CliUsageError,
    ::testing::Values(std::vector<std::string>{"-b", "0"}, std::vector<std::string>{"-b", "abc"},
                      std::vector<std::string>{"-b", "-1"}, std::vector<std::string>{"-i", "0"},
                      std::vector<std::string>{"--loopCount", "0"},
                      std::vector<std::string>{"-t", "0", "-p", "host"},
                      std::vector<std::string>{"foo"}, std::vector<std::string>{"-x"},
                      std::vector<std::string>{"--bogus"}, std::vector<std::string>{"-b"},
                      std::vector<std::string>{"-v", "-v"}),
    [](const ::testing::TestParamInfo<std::vector<std::string>>& info) {
      // gtest names allow only [A-Za-z0-9_]; the index keeps them unique.
      std::string name = "args" + std::to_string(info.index);
      for (const std::string& arg : info.param) {
        name += '_';
        for (char c : arg)
          if (std::isalnum(static_cast<unsigned char>(c))) name += c;
      }
      return name;
    });

// ---- no driver ----------------------------------------------------------------------------

TEST(Cli, WithoutAGpuARunFailsQuickly) {
  if (gpuPresent()) GTEST_SKIP() << "a GPU is present";
  const RunResult run = runBinary({"-t", "0"});
  EXPECT_EQ(run.exitCode, 1) << describe(run);
  EXPECT_LT(run.seconds, 2.0) << describe(run);
  EXPECT_TRUE(contains(run.err, "ERROR:")) << describe(run);
  EXPECT_FALSE(contains(run.err, "terminate called")) << describe(run);
}

TEST(Cli, WithoutAGpuJsonReportsTheError) {
  if (gpuPresent()) GTEST_SKIP() << "a GPU is present";
  const RunResult run = runBinary({"-j", "-t", "0"});
  EXPECT_EQ(run.exitCode, 1) << describe(run);
  EXPECT_LT(run.seconds, 2.0) << describe(run);
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(run.out);
  } catch (const nlohmann::json::exception& error) {
    FAIL() << "not JSON: " << error.what() << "\n" << describe(run);
  }
  const nlohmann::json& error = document["nvbandwidth"]["error"];
  ASSERT_TRUE(error.is_string()) << document.dump(1);
  EXPECT_FALSE(error.get<std::string>().empty());
}

}  // namespace
