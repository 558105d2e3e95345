// --format and --compat on the real binary and on the fake-platform build (issue 18): `--format
// json` wherever -j works, `--format text` as no option, and upstream v0.10's interface (its
// listing, indices, header and COEFFICIENT_OF_VARIATION lines) from the option or from
// NVBANDWIDTH_COMPAT.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "run_binary.h"
#include "temp_file.h"
#include "text_search.h"
#include "upstream_keys.h"

namespace test_cli_interface {

using nlohmann::json;
using nvbw::test::countOf;
using nvbw::test::describe;
using nvbw::test::RunResult;
using nvbw::test::RunSpec;
using Args = std::vector<std::string>;
using Env = std::vector<std::pair<std::string, std::string>>;

const std::string kFleet = std::string(NVBW_GOLDEN_DIR) + "/fleet/";

RunResult run(const std::string& binary, const Args& args, const Env& env = {}) {
  RunSpec spec(binary, args);
  spec.env = env;
  spec.env.emplace_back("NVBW_FAKE_GPUS", "2");
  // The tests choose the interface themselves; the caller's environment must not.
  bool setsCompat = false;
  for (const auto& [name, value] : env) setsCompat = setsCompat || name == "NVBANDWIDTH_COMPAT";
  if (!setsCompat) spec.unsetEnv.push_back("NVBANDWIDTH_COMPAT");
  spec.killAfter = std::chrono::seconds(60);
  return nvbw::test::runProgram(spec);
}

RunResult real(const Args& args, const Env& env = {}) { return run(NVBW_BINARY, args, env); }
RunResult fake(const Args& args, const Env& env = {}) { return run(NVBW_FAKE_BINARY, args, env); }

Args with(Args args, const Args& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// A report without what differs from run to run (where the time went, and the second it began:
// two runs under load may start in different seconds).
json stable(const std::string& text) {
  json doc = json::parse(text);
  if (doc.contains("nvbandwidth") && doc["nvbandwidth"].is_object())
    for (const char* varying : {"timing", "started_at"}) doc["nvbandwidth"].erase(varying);
  return doc;
}

// ---- --format json is -j, everywhere ------------------------------------------------------------

struct Command {
  const char* name;
  bool onFake;  // a run needs the fake platform; the commands without a GPU use the real binary
  Args args;
};

std::vector<Command> commandsTakingJ() {
  return {
      {"list", false, {"-l"}},
      {"help", false, {"-h"}},
      {"version", false, {"--version"}},
      {"compare", false, {"--compare", kFleet + "fake_base.json", kFleet + "fake_slower.json"}},
      {"run", true, {"-t", "0", "4", "6", "33", "-i", "2"}},
      {"verbose run", true, {"-v", "-t", "0", "-i", "2"}},
      {"sweep", true, {"--sweep", "1:4", "-t", "0"}},
      {"baseline", true, {"--baseline", kFleet + "fake_base.json", "-t", "0"}},
      {"unknown testcase", true, {"-t", "no_such_testcase"}},
      {"v0.10 run", true, {"--compat", "v0.10", "-t", "34", "-i", "2"}},
      {"v0.10 list", false, {"--compat", "v0.10", "-l"}},
  };
}

TEST(FormatOption, JsonGivesWhatDashJGives) {
  for (const Command& c : commandsTakingJ()) {
    SCOPED_TRACE(c.name);
    const auto go = [&c](const Args& args) { return c.onFake ? fake(args) : real(args); };
    const RunResult j = go(with({"-j"}, c.args));
    const RunResult format = go(with({"--format", "json"}, c.args));
    const RunResult equals = go(with(c.args, {"--format=json"}));
    EXPECT_EQ(format.exitCode, j.exitCode) << describe(format);
    EXPECT_EQ(equals.exitCode, j.exitCode) << describe(equals);
    EXPECT_EQ(format.err, j.err);
    if (c.args[0] == "-h" || c.args[0] == "--version") {
      EXPECT_EQ(format.out, j.out);  // the same text in every mode
      EXPECT_EQ(equals.out, j.out);
      continue;
    }
    EXPECT_EQ(stable(format.out), stable(j.out)) << describe(format);
    EXPECT_EQ(stable(equals.out), stable(j.out)) << describe(equals);
  }
}

TEST(FormatOption, JsonWithoutAGpuIsTheStartupErrorDocument) {
  if (nvbw::test::gpuPresent()) GTEST_SKIP() << "a GPU is present";
  const RunResult j = real({"-j", "-t", "0"});
  const RunResult format = real({"--format", "json", "-t", "0"});
  EXPECT_EQ(format.exitCode, 1) << describe(format);
  EXPECT_EQ(stable(format.out), stable(j.out));
}

TEST(FormatOption, JsonWritesTheSameHtmlPage) {
  const nvbw::test::TempFile a("fmt_a");
  const nvbw::test::TempFile b("fmt_b");
  const RunResult j = real({"-j", "--html", a.path(), "--from", kFleet + "fake_base.json"});
  const RunResult format =
      real({"--format", "json", "--html", b.path(), "--from", kFleet + "fake_base.json"});
  EXPECT_EQ(format.exitCode, 0) << describe(format);
  EXPECT_EQ(format.out, j.out);
  EXPECT_EQ(b.read(), a.read());
}

TEST(FormatOption, TextIsTheDefault) {
  for (const Command& c : commandsTakingJ()) {
    SCOPED_TRACE(c.name);
    if (c.args[0] == "--baseline" || c.args[0] == "--sweep") continue;  // timing in the text
    const auto go = [&c](const Args& args) { return c.onFake ? fake(args) : real(args); };
    const RunResult plain = go(c.args);
    const RunResult text = go(with({"--format", "text"}, c.args));
    EXPECT_EQ(text.exitCode, plain.exitCode) << describe(text);
    EXPECT_EQ(text.out, plain.out);
    EXPECT_EQ(text.err, plain.err);
  }
}

// v0.10's documentation lists `-F, --format text|json|perf`: -F is --format, and perf is
// --perfFormatter's text.
TEST(FormatOption, DashFAndPerfAreV010sSpellings) {
  const Args run = {"-t", "0", "4", "33", "-i", "2"};
  const RunResult perfFormatter = fake(with({"--perfFormatter"}, run));
  ASSERT_EQ(perfFormatter.exitCode, 0) << describe(perfFormatter);
  ASSERT_NE(perfFormatter.out.find("&&&& PERF host_to_device_memcpy_ce "), std::string::npos);
  for (const Args& spelling :
       {Args{"--format", "perf"}, Args{"-F", "perf"}, Args{"--format=perf"}, Args{"-Fperf"}}) {
    const RunResult perf = fake(with(spelling, run));
    EXPECT_EQ(perf.exitCode, 0) << describe(perf);
    EXPECT_EQ(perf.out, perfFormatter.out) << spelling[0];
  }
  const RunResult j = fake(with({"-j"}, run));
  const RunResult f = fake(with({"-F", "json"}, run));
  EXPECT_EQ(f.exitCode, j.exitCode) << describe(f);
  EXPECT_EQ(stable(f.out), stable(j.out));
  EXPECT_EQ(fake(with({"-F", "text"}, run)).out, fake(run).out);
  EXPECT_EQ(real({"-F", "json", "-l"}).out, real({"-j", "-l"}).out);
}

void expectUsageError(const RunResult& r, const std::string& message) {
  EXPECT_EQ(r.exitCode, 2) << describe(r);
  EXPECT_EQ(r.out, "") << describe(r);
  EXPECT_EQ(r.err, "nvbandwidth: " + message + " (see nvbandwidth --help)\n") << describe(r);
}

TEST(FormatOption, ConflictsAndBadValuesAreUsageErrors) {
  for (const Args& args : {Args{"--format", "text", "-j"}, Args{"-j", "--format", "text", "-l"},
                           Args{"--json", "--format=text", "-t", "0"}})
    expectUsageError(fake(args), "--format text and -j/--json cannot be used together");
  expectUsageError(fake({"--format", "perf", "-j", "-t", "0"}),
                   "--format perf and -j/--json cannot be used together");
  expectUsageError(fake({"-F", "perf", "-j", "-t", "0"}),
                   "--format perf and -j/--json cannot be used together");
  expectUsageError(fake({"--format", "yaml", "-l"}),
                   "invalid value 'yaml' for --format: expected text, json or perf");
  expectUsageError(fake({"--format", "yaml", "-h"}),
                   "invalid value 'yaml' for --format: expected text, json or perf");
}

// ---- --compat and NVBANDWIDTH_COMPAT ------------------------------------------------------------

// The listing's entries as (index, key), in order.
std::vector<std::pair<std::size_t, std::string>> listed(const std::string& text) {
  std::vector<std::pair<std::size_t, std::string>> entries;
  std::size_t at = 0;
  while ((at = text.find('\n', at)) != std::string::npos) {
    ++at;
    std::size_t comma = text.find(", ", at);
    std::size_t end = text.find(":\n", at);
    if (comma == std::string::npos || end == std::string::npos || comma > end) continue;
    const std::string index = text.substr(at, comma - at);
    if (index.empty() || index.find_first_not_of("0123456789") != std::string::npos) continue;
    entries.emplace_back(std::stoul(index), text.substr(comma + 2, end - comma - 2));
  }
  return entries;
}

// The first `n` entries of a listing: upstream's come first, this tool's own after them.
std::vector<std::pair<std::size_t, std::string>>
firstEntries(std::vector<std::pair<std::size_t, std::string>> entries, std::size_t n) {
  if (entries.size() > n) entries.resize(n);
  return entries;
}

std::vector<std::pair<std::size_t, std::string>> v010Listing() {
  std::vector<std::pair<std::size_t, std::string>> expected;
  for (std::size_t i = 0; i < nvbw::test::kV010ListingKeys.size(); ++i)
    expected.emplace_back(i, nvbw::test::kV010ListingKeys[i]);
  return expected;
}

TEST(CompatOption, V010ListsV010sTestcasesAtItsIndices) {
  for (const auto& [args, env] : std::vector<std::pair<Args, Env>>{
           {{"--compat", "v0.10", "-l"}, {}},
           {{"-l"}, {{"NVBANDWIDTH_COMPAT", "v0.10"}}},
           {{"--compat=v0.10", "-l"}, {{"NVBANDWIDTH_COMPAT", "v0.8"}}}}) {
    const RunResult r = real(args, env);
    ASSERT_EQ(r.exitCode, 0) << describe(r);
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(firstEntries(listed(r.out), v010Listing().size()), v010Listing()) << r.out;
    EXPECT_NE(r.out.find("\n\n\n42, device_to_device_latency_tma:\n"), std::string::npos) << r.out;
    EXPECT_EQ(countOf(r.out, "\n\n\n"), 1) << r.out;
    const json doc = json::parse(real(with({"-j"}, args), env).out);
    const json& testcases = doc["nvbandwidth"]["testcases"];
    ASSERT_GE(testcases.size(), nvbw::test::kV010ListingKeys.size());
    for (std::size_t i = 0; i < nvbw::test::kV010ListingKeys.size(); ++i) {
      EXPECT_EQ(testcases[i]["index"], i);
      EXPECT_EQ(testcases[i]["name"], nvbw::test::kV010ListingKeys[i]);
    }
  }
}

// Without v0.10: v0.8's listing as before, the v0.10 testcases after its last index.
TEST(CompatOption, V08ListingIsUnchanged) {
  const RunResult plain = real({"-l"});
  const RunResult v08 = real({"--compat", "v0.8", "-l"});
  const RunResult variable = real({"-l"}, {{"NVBANDWIDTH_COMPAT", "v0.8"}});
  const RunResult overridden = real({"--compat", "v0.8", "-l"}, {{"NVBANDWIDTH_COMPAT", "v0.10"}});
  EXPECT_EQ(v08.out, plain.out);
  EXPECT_EQ(variable.out, plain.out);
  EXPECT_EQ(overridden.out, plain.out);
  std::vector<std::pair<std::size_t, std::string>> expected;
  for (std::size_t i = 0; i < nvbw::test::kUpstreamKeys.size(); ++i)
    expected.emplace_back(i, nvbw::test::kUpstreamKeys[i]);
  for (std::size_t i = 0; i < nvbw::test::kV010Keys.size(); ++i)
    expected.emplace_back(nvbw::test::kFirstV010Index + i, nvbw::test::kV010Keys[i]);
  EXPECT_EQ(firstEntries(listed(plain.out), expected.size()), expected);
  EXPECT_EQ(countOf(plain.out, "\n\n\n"), 0);
}

// The key of each `Running` line.
std::vector<std::string> ran(const std::string& out) {
  std::vector<std::string> keys;
  for (std::size_t at = out.find("Running "); at != std::string::npos;
       at = out.find("Running ", at + 1))
    keys.push_back(out.substr(at + 8, out.find(".\n", at) - at - 8));
  return keys;
}

TEST(CompatOption, IndicesMeanWhatTheyMeanInEachInterface) {
  const Args indices = {"-t", "34", "38", "-i", "1"};
  const RunResult v08 = fake(indices);
  EXPECT_EQ(ran(v08.out), std::vector<std::string>{"device_local_copy"}) << describe(v08);
  EXPECT_NE(v08.out.find("ERROR: Testcase index 38 out of bound!"), std::string::npos);
  for (const auto& [args, env] :
       std::vector<std::pair<Args, Env>>{{with({"--compat", "v0.10"}, indices), {}},
                                         {indices, {{"NVBANDWIDTH_COMPAT", "v0.10"}}}}) {
    const RunResult v010 = fake(args, env);
    EXPECT_EQ(v010.exitCode, 0) << describe(v010);
    EXPECT_EQ(ran(v010.out),
              (std::vector<std::string>{"device_to_device_memcpy_read_tma", "device_local_copy"}))
        << describe(v010);
  }
}

TEST(CompatOption, V010TextHasItsHeaderAndCoefficientLines) {
  const RunResult v010 = fake({"--compat", "v0.10", "-t", "0", "6", "32"});
  ASSERT_EQ(v010.exitCode, 0) << describe(v010);
  EXPECT_NE(v010.out.find("\nCUDA Driver Version (API): "), std::string::npos) << v010.out;
  EXPECT_EQ(v010.out.find("Device 0: "), std::string::npos) << v010.out;
  EXPECT_EQ(countOf(v010.out, "COEFFICIENT_OF_VARIATION "), 2) << v010.out;
  EXPECT_NE(v010.out.find("COEFFICIENT_OF_VARIATION host_to_device_memcpy_ce 0.00\n"),
            std::string::npos)
      << v010.out;
  const std::size_t total =
      v010.out.find("SUM device_to_device_bidirectional_memcpy_read_ce_total");
  EXPECT_EQ(
      v010.out.find("\nCOEFFICIENT_OF_VARIATION device_to_device_bidirectional_memcpy_read_ce "),
      v010.out.find('\n', total))
      << v010.out;
  // v0.8: none of them; the JSON report is the same document in both, but for the interface its
  // settings name (for --from to print the text again in it).
  const RunResult v08 = fake({"-t", "0", "6", "32"});
  EXPECT_EQ(v08.out.find("COEFFICIENT_OF_VARIATION"), std::string::npos);
  EXPECT_NE(v08.out.find("\nDevice 0: "), std::string::npos);
  json v010Document = stable(fake({"--compat", "v0.10", "-j", "-t", "0", "6", "32"}).out);
  EXPECT_EQ(v010Document["nvbandwidth"]["settings"]["interface"], "v0.10");
  v010Document["nvbandwidth"]["settings"].erase("interface");
  EXPECT_EQ(v010Document, stable(fake({"-j", "-t", "0", "6", "32"}).out));
}

TEST(CompatOption, VersionSaysWhichInterfaceIsInForce) {
  const RunResult v08 = real({"--version"});
  EXPECT_EQ(v08.exitCode, 0);
  EXPECT_EQ(v08.out.rfind("nvbandwidth Version: v0.8\nBuilt from Git version: ", 0), 0u);
  EXPECT_NE(v08.out.find("\nInterface: v0.8\n\n"), std::string::npos) << v08.out;
  EXPECT_NE(real({"--version", "--compat", "v0.10"}).out.find("\nInterface: v0.10\n\n"),
            std::string::npos);
  EXPECT_NE(real({"--version"}, {{"NVBANDWIDTH_COMPAT", "v0.10"}}).out.find("\nInterface: v0.10\n"),
            std::string::npos);
  // The version line names this program's version in both.
  EXPECT_EQ(real({"--version", "--compat", "v0.10"}).out.rfind("nvbandwidth Version: v0.8\n", 0),
            0u);
}

TEST(CompatOption, HelpShowsTheNewOptions) {
  const RunResult help = real({"-h"});
  EXPECT_NE(help.out.find("  -F [ --format ] arg "), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("  --compat arg "), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("NVBANDWIDTH_COMPAT"), std::string::npos) << help.out;
}

TEST(CompatOption, BadValuesAreUsageErrors) {
  expectUsageError(real({"--compat", "v0.9", "-l"}),
                   "invalid value 'v0.9' for --compat: expected v0.8 or v0.10");
  expectUsageError(real({"-l"}, {{"NVBANDWIDTH_COMPAT", "0.10"}}),
                   "invalid value '0.10' in NVBANDWIDTH_COMPAT: expected v0.8 or v0.10");
  expectUsageError(fake({"--compat", "v0.10", "-t", "0"}, {{"NVBANDWIDTH_COMPAT", "latest"}}),
                   "invalid value 'latest' in NVBANDWIDTH_COMPAT: expected v0.8 or v0.10");
  // Set but empty: not set.
  const RunResult empty = real({"-l"}, {{"NVBANDWIDTH_COMPAT", ""}});
  EXPECT_EQ(empty.exitCode, 0) << describe(empty);
  EXPECT_EQ(empty.out, real({"-l"}).out);
}

}  // namespace test_cli_interface
