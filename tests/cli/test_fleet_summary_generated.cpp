// --summarize over a generated fleet (issue 19): 50 reports of 8-GPU default runs, shaped like
// the fake platform's report and written by tools/make_fleet_reports.py with healthy noise,
// with a few nodes doctored the ways fleets go wrong. Exactly the doctored nodes with a fault
// must be flagged, for more than one seed; the nodes doctored harmlessly (a missing or waived
// testcase, no host name) must not be.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "fleet/summary/fleet_summary.h"
#include "model/report_writer.h"
#include "run_binary.h"
#include "temp_dir.h"
#include "temp_file.h"

namespace test_fleet_summary_generated {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace nvbw;

const std::string kPython = "/usr/bin/python3";
const fs::path kSource = (fs::path(NVBW_DOCS_DIR) / "..").lexically_normal();
const std::string kGenerator = (kSource / "tools" / "make_fleet_reports.py").string();
const std::string kValidator = (kSource / "tests" / "schema" / "validate.py").string();
const std::string kSchema = (kSource / "docs" / "nvbandwidth.schema.json").string();
constexpr int kNodes = 50;

using FleetDir = nvbw::test::TempDir;

nvbw::test::RunResult run(const std::string& program, const std::vector<std::string>& args,
                          const std::vector<std::pair<std::string, std::string>>& env = {}) {
  nvbw::test::RunSpec spec(program, args);
  spec.env = env;
  spec.killAfter = std::chrono::seconds(120);
  return nvbw::test::runProgram(spec);
}

// The faults, and the nodes that carry them; and harmless changes that must flag nothing.
const std::vector<std::pair<int, std::string>> kFaults = {
    {7, "slow-links:3"},     // one GPU's NVLinks at 75%
    {13, "slow-pair:1:6"},   // one link at 60%: only the worst cells show it
    {21, "slow-host:2"},     // a PCIe link trained down
    {29, "slow-latency:5"},  // one GPU's latency 40% up
    {34, "slow-node:0.85"},  // clocks held down: every SUM 15% low
    {42, "failed:device_local_copy"},
};
const std::vector<std::pair<int, std::string>> kHarmless = {
    {46, "missing:device_to_device_memcpy_read_tma"},
    {48, "waived:device_local_copy_tma"},
    {50, "no-hostname"},
};

std::string nodeName(int n) {
  char name[16];
  std::snprintf(name, sizeof name, "node%04d", n);
  return name;
}

class GeneratedFleet : public ::testing::TestWithParam<int> {
 protected:
  static void SetUpTestSuite() {
    ASSERT_EQ(access(kPython.c_str(), X_OK), 0) << kPython << " is missing";
    const nvbw::test::RunResult fake =
        run(NVBW_FAKE_BINARY, {"-j"}, {{"NVBW_FAKE_GPUS", "8"}, {"NVBW_FAKE_LINKS", "nvswitch"}});
    ASSERT_EQ(fake.exitCode, 0) << nvbw::test::describe(fake);
    template_ = new nvbw::test::TempFile("fleet_template", fake.out);
  }
  static void TearDownTestSuite() {
    delete template_;
    template_ = nullptr;
  }

  // Writes the fleet for `seed` under dir / "reports" and summarizes it.
  FleetSummary generate(const FleetDir& dir, int seed) {
    std::vector<std::string> args = {
        kGenerator,          "--template", template_->path(),      "--out",
        dir / "reports",     "--nodes",    std::to_string(kNodes), "--seed",
        std::to_string(seed)};
    for (const auto* list : {&kFaults, &kHarmless})
      for (const auto& [node, what] : *list)
        args.push_back("--doctor=" + std::to_string(node) + "=" + what);
    const nvbw::test::RunResult made = run(kPython, args);
    EXPECT_EQ(made.exitCode, 0) << nvbw::test::describe(made);
    return summarizeReports(nvbw::findReports({dir / "reports"}, {}), {}, {});
  }

