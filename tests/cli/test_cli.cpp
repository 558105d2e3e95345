// Runs the real nvbandwidth binary and checks what it prints and how it exits: the contract main
// keeps for scripts (help, list, usage errors, and the no-driver path).
#include <gtest/gtest.h>

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run_binary.h"
#include "upstream_keys.h"

namespace test_cli {

// The 35 single-node keys in upstream's registry order (index = position).
using nvbw::test::kUpstreamKeys;

using nvbw::test::describe;
using nvbw::test::gpuPresent;
using nvbw::test::RunResult;

RunResult runBinary(const std::vector<std::string>& args) {
  return nvbw::test::runProgram(nvbw::test::RunSpec(NVBW_BINARY, args));
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
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
  std::vector<std::pair<std::size_t, std::string>> expected;
  for (std::size_t i = 0; i < kUpstreamKeys.size(); ++i) expected.emplace_back(i, kUpstreamKeys[i]);
  for (std::size_t i = 0; i < nvbw::test::kV010Keys.size(); ++i)
    expected.emplace_back(nvbw::test::kFirstV010Index + i, nvbw::test::kV010Keys[i]);
  for (const auto& [index, key] : expected) {
    const std::string entry = std::to_string(index) + ", " + key + ":\n";
    const std::size_t found = run.out.find(entry, position);
    ASSERT_NE(found, std::string::npos) << "missing or out of order: " << entry << describe(run);
    position = found + entry.size();
  }
  // The multinode indices belong to the multinode build.
  EXPECT_FALSE(contains(run.out, "\n35, ")) << describe(run);
  EXPECT_FALSE(contains(run.out, "\n47, ")) << describe(run);
}

// -l and --version print what they print, in the format and interface asked for; any other
// option is one they cannot honour, a usage error as in every other mode (no file is written).
TEST(Cli, ListingAndVersionRefuseWhatTheyCannotHonour) {
  for (const std::vector<std::string>& ok :
       std::vector<std::vector<std::string>>{{"-l", "-j"},
                                             {"-l", "--compat", "v0.10"},
                                             {"--version", "--format", "json"},
                                             {"-l", "-h"}})
    EXPECT_EQ(runBinary(ok).exitCode, 0) << ok[1];
  const std::vector<std::pair<std::vector<std::string>, std::string>> refused = {
      {{"-l", "--output", "l.json"}, "--output has nothing to do where -l/--list prints"},
      {{"-l", "--html", "l.html"}, "--html has nothing to do where -l/--list prints"},
      {{"--version", "--metrics", "m.prom"}, "--metrics has nothing to do where --version prints"},
      {{"-l", "-b", "0"}, "-b/--bufferSize has nothing to do where -l/--list prints"},
      {{"--version", "-t", "0"}, "-t/--testcase has nothing to do where --version prints"}};
  for (const auto& [args, message] : refused) {
    const RunResult run = runBinary(args);
    EXPECT_EQ(run.exitCode, 2) << describe(run);
    EXPECT_EQ(run.out, "");
    EXPECT_NE(run.err.find("nvbandwidth: " + message), std::string::npos) << run.err;
  }
  EXPECT_FALSE(std::filesystem::exists("l.json"));
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
  std::vector<std::string> keys = kUpstreamKeys;
  keys.insert(keys.end(), nvbw::test::kV010Keys.begin(), nvbw::test::kV010Keys.end());
  // Upstream's first, in its order; testcases of this tool's own would follow.
  ASSERT_GE(testcases.size(), keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const std::size_t index =
        i < kUpstreamKeys.size() ? i : nvbw::test::kFirstV010Index + i - kUpstreamKeys.size();
    const nlohmann::json& entry = testcases[i];
    ASSERT_TRUE(entry.is_object()) << entry.dump();
    ASSERT_TRUE(entry["index"].is_number_integer()) << entry.dump();
    EXPECT_EQ(entry["index"].get<long long>(), static_cast<long long>(index));
    ASSERT_TRUE(entry["name"].is_string()) << entry.dump();
    EXPECT_EQ(entry["name"].get<std::string>(), keys[i]);
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
  EXPECT_EQ(lineCount(run.err), 1u) << describe(run);  // docs/options.md promises one line
  EXPECT_EQ(run.err.rfind("nvbandwidth: ", 0), 0u) << describe(run);
  EXPECT_TRUE(contains(run.err, "(see nvbandwidth --help)\n")) << describe(run);
  EXPECT_LT(run.err.size(), 400u) << describe(run);
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
                      std::vector<std::string>{"-v", "-v"},
                      std::vector<std::string>{"-b", "12\n34"},
                      std::vector<std::string>{"--\x1b[31mred\n", "x"},
                      std::vector<std::string>{"-i", std::string(100000, '7')},
                      std::vector<std::string>{std::string(100000, 'z')}),
    [](const ::testing::TestParamInfo<std::vector<std::string>>& info) {
      // gtest names allow only [A-Za-z0-9_]; the index keeps them unique.
      std::string name = "args" + std::to_string(info.index);
      for (const std::string& arg : info.param) {
        name += '_';
        for (char c : arg.substr(0, 12))
          if (std::isalnum(static_cast<unsigned char>(c))) name += c;
      }
      return name;
    });

TEST(Cli, UsageErrorsShowHostileValuesEscapedAndShortened) {
  const RunResult newline = runBinary({"-b", "12\n34"});
  EXPECT_EQ(newline.err,
            "nvbandwidth: invalid value '12\\n34' for --bufferSize: expected a whole number of "
            "MiB (see nvbandwidth --help)\n");
  const RunResult huge = runBinary({std::string(100000, 'z')});
  EXPECT_EQ(huge.err, "nvbandwidth: unexpected argument '" + std::string(64, 'z') +
                          "... (100000 bytes)' (see nvbandwidth --help)\n");
}

// ---- write errors -------------------------------------------------------------------------

TEST(Cli, AFullDiskOnStdoutIsReportedWithExitOne) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"-l"}, {"-h"}, {"-j", "-l"}}) {
    nvbw::test::RunSpec spec(NVBW_BINARY, args);
    spec.stdoutMode = nvbw::test::StdoutMode::DevFull;
    const RunResult run = nvbw::test::runProgram(spec);
    EXPECT_EQ(run.exitCode, 1) << describe(run);
    EXPECT_EQ(run.err, "nvbandwidth: cannot write to standard output: No space left on device\n")
        << describe(run);
  }
}

TEST(Cli, AClosedStdoutIsReportedWithExitOne) {
  nvbw::test::RunSpec spec(NVBW_BINARY, {"-l"});
  spec.stdoutMode = nvbw::test::StdoutMode::Closed;
  const RunResult run = nvbw::test::runProgram(spec);
  EXPECT_EQ(run.exitCode, 1) << describe(run);
  EXPECT_EQ(run.err, "nvbandwidth: cannot write to standard output: Bad file descriptor\n");
}

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

}  // namespace test_cli
