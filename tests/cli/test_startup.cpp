// Runs the real nvbandwidth binary, and the GPU test binary, against a fake libcuda.so.1
// (tests/fakecuda) that fails in each of the ways a driver can at start-up: the toolkit's stub,
// no GPU, an absurd device count, a failed cuInit. Each must end in a clear "cannot start"
// message and exit status 1, never a crash, and the GPU tests must skip only where the machine
// simply has no GPU.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "run_binary.h"

namespace test_startup {

using nvbw::test::describe;
using nvbw::test::RunResult;
using nvbw::test::RunSpec;

// Runs `binary` with the driver looked up in `libraryDir` first, where the fake one fails as
// `mode` says (no FAKE_CUDA_MODE when `mode` is empty).
RunResult runWithDriverFrom(const std::string& libraryDir, const std::string& binary,
                            const std::string& mode, const std::vector<std::string>& args = {}) {
  RunSpec spec(binary, args);
  spec.env = {{"LD_LIBRARY_PATH", libraryDir}};
  if (mode.empty())
    spec.unsetEnv = {"FAKE_CUDA_MODE"};
  else
    spec.env.emplace_back("FAKE_CUDA_MODE", mode);
  return nvbw::test::runProgram(spec);
}

RunResult runWithFakeDriver(const std::string& binary, const std::string& mode,
                            const std::vector<std::string>& args = {}) {
  return runWithDriverFrom(NVBW_FAKE_CUDA_DIR, binary, mode, args);
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// A normal exit: not killed by a signal (a crash), not hung, no uncaught exception.
void expectCleanExit(const RunResult& run, int status) {
  EXPECT_FALSE(run.timedOut) << describe(run);
  EXPECT_EQ(run.signal, 0) << describe(run);
  EXPECT_EQ(run.exitCode, status) << describe(run);
  EXPECT_FALSE(contains(run.err, "terminate called")) << describe(run);
}

// The lines of `text` that start with `prefix`.
std::vector<std::string> linesStartingWith(const std::string& text, const std::string& prefix) {
  std::vector<std::string> lines;
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(begin, end - begin);
    if (line.rfind(prefix, 0) == 0) lines.push_back(line);
    begin = end + 1;
  }
  return lines;
}

// ---- the fake driver's failures ---------------------------------------------------------

struct FailureMode {
  std::string mode;                   // FAKE_CUDA_MODE
  std::vector<std::string> mentions;  // the reason must contain each of these
  std::vector<std::string> neverMentions;
  int gpuTestsExit;  // 77 (skip) where the machine simply has no GPU, else 1 (fail)
};

// A stub is not an old driver: suggesting an upgrade would send the user the wrong way. Only the
// stub cases may mention the stub, and no mode stops at the look-ups the fake satisfies.
const std::vector<FailureMode> kFailureModes = {
    {"stub", {"stub library", "CUDA_ERROR_STUB_LIBRARY"}, {"too old", "does not provide"}, 1},
    {"stub-init", {"stub library", "CUDA_ERROR_STUB_LIBRARY"}, {"too old", "does not provide"}, 1},
    {"no-device",
     {"CUDA_ERROR_NO_DEVICE", "GPU is visible"},
     {"too old", "does not provide", "stub"},
     77},
    {"zero", {"no CUDA-capable GPU is visible"}, {"too old", "does not provide", "stub"}, 77},
    {"negative",
     {"-5 GPUs", "cuDeviceGetCount"},
     {"too old", "does not provide", "stub", "1000000"},
     1},
    {"absurd",
     {"1000000 GPUs", "cuDeviceGetCount"},
     {"too old", "does not provide", "stub", "-5"},
     1},
    {"init-fails",
     {"cuInit failed", "CUDA_ERROR_UNKNOWN"},
     {"too old", "does not provide", "stub", "GPU is visible"},
     1},
};

// Test names and failure messages show the mode, not the bytes of the struct.
void PrintTo(const FailureMode& mode, std::ostream* os) { *os << mode.mode; }

void expectReason(const std::string& reason, const FailureMode& mode) {
  for (const std::string& word : mode.mentions)
    EXPECT_TRUE(contains(reason, word)) << "missing \"" << word << "\" in: " << reason;
  for (const std::string& word : mode.neverMentions)
    EXPECT_FALSE(contains(reason, word)) << "unexpected \"" << word << "\" in: " << reason;
}

// Parses the -j document and checks the keys that strict consumers (DCGM's plugin) read even when
// start-up failed. Returns the "nvbandwidth" object (null when the document is unusable).
nlohmann::json expectStartupFailureDocument(const RunResult& run) {
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(run.out);
  } catch (const nlohmann::json::exception& error) {
    ADD_FAILURE() << "not JSON: " << error.what() << "\n" << describe(run);
    return nullptr;
  }
  if (!document.is_object() || !document["nvbandwidth"].is_object()) {
    ADD_FAILURE() << "no \"nvbandwidth\" object: " << document.dump(1);
    return nullptr;
  }
  const nlohmann::json root = document["nvbandwidth"];
  EXPECT_TRUE(root.contains("CUDA Runtime Version") &&
              root["CUDA Runtime Version"].is_number_integer())
      << root.dump(1);
  EXPECT_TRUE(root.contains("Driver Version") && root["Driver Version"].is_string())
      << root.dump(1);
  EXPECT_TRUE(root.contains("git_version") && root["git_version"].is_string()) << root.dump(1);
  EXPECT_TRUE(root.contains("testcases") && root["testcases"].is_array()) << root.dump(1);
  // Nothing ran, so nothing may be reported as having run.
  if (root.contains("testcases") && root["testcases"].is_array()) {
    EXPECT_TRUE(root["testcases"].empty()) << root.dump(1);
  }
  EXPECT_TRUE(root.contains("error") && root["error"].is_string()) << root.dump(1);
  return root;
}