  static nvbw::test::TempFile* template_;
};

nvbw::test::TempFile* GeneratedFleet::template_ = nullptr;

// The summary as --summarize -j writes it.
std::string summaryJson(const FleetSummary& s) {
  Report versions;
  versions.version = "v0.8";
  versions.gitVersion = "";
  std::ostringstream styled;
  writeSummaryJson(styled, versions, s);
  return styled.str();
}

// The summary through the command: `nvbandwidth --summarize DIR` (text), `-j` and `--output
// x.html`, with a file that is not a report among them (added to the fleet in `dir`). Returns the
// -j document, for the schema.
std::string expectTheCommandFlagsExactlyTheDoctoredNodes(const FleetDir& dir) {
  std::ofstream(dir / "reports/zz-broken.json") << "{\"nvbandwidth\": [";
  const nvbw::test::RunResult text = run(NVBW_BINARY, {"--summarize", dir / "reports"});
  EXPECT_EQ(text.exitCode, 3) << nvbw::test::describe(text);
  EXPECT_NE(text.out.find("Summary: 50 nodes, 6 flagged, 1 unreadable."), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("zz-broken.json"), std::string::npos);

  const nvbw::test::RunResult doc =
      run(NVBW_BINARY, {"--summarize", dir / "reports", "-j", "--output", dir / "summary.html"});
  EXPECT_EQ(doc.exitCode, 3) << nvbw::test::describe(doc);
  const json summary = json::parse(doc.out)["nvbandwidth"]["summary"];
  std::set<std::string> flagged, expected;
  for (const json& node : summary["nodes"])
    if (node["flagged"].get<bool>()) flagged.insert(node["name"].get<std::string>());
  for (const auto& [node, what] : kFaults) expected.insert(nodeName(node));
  EXPECT_EQ(flagged, expected);
  EXPECT_EQ(summary["counts"]["unreadable"], 1);
  std::ifstream page(dir / "summary.html");
  std::stringstream html;
  html << page.rdbuf();
  EXPECT_NE(html.str().find("<html"), std::string::npos);
  EXPECT_NE(html.str().find(nodeName(7)), std::string::npos);
  return doc.out;
}

TEST_P(GeneratedFleet, ExactlyTheDoctoredNodesAreFlagged) {
  FleetDir dir("fleet_gen");
  const FleetSummary s = generate(dir, GetParam());
  ASSERT_EQ(s.nodes.size(), static_cast<std::size_t>(kNodes));
  EXPECT_TRUE(s.unreadable.empty());
  ASSERT_EQ(s.groups.size(), 1u);
  EXPECT_EQ(s.groups[0].name, "8 x NVIDIA H200");

  std::set<std::string> flagged, expected;
  for (const FleetNode& n : s.nodes)
    if (n.flagged()) flagged.insert(n.name);
  for (const auto& [node, what] : kFaults) expected.insert(nodeName(node));
  EXPECT_EQ(flagged, expected) << fleetSummaryText(s);
  EXPECT_EQ(fleetSummaryExitStatus(s), 3);

  auto byName = [&s](const std::string& name) -> const FleetNode& {
    for (const FleetNode& n : s.nodes)
      if (n.name == name) return n;
    throw std::runtime_error(name);
  };
  auto columnOf = [&s](const std::string& key) {
    for (std::size_t c = 0; c < s.columns.size(); ++c)
      if (s.columns[c].key == key) return c;
    throw std::runtime_error(key);
  };
  // What flags each fault: the single link only through worst cells, the latency only through
  // latency testcases, the slow node through its SUMs.
  const FleetNode& pair = byName(nodeName(13));
  for (std::size_t c = 0; c < s.columns.size(); ++c) EXPECT_FALSE(pair.cells[c].sumFlagged);
  EXPECT_TRUE(pair.cells[columnOf("device_to_device_memcpy_read_ce")].worstFlagged);
  const FleetNode& latency = byName(nodeName(29));
  for (std::size_t c = 0; c < s.columns.size(); ++c)
    if (latency.cells[c].flagged()) {
      EXPECT_TRUE(s.columns[c].latency()) << s.columns[c].key;
    }
  EXPECT_TRUE(byName(nodeName(34)).cells[columnOf("device_local_copy")].sumFlagged);
  EXPECT_EQ(byName(nodeName(42)).cells[columnOf("device_local_copy")].status, FleetStatus::Failed);
  const FleetNode& host = byName(nodeName(21));
  EXPECT_EQ(host.cells[columnOf("host_to_device_memcpy_ce")].worstCell, "CPU -> GPU 2");

  // The harmless changes are reported, not flagged.
  EXPECT_EQ(byName(nodeName(46)).cells[columnOf("device_to_device_memcpy_read_tma")].status,
            FleetStatus::Missing);
  EXPECT_EQ(byName(nodeName(48)).cells[columnOf("device_local_copy_tma")].status,
            FleetStatus::Waived);
  EXPECT_EQ(byName(nodeName(50)).hostSource, "file name");
  EXPECT_EQ(byName(nodeName(1)).hostSource, "hostname");
  const std::string text = fleetSummaryText(s);
  EXPECT_NE(text.find("Summary: 50 nodes, 6 flagged, 0 unreadable."), std::string::npos);

  // Generating a fleet is most of this test's time: seed 1's also serves the checks of the
  // command around the summary and of both JSON documents against the schema (the summary's
  // writer, and the command's output with an unreadable file), one validator run for both (one
  // seed is enough for these).
  if (GetParam() != 1) return;
  const nvbw::test::TempFile written("fleet_summary_generated", summaryJson(s));
  const nvbw::test::TempFile command("fleet_summary_command",
                                     expectTheCommandFlagsExactlyTheDoctoredNodes(dir));
  const nvbw::test::RunResult check =
      run(kPython, {kValidator, kSchema, written.path(), command.path()});
  EXPECT_EQ(check.exitCode, 0) << check.out << check.err;
}

TEST(SummarizeCommand, OnlyHealthyNodesExitZeroAndConflictsAreUsageErrors) {
  const std::string fleet = std::string(NVBW_GOLDEN_DIR) + "/fleet/";
  const nvbw::test::RunResult healthy =
      run(NVBW_BINARY, {"--summarize", fleet + "fake_base.json",
                        std::string(NVBW_GOLDEN_DIR) + "/run_to_run_x2/issue11_full.json"});
  EXPECT_EQ(healthy.exitCode, 0) << nvbw::test::describe(healthy);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--summarize", fleet, "--from", fleet + "fake_base.json"},
        std::vector<std::string>{"--summarize", fleet, "--baseline", fleet + "fake_base.json"},
        std::vector<std::string>{"--summarize", fleet, "--metrics", "m.prom"}}) {
    const nvbw::test::RunResult conflict = run(NVBW_BINARY, args);
    EXPECT_EQ(conflict.exitCode, 2) << nvbw::test::describe(conflict);
    EXPECT_EQ(conflict.out, "");
  }
}

