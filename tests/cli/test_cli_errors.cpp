// A driver call that fails on the user's behalf, on the fake platform (its NVBW_FAKE_* driver
// failures go through the code a real run reports them with): the line the user reads says what
// was asked, what there is and what to do, with the driver's error name; the call as the source
// writes it is JSON's error_detail and -v's Detail line, never the message; stdout keeps
// upstream's lines only; the next testcase still runs.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "run_binary.h"
#include "text_search.h"

namespace test_cli_errors {

using nlohmann::json;
using nvbw::test::describe;
using nvbw::test::RunResult;
using nvbw::test::RunSpec;
using Args = std::vector<std::string>;
using Env = std::vector<std::pair<std::string, std::string>>;

RunResult fake(const Args& args, const Env& env, const std::string& shellPrefix = "") {
  RunSpec spec(NVBW_FAKE_BINARY, args);
  if (!shellPrefix.empty()) {
    // `ulimit -l` (the locked-memory limit) for the fake alone: through a shell.
    std::string command = shellPrefix + "; exec \"$0\"";
    for (std::size_t i = 0; i < args.size(); ++i)
      command += " \"${" + std::to_string(i + 1) + "}\"";
    spec = RunSpec("/bin/sh", {"-c", command, NVBW_FAKE_BINARY});
    spec.args.insert(spec.args.end(), args.begin(), args.end());
  }
  spec.env = env;
  spec.unsetEnv.push_back("NVBANDWIDTH_COMPAT");
  spec.killAfter = std::chrono::seconds(60);
  return nvbw::test::runProgram(spec);
}

// The ERROR line of `key` on stderr ("" when there is none).
std::string errorLine(const RunResult& run, const std::string& key) {
  const std::string start = "ERROR: Testcase " + key + " failed: ";
  const std::size_t at = run.err.find(start);
  if (at == std::string::npos) return "";
  return run.err.substr(at, run.err.find('\n', at) - at);
}

// Nothing of the developer's on the line the user reads.
void expectNoSourceTerms(const std::string& line) {
  EXPECT_EQ(line.find(".cpp"), std::string::npos) << line;
  EXPECT_EQ(line.find("&ptr"), std::string::npos) << line;
  EXPECT_EQ(line.find(" at src/"), std::string::npos) << line;
}

Args with(Args args, const Args& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

json entryOf(const RunResult& run, const std::string& key) {
  const json doc = json::parse(run.out);
  for (const json& t : doc["nvbandwidth"]["testcases"])
    if (t["name"] == key) return t;
  return json();
}

// The acceptance case on a 141 GiB GPU: two buffers of 90000 MiB do not fit; a single one does.
TEST(DriverErrors, AnAllocationSaysWhatWasAskedWhatThereIsAndTheOption) {
  const Env env = {{"NVBW_FAKE_GPUS", "1"}, {"NVBW_FAKE_GPU_MEMORY_MIB", "143771"}};
  const Args args = {"-b", "90000", "-t", "device_local_copy", "device_local_read_sm"};
  const RunResult run = fake(args, env);
  EXPECT_EQ(run.exitCode, 1) << describe(run);
  const std::string line = errorLine(run, "device_local_copy");
  EXPECT_EQ(line, "ERROR: Testcase device_local_copy failed: GPU 0 cannot hold this testcase's 2 "
                  "buffers of 90000 MiB (180000 MiB in all): it has 143771 MiB, 143771 MiB of it "
                  "free (cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (out of memory)); buffers of at most "
                  "about 71885 MiB would fit: --bufferSize (-b) sets their size in MiB")
      << describe(run);
  expectNoSourceTerms(line);
  // The second testcase runs; stdout is the two Running lines and the second's matrix.
  EXPECT_NE(run.out.find("Running device_local_copy.\nRunning device_local_read_sm.\n"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("SUM device_local_read_sm "), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("ERROR"), std::string::npos) << run.out;
  EXPECT_EQ(run.err.find("Detail: "), std::string::npos) << run.err;

  const RunResult verbose = fake(with({"-v"}, args), env);
  EXPECT_NE(verbose.err.find(line + "\nDetail: cuMemAlloc(&ptr, bytes) in the fake driver\n"),
            std::string::npos)
      << verbose.err;

  const RunResult doc = fake(with({"-j"}, args), env);
  const json entry = entryOf(doc, "device_local_copy");
  EXPECT_EQ(entry["status"], "ERROR");
  EXPECT_EQ("ERROR: " + entry["error"].get<std::string>(), line);
  EXPECT_EQ(entry["error_detail"], "cuMemAlloc(&ptr, bytes) in the fake driver");
  EXPECT_EQ(entryOf(doc, "device_local_read_sm")["status"], "Passed");
}

TEST(DriverErrors, PinningSaysHowMuchTheHostsMemoryAndTheLockedMemoryLimit) {
  const Env env = {{"NVBW_FAKE_GPUS", "1"}, {"NVBW_FAKE_PIN_FAIL", "1"}};
  const RunResult run = fake({"-t", "0", "device_local_copy"}, env, "ulimit -l 64");
  EXPECT_EQ(run.exitCode, 1) << describe(run);
  const std::string line = errorLine(run, "host_to_device_memcpy_ce");
  EXPECT_EQ(line.rfind("ERROR: Testcase host_to_device_memcpy_ce failed: cannot pin this "
                       "testcase's host buffer of 512 MiB for GPU 0: the host has ",
                       0),
            0u)
      << describe(run);
  EXPECT_NE(line.find(" (cuMemHostRegister: CUDA_ERROR_OUT_OF_MEMORY (out of memory)); this "
                      "process may lock only 64 KiB of memory (ulimit -l), which may be why: "
                      "raise it (ulimit -l unlimited, or --ulimit memlock=-1 for a container); "
                      "--bufferSize (-b) sets their size in MiB"),
            std::string::npos)
      << line;
  expectNoSourceTerms(line);
  EXPECT_NE(run.out.find("SUM device_local_copy "), std::string::npos) << run.out;
  // Unlimited: not named (only where this user may raise the limit; CI runs as root).
  const RunResult unlimited = fake({"-t", "0"}, env, "ulimit -l unlimited 2>/dev/null || exit 77");
  if (unlimited.exitCode == 77) return;
  EXPECT_EQ(unlimited.exitCode, 1) << describe(unlimited);
  EXPECT_NE(errorLine(unlimited, "host_to_device_memcpy_ce"), "");
  EXPECT_EQ(errorLine(unlimited, "host_to_device_memcpy_ce").find("ulimit"), std::string::npos);
}

TEST(DriverErrors, PeerAccessNamesBothGpusAndTheError) {
  const Env env = {{"NVBW_FAKE_GPUS", "2"}, {"NVBW_FAKE_PEER_FAIL", "1-0"}};
  const RunResult run = fake({"-t", "4", "0"}, env);
  EXPECT_EQ(run.exitCode, 1) << describe(run);
  const std::string line = errorLine(run, "device_to_device_memcpy_read_ce");
  EXPECT_EQ(line, "ERROR: Testcase device_to_device_memcpy_read_ce failed: cannot enable peer "
                  "access from GPU 1 to GPU 0 (cuCtxEnablePeerAccess: "
                  "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED (peer access is not supported between "
                  "these two devices)): the driver does not allow access between these GPUs "
                  "(nvidia-smi topo -p2p r shows the pairs it allows)")
      << describe(run);
  EXPECT_NE(run.out.find("SUM host_to_device_memcpy_ce "), std::string::npos) << run.out;
  const RunResult doc = fake({"-j", "-t", "4"}, env);
  EXPECT_EQ(entryOf(doc, "device_to_device_memcpy_read_ce")["error_detail"],
            "cuCtxEnablePeerAccess(context(0), 0) in the fake driver");
}

TEST(DriverErrors, AKernelLaunchNamesTheKernelsPartTheGpuAndHowToBuildForIt) {
  const Env env = {{"NVBW_FAKE_GPUS", "1"},
                   {"NVBW_FAKE_CC", "0:80"},
                   {"NVBW_FAKE_LAUNCH_FAIL", "cudaErrorNoKernelImageForDevice"}};
  const RunResult run = fake({"-t", "host_to_device_memcpy_sm", "0"}, env);
  EXPECT_EQ(run.exitCode, 1) << describe(run);
  const std::string line = errorLine(run, "host_to_device_memcpy_sm");
  EXPECT_EQ(line, "ERROR: Testcase host_to_device_memcpy_sm failed: the SM copy kernel could not "
                  "start on GPU 0 (compute capability 8.0): cudaErrorNoKernelImageForDevice (no "
                  "kernel image is available for execution on the device): this build has no GPU "
                  "code that GPU 0 can run (it has code for compute capability 9.0); build it "
                  "with -DCMAKE_CUDA_ARCHITECTURES=80, or without -DCMAKE_CUDA_ARCHITECTURES for "
                  "every architecture the toolkit supports")
      << describe(run);
  EXPECT_NE(run.out.find("SUM host_to_device_memcpy_ce "), std::string::npos) << run.out;
  const RunResult doc = fake({"-j", "-t", "host_to_device_memcpy_sm"}, env);
  EXPECT_EQ(entryOf(doc, "host_to_device_memcpy_sm")["error_detail"],
            "cudaGetLastError() after launching stridingCopyKernel in the fake driver");
}

// A sweep's sizes come from --sweep, which its message names (-b cannot be used with it).
TEST(DriverErrors, ASweepsAllocationNamesSweep) {
  const Env env = {{"NVBW_FAKE_GPUS", "1"}, {"NVBW_FAKE_GPU_MEMORY_MIB", "3"}};
  const RunResult run = fake({"--sweep", "1:4", "-t", "device_local_copy"}, env);
  EXPECT_EQ(run.exitCode, 1) << describe(run);
  EXPECT_NE(run.err.find("--sweep sets their sizes in MiB (buffer size 4 MiB)\n"),
            std::string::npos)
      << run.err;
  EXPECT_EQ(run.out.find("ERROR: "), std::string::npos) << run.out;
}

}  // namespace test_cli_errors
