// The fleet summary (--summarize): its statistics and flag rule, reading report trees (bad files
// among good ones, upstream's reports, hostile input, with readReport's messages) and the three
// views (schema, XML, terminal width).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/statistics.h"
#include "fleet/comparison/healthy_band.h"
#include "fleet/summary/fleet_summary.h"
#include "fleet/summary/fleet_summary_internal.h"
#include "golden.h"
#include "model/json_style.h"
#include "model/report_files.h"
#include "model/report_writer.h"
#include "run_binary.h"
#include "temp_dir.h"
#include "temp_file.h"

namespace test_fleet_summary {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace nvbw;

// The summary's JSON as the writer writes it (its "summary" object).
json fleetSummaryJson(const FleetSummary& summary) {
  Report versions;
  std::ostringstream text;
  writeSummaryJson(text, versions, summary);
  return json::parse(text.str())["nvbandwidth"]["summary"];
}

const std::string kPython = "/usr/bin/python3";
const std::string kSchema = std::string(NVBW_DOCS_DIR) + "/nvbandwidth.schema.json";
const std::string kValidator =
    (fs::path(NVBW_DOCS_DIR) / ".." / "tests" / "schema" / "validate.py").lexically_normal();

// ---- building reports ---------------------------------------------------------------------

using Rows = std::vector<std::vector<std::optional<double>>>;

// An N x N device-to-device matrix of `value`, N/A on the diagonal.
Rows square(std::size_t gpus, double value) {
  Rows rows(gpus, std::vector<std::optional<double>>(gpus, value));
  for (std::size_t i = 0; i < gpus; ++i) rows[i][i] = std::nullopt;
  return rows;
}

Rows oneRow(std::size_t gpus, double value) {
  return Rows(1, std::vector<std::optional<double>>(gpus, value));
}

json valuesJson(const Rows& rows) {
  json out = json::array();
  for (const auto& row : rows) {
    json r = json::array();
    for (const auto& v : row) r.push_back(v ? json(*v) : json(nullptr));
    out.push_back(r);
  }
  return out;
}

json passed(const std::string& name, const Rows& rows, const std::string& unit = "GB/s",
            std::optional<double> peak = std::nullopt) {
  double sum = 0;
  for (const auto& row : rows)
    for (const auto& v : row) sum += v.value_or(0.0);
  const bool d2d = rows.size() > 1;
  json entry = {
      {"name", name},
      {"status", "Passed"},
      {"unit", unit},
      {"sum", sum},
      {"bandwidth_description", d2d ? "memcpy CE GPU(row) -> GPU(column) bandwidth (GB/s)"
                                    : "memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)"},
      {"values", valuesJson(rows)}};
  if (peak) {
    Rows peaks = rows, percents = rows;
    for (std::size_t r = 0; r < rows.size(); ++r)
      for (std::size_t c = 0; c < rows[r].size(); ++c) {
        if (!rows[r][c]) continue;
        peaks[r][c] = *peak;
        percents[r][c] = 100.0 * *rows[r][c] / *peak;
      }
    entry["peak_GBps"] = valuesJson(peaks);
    entry["percent_of_peak"] = valuesJson(percents);
  }
  return entry;
}

json notPassed(const std::string& name, const std::string& status, const std::string& message) {
  json entry = {{"name", name}, {"status", status}};
  entry[status == "Waived" ? "waive_reason" : "error"] = message;
  return entry;
}

json report(const std::string& host, std::size_t gpus, const std::vector<json>& entries,
            const std::string& model = "NVIDIA H200", bool hostnameKey = false) {
  json devices = json::array();
  for (std::size_t i = 0; i < gpus; ++i)
    devices.push_back(std::to_string(i) + ": " + model + " (00000000:" + std::to_string(10 + i) +
                      ":00): (" + host + ")");
  json run = {{"version", "v0.8"},       {"git_version", ""},
              {"schema_version", "1.0"}, {"CUDA Runtime Version", 13000},
              {"Driver Version", "580"}, {"GPU Device list", devices},
              {"testcases", entries}};
  if (hostnameKey) run["hostname"] = host;
  return {{"nvbandwidth", run}};
}

// Reports written as JSON documents.
class ReportDir : public nvbw::test::TempDir {
 public:
  ReportDir() : TempDir("fleet") {}
  using TempDir::write;
  std::string write(const std::string& name, const json& doc) const {
    return write(name, doc.dump(1));
  }
};

FleetSummary summarize(const std::vector<std::string>& paths, SummaryOptions options = {}) {
  return summarizeReports(findReports(paths, {}), options, {});
}

const FleetNode& node(const FleetSummary& s, const std::string& name) {
  for (const FleetNode& n : s.nodes)
    if (n.name == name) return n;
  throw std::runtime_error("no node " + name);
}

std::size_t column(const FleetSummary& s, const std::string& key) {
  for (std::size_t c = 0; c < s.columns.size(); ++c)
    if (s.columns[c].key == key) return c;
  throw std::runtime_error("no column " + key);
}

std::vector<std::string> flaggedNames(const FleetSummary& s) {
  std::vector<std::string> names;
  for (const FleetNode& n : s.nodes)
    if (n.flagged()) names.push_back(n.name);
  return names;
}

// A fleet of `count` 2-GPU nodes whose host-to-device cells are `value(i)` GB/s.
FleetSummary hostFleet(const ReportDir& dir, std::size_t count,
                       const std::function<double(int)>& value,
                       const std::string& name = "host_to_device_memcpy_ce",
                       const std::string& unit = "GB/s") {
  for (std::size_t i = 0; i < count; ++i) {
    const std::string host = "n" + std::to_string(10 + i);
    dir.write(host + ".json",
              report(host, 2, {passed(name, oneRow(2, value(static_cast<int>(i))), unit)}));
  }
  return summarize({dir.path()});
}

// A healthy spread: +-0.4%, the same for every run of the test.
double healthy(int i) { return 50.0 * (1.0 + 0.002 * (i % 5 - 2)); }

// ---- statistics -----------------------------------------------------------------------------

TEST(FleetStatistics, MedianAndMedianAbsoluteDeviation) {
  using namespace nvbw::summary;
  EXPECT_EQ(median({}), 0.0);
  EXPECT_EQ(median({3, 1, 2}), 2.0);
  EXPECT_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_EQ(medianAbsoluteDeviation({1, 2, 3, 4, 100}, 3), 1.0);  // the outlier does not widen it
}

TEST(FleetStatistics, TheBandIsKTimesTheRobustSigmaWithFloors) {
  using namespace nvbw::summary;
  const std::string steady = "device_to_device_memcpy_read_ce";  // prior 0.04%: the 5% floor
  EXPECT_DOUBLE_EQ(bandPercent(100.0, 0.1, steady), kFleetFloorPercent);
  EXPECT_DOUBLE_EQ(bandPercent(100.0, 4.0, steady), kFleetMadFactor * kMadToSigma * 4.0);
  EXPECT_EQ(bandPercent(0.0, 4.0, steady), 0.0);
  // A testcase whose cells move 11% between one machine's healthy runs: 1.5 x that at least.
  const std::string moving = "host_to_device_bidirectional_memcpy_ce";
  EXPECT_DOUBLE_EQ(bandPercent(100.0, 0.1, moving),
                   kBandFactor * spreadPrior(moving).runToRunPercent);
  EXPECT_DOUBLE_EQ(deficitPercent(90.0, 100.0, false), 10.0);  // bandwidth: below is worse
  EXPECT_DOUBLE_EQ(deficitPercent(110.0, 100.0, true), 10.0);  // latency: above is worse
  EXPECT_DOUBLE_EQ(deficitPercent(110.0, 100.0, false), -10.0);
}

// ---- the flag rule ----------------------------------------------------------------------------

TEST(FleetSummaryRule, ANodeBelowTheFloorIsFlaggedOneWithinItIsNot) {
  ReportDir dir;
  const FleetSummary s = hostFleet(dir, 10, [](int i) {
    return i == 7 ? 45.0 : i == 3 ? 48.8 : healthy(i);  // 10% and 2.4% below
  });
  EXPECT_EQ(flaggedNames(s), std::vector<std::string>{"n17"});
  const FleetCell& cell = node(s, "n17").cells.at(0);
  EXPECT_TRUE(cell.sumFlagged);
  EXPECT_TRUE(cell.worstFlagged);
  EXPECT_NEAR(*cell.sumPercentOfMedian, 90.0, 0.5);
  EXPECT_DOUBLE_EQ(s.groups.at(0).columns.at(0).sum.bandPercent, kFleetFloorPercent);
  EXPECT_GT(s.flaggedNodes(), 0u);
  EXPECT_EQ(fleetSummaryExitStatus(s), 3);
}

TEST(FleetSummaryRule, AHealthyFleetFlagsNothingAndExitsZero) {
  ReportDir dir;
  const FleetSummary s = hostFleet(dir, 12, healthy);
  EXPECT_TRUE(flaggedNames(s).empty());
  EXPECT_EQ(s.flaggedNodes(), 0u);
  EXPECT_EQ(fleetSummaryExitStatus(s), 0);
}

TEST(FleetSummaryRule, AWideSpreadWidensTheBand) {
  // Median 98, MAD 4: the band is 5 x 1.4826 x 4 / 98 = 30%.
  ReportDir dir;
  const std::vector<double> values = {94, 96, 98, 100, 102, 104, 106, 80, 60};
  const FleetSummary s = hostFleet(dir, values.size(), [&](int i) { return values[i]; });
  const FleetColumnStats& st = s.groups.at(0).columns.at(0);
  EXPECT_NEAR(st.sum.bandPercent, kFleetMadFactor * 1.4826 * st.sum.mad / st.sum.median * 100,
              1e-9);
  EXPECT_NEAR(st.sum.bandPercent, 30.3, 0.1);
  EXPECT_EQ(flaggedNames(s), std::vector<std::string>{"n18"});  // 60 (39% below), not 80 (18%)
}

TEST(FleetSummaryRule, LatencyIsWorseAboveTheMedianAndFasterIsNeverFlagged) {
  ReportDir lat;
  const FleetSummary s = hostFleet(
      lat, 9, [](int i) { return i == 2   ? 660.0
                                 : i == 5 ? 540.0
                                          : 600.0 * healthy(i) / 50; },
      "host_device_latency_sm", "ns");
  EXPECT_EQ(flaggedNames(s), std::vector<std::string>{"n12"});
  EXPECT_TRUE(s.columns.at(0).latency());

  ReportDir bw;
  const FleetSummary fast = hostFleet(bw, 9, [](int i) { return i == 4 ? 60.0 : healthy(i); });
  EXPECT_TRUE(flaggedNames(fast).empty());  // 20% above the median
}

TEST(FleetSummaryRule, GroupsOfFewerThanThreeNodesAreNotJudged) {
  ReportDir dir;
  const FleetSummary s = hostFleet(dir, 2, [](int i) { return i == 0 ? 25.0 : 50.0; });
  EXPECT_TRUE(flaggedNames(s).empty());
  EXPECT_FALSE(s.groups.at(0).columns.at(0).judged);
  EXPECT_FALSE(node(s, "n10").cells.at(0).judged);
  EXPECT_NE(fleetSummaryText(s).find("(fewer than 3: not judged)"), std::string::npos);
  EXPECT_EQ(fleetSummaryJson(s)["groups"][0]["judged"], false);
}

TEST(FleetSummaryRule, NodesAreComparedWithTheirGpuModelAndCountOnly) {
  ReportDir dir;
  // H100 nodes are 30% slower than H200 nodes: neither group flags the other's nodes.
  for (int i = 0; i < 4; ++i) {
    dir.write("h200-" + std::to_string(i) + ".json",
              report("h200-" + std::to_string(i), 2,
                     {passed("host_to_device_memcpy_ce", oneRow(2, healthy(i)))}));
    dir.write("h100-" + std::to_string(i) + ".json",
              report("h100-" + std::to_string(i), 2,
                     {passed("host_to_device_memcpy_ce", oneRow(2, 0.7 * healthy(i)))},
                     "NVIDIA H100 80GB HBM3"));
  }
  // The same model with 4 GPUs is a group of its own (of one: not judged), however slow.
  dir.write("h200x4.json",
            report("h200x4", 4, {passed("host_to_device_memcpy_ce", oneRow(4, 10.0))}));
  const FleetSummary s = summarize({dir.path()});
  ASSERT_EQ(s.groups.size(), 3u);
  std::vector<std::string> groups;
  for (const FleetGroup& g : s.groups) groups.push_back(g.name);
  EXPECT_EQ(groups, (std::vector<std::string>{"2 x NVIDIA H100 80GB HBM3", "2 x NVIDIA H200",
                                              "4 x NVIDIA H200"}));
  EXPECT_TRUE(flaggedNames(s).empty());
  EXPECT_NEAR(*node(s, "h100-1").cells.at(0).sumPercentOfMedian, 100.0, 1.0);
}

TEST(FleetSummaryRule, OneSlowLinkFlagsTheWorstCellThoughTheSumHardlyMoves) {
  ReportDir dir;
  for (int i = 0; i < 6; ++i) {
    Rows rows = square(8, 380.0 * healthy(i) / 50);
    if (i == 4) rows[2][5] = 228.0;  // 60%: the SUM of 56 cells moves 0.7%
    dir.write("n" + std::to_string(i) + ".json",
              report("n" + std::to_string(i), 8,
                     {passed("device_to_device_memcpy_read_ce", rows, "GB/s", 478.125)}));
  }
  const FleetSummary s = summarize({dir.path()});
  EXPECT_EQ(flaggedNames(s), std::vector<std::string>{"n4"});
  const FleetCell& cell = node(s, "n4").cells.at(0);
  EXPECT_TRUE(cell.worstFlagged);
  EXPECT_FALSE(cell.sumFlagged);
  EXPECT_EQ(cell.worstCell, "GPU 2 -> GPU 5");
  EXPECT_NEAR(*cell.worstPercentOfPeak, 100.0 * 228 / 478.125, 1e-9);
  EXPECT_NEAR(*cell.percentOfPeak, 100.0 * cell.sum / (56 * 478.125), 1e-9);
  const std::string text = fleetSummaryText(s);
  EXPECT_NE(text.find("worst cell 228.00 GB/s"), std::string::npos) << text;
  EXPECT_NE(text.find("at GPU 2 -> GPU 5"), std::string::npos) << text;
  // The page lists the text view's line of the reason, escaped.
  const std::size_t at = text.find("device_to_device_memcpy_read_ce: worst cell");
  ASSERT_NE(at, std::string::npos) << text;
  std::string line = text.substr(at, text.find('\n', at) - at);
  line.replace(line.find("->"), 2, "-&gt;");
  const std::string page = fleetSummaryHtml(s);
  EXPECT_NE(page.find("<li>" + line + "</li>"), std::string::npos) << line;
  // And the text view's flag rule.
  const std::size_t rule = text.find("A node is flagged");
  std::string sentence = text.substr(rule, text.find('\n', rule) - rule);
  for (std::size_t q; (q = sentence.find('\'')) != std::string::npos;)
    sentence.replace(q, 1, "&#39;");
  EXPECT_NE(page.find(">" + sentence + "</p>"), std::string::npos) << sentence;
}

TEST(FleetSummaryRule, FailedTestcasesFlagWaivedAndMissingOnesDoNot) {
  ReportDir dir;
  for (int i = 0; i < 5; ++i) {
    std::vector<json> entries = {passed("host_to_device_memcpy_ce", oneRow(2, healthy(i))),
                                 passed("device_local_copy", oneRow(2, 2000.0 * healthy(i) / 50))};
    if (i == 1) entries[1] = notPassed("device_local_copy", "ERROR", "data mismatch");
    if (i == 2) entries[1] = notPassed("device_local_copy", "Waived", "not on this node");
    if (i == 3) entries.pop_back();
    dir.write("n" + std::to_string(i) + ".json", report("n" + std::to_string(i), 2, entries));
  }
  const FleetSummary s = summarize({dir.path()});
  EXPECT_EQ(flaggedNames(s), std::vector<std::string>{"n1"});
  const std::size_t local = column(s, "device_local_copy");
  EXPECT_EQ(node(s, "n1").cells[local].status, FleetStatus::Failed);
  EXPECT_EQ(node(s, "n1").cells[local].message, "data mismatch");
  EXPECT_EQ(node(s, "n2").cells[local].status, FleetStatus::Waived);
  EXPECT_EQ(node(s, "n3").cells[local].status, FleetStatus::Missing);
  const json j = fleetSummaryJson(s);
  EXPECT_EQ(j["nodes"][3]["missing"], json::array({"device_local_copy"}));
  EXPECT_EQ(j["nodes"][2]["waived"], json::array({"device_local_copy"}));
  EXPECT_EQ(j["nodes"][1]["failed"], json::array({"device_local_copy"}));
  const std::string text = fleetSummaryText(s);
  EXPECT_NE(text.find("device_local_copy: failed (ERROR): data mismatch"), std::string::npos);
  EXPECT_NE(text.find("Summary: 5 nodes, 1 flagged, 0 unreadable."), std::string::npos);
}

// A node whose own run judged itself and failed (--baseline: SLOWER and UNSTABLE cells, --expect:
// BELOW ones) is flagged, however it compares with its peers: that run exited 3.
TEST(FleetSummaryRule, ANodeWhoseReportFailedItsVerdictsIsFlagged) {
  ReportDir dir;
  for (int i = 0; i < 4; ++i) {
    json doc = report("n" + std::to_string(i), 2,
                      {passed("host_to_device_memcpy_ce", oneRow(2, healthy(i))),
                       passed("device_local_copy", oneRow(2, 2000.0))});
    if (i == 3) {
      doc["nvbandwidth"]["comparison"] = {
          {"cells",
           {{{"name", "host_to_device_memcpy_ce"}, {"row", 0}, {"col", 0}, {"verdict", "UNSTABLE"}},
            {{"name", "host_to_device_memcpy_ce"}, {"row", 0}, {"col", 1}, {"verdict", "SLOWER"}},
            {{"name", "device_local_copy"}, {"row", 0}, {"col", 0}, {"verdict", "NOISY"}}}}};
      doc["nvbandwidth"]["expectations"] = {
          {{"below", {{{"name", "host_to_device_memcpy_ce"}, {"row", 0}, {"col", 1}}}}}};
    }
    dir.write("n" + std::to_string(i) + ".json", doc);
  }
  const FleetSummary s = summarize({dir.path()});
  EXPECT_EQ(flaggedNames(s), std::vector<std::string>{"n3"});
  const FleetNode& n3 = node(s, "n3");
  EXPECT_TRUE(n3.failedItsVerdicts());
  EXPECT_FALSE(n3.slow());
  const ReportVerdicts& v = n3.cells[column(s, "host_to_device_memcpy_ce")].verdicts;
  EXPECT_EQ(v.slower, 1u);
  EXPECT_EQ(v.unstable, 1u);
  EXPECT_EQ(v.below, 1u);
  EXPECT_FALSE(n3.cells[column(s, "device_local_copy")].verdicts.failed());  // NOISY: not failing
  const std::string text = fleetSummaryText(s);
  EXPECT_NE(text.find("    host_to_device_memcpy_ce: its report's verdicts: 1 SLOWER, 1 UNSTABLE, "
                      "1 BELOW\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("100!"), std::string::npos) << text;
  const json j = fleetSummaryJson(s);
  EXPECT_EQ(j["nodes"][3]["failed_its_verdicts"], true);
  EXPECT_EQ(j["nodes"][3]["results"][0]["report_verdicts"],
            (json{{"slower", 1}, {"unstable", 1}, {"below", 1}}));
  EXPECT_FALSE(j["nodes"][2]["results"][0].contains("report_verdicts"));
  EXPECT_NE(fleetSummaryHtml(s).find("verdict-failed"), std::string::npos);
  // A comparison whose cells are not objects is not a usable report, as --compare says.
  json bad = report("n9", 2, {passed("host_to_device_memcpy_ce", oneRow(2, healthy(0)))});
  bad["nvbandwidth"]["comparison"] = {{"cells", {"SLOWER"}}};
  const std::string path = dir.write("bad.json", bad);
  const FleetSummary withBad = summarize({path});
  ASSERT_EQ(withBad.unreadable.size(), 1u);
  EXPECT_NE(withBad.unreadable[0].reason.find("nvbandwidth.comparison.cells[0]"), std::string::npos)
      << withBad.unreadable[0].reason;
}

// ---- reading --------------------------------------------------------------------------------

TEST(FleetSummaryReading, DirectoriesAreReadRecursivelyInSortedOrder) {
  ReportDir dir;
  for (const char* name : {"b/x.json", "a/y.json", "a/z/w.json", "c.json"})
    dir.write(name, report(fs::path(name).stem().string(), 1,
                           {passed("host_to_device_memcpy_ce", oneRow(1, 50))}));
  // Not reports to read: hidden files and folders (--output's temporary files), other names.
  dir.write(".hidden.json", std::string("{"));
  dir.write("a/.partial/q.json", std::string("{"));
  dir.write("a/.y.json.Ab12Cd", std::string("{"));
  dir.write("notes.txt", std::string("not a report"));
  fs::create_directories(fs::path(dir.path()) / "folder.json");
  const std::string extra = dir.write("elsewhere/named.report", report("given", 1, {}));
  const FleetSummary s = summarize({dir.path(), extra});
  std::vector<std::string> names;
  for (const FleetNode& n : s.nodes) names.push_back(n.name);
  EXPECT_EQ(names, (std::vector<std::string>{"y", "w", "x", "c", "given"}));
  EXPECT_TRUE(s.unreadable.empty());
  EXPECT_EQ(s.reports, 5u);
}

TEST(FleetSummaryReading, FilesThatAreNotReportsAreListedAndStopNothing) {
  ReportDir dir;
  for (int i = 0; i < 3; ++i)
    dir.write("good" + std::to_string(i) + ".json",
              report("good" + std::to_string(i), 1,
                     {passed("host_to_device_memcpy_ce", oneRow(1, healthy(i)))}));
  dir.write("bad/empty.json", std::string());
  dir.write("bad/truncated.json", report("t", 1, {}).dump().substr(0, 40));
  dir.write("bad/listing.json", json{{"nvbandwidth", {{"version", "v0.8"}}}});
  dir.write("bad/array.json", std::string("[1, 2]"));
  dir.write("bad/utf8.json", std::string("{\"nvbandwidth\": {\"x\": \"\xff\"}}"));
  dir.write("bad/deep.json", std::string(100, '[') + std::string(100, ']'));
  dir.write("bad/negative.json",
            report("neg", 1, {passed("host_to_device_memcpy_ce", oneRow(1, -5))}));
  const std::string missing = dir.path() + "/does-not-exist.json";
  const FleetSummary s = summarize({dir.path(), missing});
  EXPECT_EQ(s.nodes.size(), 3u);
  std::map<std::string, std::string> reasons;
  for (const UnreadableReport& u : s.unreadable) reasons[fs::path(u.file).filename()] = u.reason;
  EXPECT_EQ(reasons["empty.json"], "is empty, not a report");
  EXPECT_NE(reasons["truncated.json"].find("not JSON at byte 41"), std::string::npos)
      << reasons["truncated.json"];  // one past the end, as for --compare
  EXPECT_NE(reasons["listing.json"].find("has no \"testcases\""), std::string::npos);
  EXPECT_NE(reasons["array.json"].find("is array, not an object"), std::string::npos);
  EXPECT_NE(reasons["utf8.json"].find("ill-formed UTF-8"), std::string::npos);
  EXPECT_EQ(reasons["deep.json"], "nested more than 64 levels deep");
  EXPECT_NE(reasons["negative.json"].find("-5 is not a bandwidth"), std::string::npos);
  EXPECT_EQ(reasons["does-not-exist.json"], "No such file or directory");
  EXPECT_EQ(s.unreadable.size(), 8u);
  EXPECT_EQ(s.flaggedNodes(), 0u);
  EXPECT_EQ(fleetSummaryExitStatus(s), 3);  // nodes whose health is unknown
  EXPECT_NE(fleetSummaryText(s).find("Summary: 3 nodes, 0 flagged, 8 unreadable."),
            std::string::npos);
}

// The reasons of what the summary reads are readReport's, word for word.
TEST(FleetSummaryReading, ProblemsAreSaidAsReadReportSaysThem) {
  json wide = report("w", 1, {passed("device_to_device_memcpy_read_ce", square(2, 300))});
  json bogus = report("b", 1, {passed("host_to_device_memcpy_ce", oneRow(1, 50))});
  bogus["nvbandwidth"]["testcases"][0]["status"] = "Fine";
  json noName = report("n", 1, {passed("host_to_device_memcpy_ce", oneRow(1, 50))});
  noName["nvbandwidth"]["testcases"][0].erase("name");
  json ragged = report("r", 2, {passed("host_to_device_memcpy_ce", oneRow(2, 50))});
  ragged["nvbandwidth"]["testcases"][0]["values"] =
      json::array({json::array({1.0}), json::array({1.0, 2.0})});
  json slowLatency = report("l", 1, {passed("host_device_latency_sm", oneRow(1, 2e9), "ns")});
  json stringCell = report("s", 1, {passed("host_to_device_memcpy_ce", oneRow(1, 50))});
  stringCell["nvbandwidth"]["testcases"][0]["values"][0][0] = "50";
  json badPercent = report("p", 1, {passed("host_to_device_memcpy_ce", oneRow(1, 50), "GB/s", 63)});
  badPercent["nvbandwidth"]["testcases"][0]["percent_of_peak"][0][0] = -1;
  json badUnit = report("u", 1, {passed("host_to_device_memcpy_ce", oneRow(1, 50), "MB/s")});
  // Above 0 but below any bandwidth: a median of it made a percent of median of infinity.
  json tiny = report("t", 1, {passed("host_to_device_memcpy_ce", oneRow(1, 4.9e-324))});
  json tinyPercent =
      report("q", 1, {passed("host_to_device_memcpy_ce", oneRow(1, 50), "GB/s", 63)});
  tinyPercent["nvbandwidth"]["testcases"][0]["percent_of_peak"][0][0] = 1e-300;
  ReportDir dir;
  for (const auto& [name, doc] :
       std::vector<std::pair<std::string, json>>{{"wide", wide},
                                                 {"bogus", bogus},
                                                 {"noname", noName},
                                                 {"ragged", ragged},
                                                 {"latency", slowLatency},
                                                 {"string", stringCell},
                                                 {"percent", badPercent},
                                                 {"unit", badUnit},
                                                 {"tiny", tiny},
                                                 {"tinypercent", tinyPercent}}) {
    const std::string path = dir.write(name + ".json", doc);
    std::string expected;
    try {
      readReport({"--summarize", path}, ReadOptions{ReportKind::Run}, {});
      ADD_FAILURE() << name << ": readReport accepted it";
    } catch (const ReportFileError& e) {
      expected = e.what();
      expected.erase(0, NamedFile{"--summarize", path}.label().size() + 2);
    }
    const FleetSummary s = summarize({path});
    ASSERT_EQ(s.unreadable.size(), 1u) << name;
    EXPECT_EQ(s.unreadable[0].reason, expected) << name;
  }
}

TEST(FleetSummaryReading, UpstreamReportsAreReadAndNamedByTheirHost) {
  ReportDir dir;
  const std::string upstream = std::string(NVBW_GOLDEN_DIR) + "/upstream/default.json";
  json anonymous = json::parse(nvbw::test::readFile(upstream));
  anonymous["nvbandwidth"]["GPU Device list"][0] = "0: NVIDIA H200 (00000000:00:06)";
  const std::string named = dir.write("rack7-node3.json", anonymous);
  const FleetSummary s = summarize({upstream, named});
  ASSERT_EQ(s.nodes.size(), 2u);
  EXPECT_EQ(s.nodes[0].name, "vm");
  EXPECT_EQ(s.nodes[0].hostSource, "GPU Device list");
  EXPECT_TRUE(s.nodes[0].upstream);
  EXPECT_EQ(s.nodes[1].name, "rack7-node3");
  EXPECT_EQ(s.nodes[1].hostSource, "file name");
  EXPECT_EQ(s.groups.at(0).name, "1 x NVIDIA H200");
  const std::size_t h2d = column(s, "host_to_device_memcpy_ce");
  EXPECT_NEAR(s.nodes[0].cells[h2d].sum, 55.485873873, 1e-9);  // upstream's SUM as it wrote it
  EXPECT_NEAR(s.nodes[0].cells[h2d].worst, 55.4859, 1e-9);     // its string cell
  EXPECT_EQ(s.nodes[0].cells[column(s, "device_to_device_memcpy_read_ce")].status,
            FleetStatus::Waived);
  EXPECT_NE(fleetSummaryText(s).find("rack7-node3: no host name recorded"), std::string::npos);
}

TEST(FleetSummaryReading, UpstreamsStackedBidirectionalMatricesAreSplit) {
  json doc = report("up", 2, {});
  doc["nvbandwidth"].erase("schema_version");
  json stacked = json::array();
  for (const char* v :
       {"N/A", "301", "302", "N/A", "N/A", "303", "304", "N/A", "N/A", "605", "606", "N/A"})
    stacked.push_back(v);
  json rows = json::array();
  for (int r = 0; r < 6; ++r) rows.push_back({stacked[2 * r], stacked[2 * r + 1]});
  doc["nvbandwidth"]["testcases"] = json::array(
      {{{"name", "device_to_device_bidirectional_memcpy_read_ce"},
        {"status", "Passed"},
        {"bandwidth_description", "memcpy CE GPU(row) <-> GPU(column) bandwidth (GB/s)"},
        {"bandwidth_matrix", rows},
        {"sum", 2421.0}}});
  ReportDir dir;
  const FleetSummary s = summarize({dir.write("up.json", doc)});
  ASSERT_EQ(s.columns.size(), 3u);
  EXPECT_EQ(s.columns[0].key, "device_to_device_bidirectional_memcpy_read_ce_read1");
  EXPECT_EQ(s.columns[2].key, "device_to_device_bidirectional_memcpy_read_ce_total");
  EXPECT_EQ(s.columns[2].testcase, "device_to_device_bidirectional_memcpy_read_ce");
  EXPECT_EQ(s.nodes[0].cells[2].sum, 1211.0);
  EXPECT_EQ(s.nodes[0].cells[1].worst, 303.0);
  EXPECT_EQ(s.nodes[0].cells[1].worstCell, "GPU 0 <-> GPU 1");
}

TEST(FleetSummaryReading, TheHostnameKeyWinsAndTwoReportsOfOneHostAreBothKept) {
  ReportDir dir;
  json keyed = report("from-devices", 1, {passed("host_to_device_memcpy_ce", oneRow(1, 50))});
  keyed["nvbandwidth"]["hostname"] = "gpu-17";
  dir.write("1/a.json", keyed);
  dir.write("2/a.json", keyed);
  dir.write("3/a.json", keyed);
  const FleetSummary s = summarize({dir.path()});
  ASSERT_EQ(s.nodes.size(), 3u);
  EXPECT_EQ(s.nodes[0].name, "gpu-17");
  EXPECT_EQ(s.nodes[1].name, "gpu-17#2");
  EXPECT_EQ(s.nodes[2].name, "gpu-17#3");
  EXPECT_EQ(s.nodes[2].host, "gpu-17");
  EXPECT_EQ(s.nodes[2].hostSource, "hostname");
  EXPECT_NE(s.nodes[1].file.find("2/a.json"), std::string::npos);
  EXPECT_NE(fleetSummaryText(s).find("gpu-17#2: a further report of host gpu-17"),
            std::string::npos);
}

TEST(FleetSummaryReading, TheSelectionNamesTestcasesOrMatrices) {
  ReportDir dir;
  const std::vector<json> entries = {
      passed("host_to_device_memcpy_ce", oneRow(2, 50)),
      passed("device_to_device_bidirectional_memcpy_read_ce_read1", square(2, 300)),
      passed("device_to_device_bidirectional_memcpy_read_ce_read2", square(2, 300)),
      passed("device_to_device_bidirectional_memcpy_read_ce_total", square(2, 600)),
      passed("device_local_copy", oneRow(2, 2000))};
  std::vector<json> tagged = entries;
  for (std::size_t i = 1; i < 4; ++i)
    tagged[i]["testcase"] = "device_to_device_bidirectional_memcpy_read_ce";
  dir.write("a.json", report("a", 2, tagged));
  std::vector<json> failed = {entries[0], notPassed("device_to_device_bidirectional_memcpy_read_ce",
                                                    "ERROR", "CUDA_ERROR_ILLEGAL_ADDRESS")};
  dir.write("b.json", report("b", 2, failed));
  SummaryOptions options;
  options.testcases = {"device_to_device_bidirectional_memcpy_read_ce", "device_local_copy",
                       "no_such_testcase"};
  const FleetSummary s = summarize({dir.path()}, options);
  std::vector<std::string> keys;
  for (const FleetColumn& c : s.columns) keys.push_back(c.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"device_to_device_bidirectional_memcpy_read_ce_read1",
                                            "device_to_device_bidirectional_memcpy_read_ce_read2",
                                            "device_to_device_bidirectional_memcpy_read_ce_total",
                                            "device_local_copy"}));
  // The failed testcase's entry stands for all three of its matrices.
  for (std::size_t c = 0; c < 3; ++c) EXPECT_EQ(node(s, "b").cells[c].status, FleetStatus::Failed);
  EXPECT_EQ(node(s, "b").cells[3].status, FleetStatus::Missing);
  EXPECT_EQ(fleetSummaryJson(s)["nodes"][1]["failed"],
            json::array({"device_to_device_bidirectional_memcpy_read_ce"}));
  EXPECT_EQ(s.notes,
            std::vector<std::string>{"selected testcase no_such_testcase is in no report"});
}

// ---- the views --------------------------------------------------------------------------------

// A fleet with everything the views show: flagged cells, a failed, waived and missing testcase,
// a group too small to judge, an unreadable file, a hostile host name.
FleetSummary showcase(const ReportDir& dir) {
  for (int i = 0; i < 6; ++i) {
    Rows d2d = square(4, 380.0 * healthy(i) / 50);
    if (i == 2) d2d[1][3] = 200.0;
    std::vector<json> entries = {
        passed("host_to_device_memcpy_ce", oneRow(4, i == 5 ? 30.0 : healthy(i)), "GB/s", 63.0),
        passed("device_to_device_memcpy_read_ce", d2d, "GB/s", 478.125),
        passed("host_device_latency_sm", oneRow(4, 600.0), "ns"),
        passed("device_local_copy", oneRow(4, 2000.0))};
    if (i == 1) entries[3] = notPassed("device_local_copy", "ERROR", "mismatch <b>&amp;");
    if (i == 3) entries[3] = notPassed("device_local_copy", "Waived", "no");
    if (i == 4) entries.pop_back();
    const std::string host = i == 0 ? "evil<script>\x1b[2J\"'&" : "node" + std::to_string(i);
    dir.write("n" + std::to_string(i) + ".json", report(host, 4, entries, "NVIDIA H200", true));
  }
  dir.write("small.json", report("lonely", 1, {passed("host_to_device_memcpy_ce", oneRow(1, 5))}));
  dir.write("zz-bad.json", std::string("{\"nvbandwidth\": 1}"));
  return summarize({dir.path()});
}

TEST(FleetSummaryViews, TextHasTheTableTheReasonsAndTheSummaryLine) {
  ReportDir dir;
  const FleetSummary s = showcase(dir);
  EXPECT_EQ(flaggedNames(s), (std::vector<std::string>{"node1", "node2", "node5"}));
  const std::string text = fleetSummaryText(s);
  EXPECT_EQ(text.substr(text.rfind("Summary:")), "Summary: 7 nodes, 3 flagged, 1 unreadable.\n");
  // Table lines fit 80 columns; flagged cells are marked.
  const std::size_t table = text.find("\nPercent of the group median");
  const std::size_t end = text.find("\nMissing testcases");
  ASSERT_NE(table, std::string::npos);
  ASSERT_NE(end, std::string::npos);
  std::istringstream lines(text.substr(table + 1, end - table - 1));
  std::string line;
  std::getline(lines, line);  // the legend
  std::size_t rows = 0;
  while (std::getline(lines, line)) {
    EXPECT_LE(line.size(), 80u) << line;
    rows += line.rfind("node2 ", 0) == 0 && line.find('*') != std::string::npos;
  }
  EXPECT_EQ(rows, 1u);
  EXPECT_NE(text.find("evil<script>\\x1b[2J\"'&"), std::string::npos);  // escaped, not raw
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
  EXPECT_NE(text.find("node4: device_local_copy"), std::string::npos);
  EXPECT_NE(text.find("zz-bad.json: not a usable report: nvbandwidth: is number, not an object"),
            std::string::npos)
      << text;
}

TEST(FleetSummaryViews, JsonMatchesTheSchema) {
  ASSERT_EQ(access(kPython.c_str(), X_OK), 0) << kPython << " is missing";
  ReportDir dir;
  const FleetSummary s = showcase(dir);
  const json doc = {{"nvbandwidth",
                     {{"version", "v0.8"}, {"git_version", ""}, {"summary", fleetSummaryJson(s)}}}};
  const json& summary = doc["nvbandwidth"]["summary"];
  EXPECT_EQ(summary["counts"]["flagged"], 3);
  EXPECT_EQ(summary["exit_status"], 3);
  EXPECT_EQ(summary["nodes"].size(), 7u);
  EXPECT_EQ(summary["nodes"][2]["results"][1]["worst_flagged"], true);
  EXPECT_EQ(summary["nodes"][2]["results"][1]["worst_cell"], "GPU 1 -> GPU 3");
  std::ostringstream styled;
  writeStyledJson(styled, doc);
  const nvbw::test::TempFile file("fleet_summary", styled.str());
  const nvbw::test::RunResult run =
      nvbw::test::runProgram(nvbw::test::RunSpec(kPython, {kValidator, kSchema, file.path()}));
  EXPECT_EQ(run.exitCode, 0) << run.out << run.err;
  // And the schema rejects a summary with a node that lost a key.
  json broken = doc;
  broken["nvbandwidth"]["summary"]["nodes"][0].erase("results");
  const nvbw::test::TempFile bad("fleet_summary_bad", broken.dump());
  EXPECT_EQ(nvbw::test::runProgram(nvbw::test::RunSpec(kPython, {kValidator, kSchema, bad.path()}))
                .exitCode,
            1);
}

constexpr const char* kPageReader = R"PY(
import json, sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
rows = []
for tr in root.iter('tr'):
    if tr.get('data-node') is None: continue
    cells = [td for td in tr if td.tag == 'td']
    rows.append({'node': tr.get('data-node'), 'cells': len(cells),
                 'flagged': sum('flagged' in (td.get('class') or '') for td in cells),
                 'texts': [''.join(td.itertext()) for td in cells]})
urls = [v for e in root.iter() for k, v in e.attrib.items() if '://' in v or k in ('href', 'src')]
print(json.dumps({'rows': rows, 'urls': urls, 'scripts': len(list(root.iter('script')))}))
)PY";