// -t takes names and indices as in a run (an index is named by its key); a bidirectional testcase
// selects its three matrices; a matrix key is taken as given.
TEST(SummarizeCommand, TestcasesAreSelectedAsInARun) {
  const std::string report = std::string(NVBW_GOLDEN_DIR) + "/fleet/fake_base.json";
  auto columns = [&report](std::vector<std::string> selection) {
    std::vector<std::string> args = {"--summarize", report, "-j", "-t"};
    args.insert(args.end(), selection.begin(), selection.end());
    const nvbw::test::RunResult r = run(NVBW_BINARY, args);
    EXPECT_EQ(r.exitCode, 0) << nvbw::test::describe(r);
    std::vector<std::string> keys;
    const json doc = json::parse(r.out);
    for (const json& c : doc["nvbandwidth"]["summary"]["testcases"])
      keys.push_back(c["key"].get<std::string>());
    return keys;
  };
  EXPECT_EQ(columns({"0"}), std::vector<std::string>{"host_to_device_memcpy_ce"});
  EXPECT_EQ(columns({"device_to_device_bidirectional_memcpy_read_ce"}),
            (std::vector<std::string>{"device_to_device_bidirectional_memcpy_read_ce_read1",
                                      "device_to_device_bidirectional_memcpy_read_ce_read2",
                                      "device_to_device_bidirectional_memcpy_read_ce_total"}));
  EXPECT_EQ(columns({"device_to_device_bidirectional_memcpy_read_ce_total"}),
            std::vector<std::string>{"device_to_device_bidirectional_memcpy_read_ce_total"});
}

INSTANTIATE_TEST_SUITE_P(Seeds, GeneratedFleet, ::testing::Values(1, 2, 3));

}  // namespace test_fleet_summary_generated