class StartupFailure : public ::testing::TestWithParam<FailureMode> {};

TEST_P(StartupFailure, TextModeSaysWhyOnStderrAndExitsOne) {
  const FailureMode& mode = GetParam();
  const RunResult run = runWithFakeDriver(NVBW_BINARY, mode.mode);
  expectCleanExit(run, 1);
  const std::vector<std::string> errors = linesStartingWith(run.err, "ERROR: cannot start: ");
  ASSERT_EQ(errors.size(), 1u) << describe(run);
  expectReason(errors[0], mode);
  // The reason belongs on stderr only: stdout stays for the report.
  EXPECT_FALSE(contains(run.out, "cannot start")) << describe(run);
}

TEST_P(StartupFailure, JsonModeReportsTheErrorInTheDocumentAndExitsOne) {
  const FailureMode& mode = GetParam();
  const RunResult run = runWithFakeDriver(NVBW_BINARY, mode.mode, {"-j"});
  expectCleanExit(run, 1);
  const nlohmann::json root = expectStartupFailureDocument(run);
  if (root.is_null() || !root["error"].is_string()) return;
  const std::string error = root["error"].get<std::string>();
  EXPECT_EQ(error.rfind("cannot start: ", 0), 0u) << error;
  expectReason(error, mode);
}

// gpu_main.cpp: skip (77) where the machine has no GPU, fail (1) where the driver is broken, so a
// CI machine with a stub or a sick driver does not report the GPU tests as merely skipped.
TEST_P(StartupFailure, GpuTestsSkipOnlyWithoutAGpu) {
  const FailureMode& mode = GetParam();
  const RunResult run = runWithFakeDriver(NVBW_GPU_TEST_BINARY, mode.mode);
  expectCleanExit(run, mode.gpuTestsExit);
  const std::string expected = mode.gpuTestsExit == 77 ? "SKIPPED: " : "FAILED: ";
  const std::vector<std::string> lines = linesStartingWith(run.out, expected);
  ASSERT_EQ(lines.size(), 1u) << describe(run);
  expectReason(lines[0], mode);
}

INSTANTIATE_TEST_SUITE_P(FakeDriver, StartupFailure, ::testing::ValuesIn(kFailureModes),
                         [](const ::testing::TestParamInfo<FailureMode>& info) {
                           std::string name;
                           for (char c : info.param.mode) name += c == '-' ? '_' : c;
                           return name;
                         });

// ---- no driver at all -------------------------------------------------------------------

// An empty directory for LD_LIBRARY_PATH, removed when the test ends.
class StartupWithoutDriver : public ::testing::Test {
 protected:
  void SetUp() override {
    // A driver installed on this machine would still be found through the loader's cache.
    if (void* handle = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL)) {
      dlclose(handle);
      GTEST_SKIP() << "this machine has a libcuda.so.1 the loader finds without LD_LIBRARY_PATH";
    }
    char pattern[] = "/tmp/nvbw-no-driver-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr) << std::strerror(errno);
    emptyDir_ = pattern;
  }
  void TearDown() override {
    if (!emptyDir_.empty()) rmdir(emptyDir_.c_str());
  }
  RunResult run(const std::string& binary, const std::vector<std::string>& args = {}) {
    return runWithDriverFrom(emptyDir_, binary, "", args);
  }

  std::string emptyDir_;
};

TEST_F(StartupWithoutDriver, TextModeSaysTheDriverIsMissing) {
  const RunResult result = run(NVBW_BINARY);
  expectCleanExit(result, 1);
  const std::vector<std::string> errors = linesStartingWith(result.err, "ERROR: cannot start: ");
  ASSERT_EQ(errors.size(), 1u) << describe(result);
  EXPECT_TRUE(contains(errors[0], "not installed or not loadable")) << errors[0];
  EXPECT_FALSE(contains(errors[0], "stub")) << errors[0];
}

TEST_F(StartupWithoutDriver, JsonModeSaysTheDriverIsMissing) {
  const RunResult result = run(NVBW_BINARY, {"-j"});
  expectCleanExit(result, 1);
  const nlohmann::json root = expectStartupFailureDocument(result);
  if (root.is_null() || !root["error"].is_string()) return;
  const std::string error = root["error"].get<std::string>();
  EXPECT_EQ(error.rfind("cannot start: ", 0), 0u) << error;
  EXPECT_TRUE(contains(error, "not installed or not loadable")) << error;
}

TEST_F(StartupWithoutDriver, GpuTestsSkip) {
  const RunResult result = run(NVBW_GPU_TEST_BINARY);
  expectCleanExit(result, 77);
  EXPECT_EQ(linesStartingWith(result.out, "SKIPPED: ").size(), 1u) << describe(result);
}

}  // namespace test_startup