TEST(FleetSummaryViews, HtmlIsOneXmlPageWithACellPerNodeAndTestcase) {
  ASSERT_EQ(access(kPython.c_str(), X_OK), 0) << kPython << " is missing";
  ReportDir dir;
  const FleetSummary s = showcase(dir);
  const nvbw::test::TempFile page("fleet_summary_html", fleetSummaryHtml(s));
  const nvbw::test::RunResult run =
      nvbw::test::runProgram(nvbw::test::RunSpec(kPython, {"-c", kPageReader, page.path()}));
  ASSERT_EQ(run.exitCode, 0) << "not well-formed XML:\n" << run.err;
  const json found = json::parse(run.out);
  EXPECT_TRUE(found["urls"].empty());
  EXPECT_EQ(found["scripts"], 0);
  ASSERT_EQ(found["rows"].size(), s.nodes.size());
  std::size_t flaggedCells = 0;
  for (std::size_t n = 0; n < s.nodes.size(); ++n) {
    if (n > 0) {
      EXPECT_EQ(found["rows"][n]["node"], s.nodes[n].name);  // node 0's ESC became U+FFFD
    }
    EXPECT_EQ(found["rows"][n]["cells"], s.columns.size());
    for (const FleetCell& c : s.nodes[n].cells) flaggedCells += c.flagged();
  }
  std::size_t framed = 0;
  for (const json& row : found["rows"]) framed += row["flagged"].get<std::size_t>();
  EXPECT_EQ(framed, flaggedCells);
  EXPECT_EQ(found["rows"][1]["texts"][3], "ERR");
  EXPECT_EQ(found["rows"][3]["texts"][3], "W");
  EXPECT_EQ(found["rows"][4]["texts"][3], "-");
}

}  // namespace test_fleet_summary
