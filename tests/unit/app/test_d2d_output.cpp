// The device-to-device testcases end to end without a GPU: whole runs of the application core
// (command line -> selection -> registry plan builders -> runner -> text and JSON output) on the
// fake platform of tests/support, compared with goldens in tests/golden/d2d. The fake's values
// say which copy landed in which cell (fake_platform.h).
// Regenerate the goldens with NVBW_UPDATE_GOLDEN=1 and review the diff.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "app/options.h"
#include "app/selection.h"
#include "app/testcase_loop.h"
#include "engine/executor.h"
#include "fake_platform.h"
#include "fake_topology.h"
#include "golden.h"
#include "model/json_style.h"
#include "output_fixtures.h"
#include "plans/plan.h"
#include "plans/registry.h"
#include "platform/topology.h"
#include "registry_counts.h"
#include "report/output.h"
#include "text_search.h"

namespace nvbw {
namespace test_d2d_output {

using nlohmann::json;
using test::expectGolden;
using test::systemWith;

// ---- Running the whole pipeline -------------------------------------------------------------

// Indices of v0.8's device-to-device testcases (docs/compatibility.md#u2).
const std::vector<std::size_t> kD2dIndices = {4,  5,  6,  7,  12, 13, 14, 15, 20,
                                              21, 22, 23, 28, 29, 30, 31, 33};
// The TMA ones of v0.10 (48-51, and the TMA latency at 56) are waived on one GPU too.
const std::vector<std::size_t> kTmaD2dIndices = {48, 49, 50, 51, 56};

std::vector<std::string> d2dSelection() {
  std::vector<std::string> args = {"-t"};
  for (std::size_t i : kD2dIndices) args.push_back(std::to_string(i));
  return args;
}

// The goldens of the larger forms (JSON, -v text) hold one testcase of each kind, so that a
// reviewer can read them: a peer copy, a bidirectional one of three matrices, a fan, the peer
// latency (the text golden above holds all 17).
std::vector<std::string> goldenSelection() {
  return {"-t", "device_to_device_memcpy_read_ce", "device_to_device_bidirectional_memcpy_read_ce",
          "all_to_one_write_ce", "device_to_device_latency_sm"};
}

std::vector<std::string> withFlags(std::vector<std::string> flags,
                                   const std::vector<std::string>& args) {
  flags.insert(flags.end(), args.begin(), args.end());
  return flags;
}

// 4 GPUs; 1 and 2 cannot access each other in either direction.
FakeTopology fourGpus() {
  FakeTopology topo(4);
  topo.setPeerAccess(1, 2, false);
  topo.setPeerAccess(2, 1, false);
  return topo;
}

struct Outcome {
  std::string out;
  std::string err;
  int exitCode = -1;
  int passed = 0;  // "Running" lines, or JSON entries' testcases that passed
  int waived = 0;
  int errors = 0;
};

using test::countOf;

// The JSON "timing", "memory" and "operations" objects hold the run's costs (wall times vary from
// run to run; what is allocated, filled and checked is the executor's business, counted by its own
// tests), "started_at" the clock: goldens leave them out.
std::string withoutTiming(const std::string& out) {
  if (out.empty() || out[0] != '{') return out;
  json doc = json::parse(out);
  for (const char* varying : {"timing", "memory", "operations", "started_at"}) {
    EXPECT_TRUE(doc["nvbandwidth"].contains(varying)) << varying;
    doc["nvbandwidth"].erase(varying);
  }
  return styledJson(doc) + "\n";
}

// A whole run of the application core on the fake platform (fake_platform.h).
Outcome runNvbandwidth(const FakeTopology& topo, const std::vector<std::string>& args) {
  const test::AppRun run = test::runApp(args, test::fakePlatform(topo));
  Outcome o{withoutTiming(run.out), run.err, run.exitCode};
  o.passed = countOf(run.out, "Running ");
  o.waived = countOf(run.out, "Waived: ");
  o.errors = countOf(run.out, "ERROR: ");
  if (!o.out.empty() && o.out[0] == '{') {
    std::set<std::string> passedTestcases;
    const json doc = json::parse(o.out);
    for (const json& t : doc["nvbandwidth"]["testcases"]) {
      const std::string testcase = t.value("testcase", t["name"].get<std::string>());
      if (t["status"] == "Passed") passedTestcases.insert(testcase);
      o.waived += t["status"] == "Waived";
      o.errors += t["status"] == "ERROR";
    }
    o.passed = static_cast<int>(passedTestcases.size());
  }
  return o;
}

void expectAllPassed(const Outcome& o, int count) {
  EXPECT_EQ(o.passed, count);
  EXPECT_EQ(o.waived, 0);
  EXPECT_EQ(o.errors, 0);
  EXPECT_EQ(o.exitCode, 0);
  EXPECT_EQ(o.err, "");
}

// ---- Goldens ----------------------------------------------------------------------------------

TEST(D2dOutput, FourGpusTextMatchesGolden) {
  const Outcome o = runNvbandwidth(fourGpus(), d2dSelection());
  expectAllPassed(o, 17);
  expectGolden("d2d/text_four_gpu.txt", o.out);
}

TEST(D2dOutput, FourGpusVerboseTextMatchesGolden) {
  const Outcome o = runNvbandwidth(fourGpus(), withFlags({"-v"}, goldenSelection()));
  expectAllPassed(o, 4);
  EXPECT_EQ(o.out.find("nan"), std::string::npos);
  expectGolden("d2d/text_four_gpu_verbose.txt", o.out);
}

TEST(D2dOutput, FourGpusJsonMatchesGolden) {
  const Outcome o = runNvbandwidth(fourGpus(), withFlags({"-j"}, goldenSelection()));
  expectAllPassed(o, 4);
  expectGolden("d2d/json_four_gpu.json", o.out);
}

// -v adds each matrix's MIN, MAX and AVG over its present cells to its entry, and nothing else.
TEST(D2dOutput, FourGpusVerboseJsonAddsMinMaxAndAverage) {
  const Outcome plain = runNvbandwidth(fourGpus(), withFlags({"-j"}, d2dSelection()));
  const Outcome verbose = runNvbandwidth(fourGpus(), withFlags({"-j", "-v"}, d2dSelection()));
  expectAllPassed(verbose, 17);
  json doc = json::parse(verbose.out);
  for (json& entry : doc["nvbandwidth"]["testcases"]) {
    SCOPED_TRACE(entry["name"].get<std::string>());
    std::vector<double> present;
    for (const json& row : entry["values"])
      for (const json& v : row)
        if (v.is_number()) present.push_back(v.get<double>());
    ASSERT_FALSE(present.empty());
    double sum = 0;
    for (double v : present) sum += v;
    EXPECT_EQ(entry["min"], *std::min_element(present.begin(), present.end()));
    EXPECT_EQ(entry["max"], *std::max_element(present.begin(), present.end()));
    EXPECT_DOUBLE_EQ(entry["average"].get<double>(), sum / static_cast<double>(present.size()));
    for (const char* key : {"min", "max", "average"}) entry.erase(key);
  }
  EXPECT_EQ(doc, json::parse(plain.out));
}

TEST(D2dOutput, TwoGpusTextMatchesGolden) {
  const Outcome o = runNvbandwidth(FakeTopology(2), d2dSelection());
  expectAllPassed(o, 17);
  expectGolden("d2d/text_two_gpu.txt", o.out);
}

// The default run (no -t): every testcase in registry order, the peer ones waived with a reason.
TEST(D2dOutput, OneGpuDefaultRunMatchesGolden) {
  const Outcome o = runNvbandwidth(FakeTopology(1), {});
  const int peerTestcases = static_cast<int>(kD2dIndices.size() + kTmaD2dIndices.size());
  EXPECT_EQ(o.passed, test::countsOn(FakeTopology(1)).runs);
  EXPECT_EQ(o.waived, peerTestcases);
  EXPECT_EQ(o.errors, 0);
  EXPECT_EQ(o.exitCode, 0);
  // The reasons: stderr, one line each.
  EXPECT_EQ(countOf(o.err, " waived: "), peerTestcases) << o.err;
  expectGolden("d2d/text_one_gpu_all.txt", o.out);
}

// ---- What the goldens should show, checked independently ----------------------------------

TEST(D2dOutput, PeerTestcasesAreTheOnesWaivedOnOneGpu) {
  const std::vector<TestcaseDef> registry = makeRegistry();
  const FakeTopology one(1);
  std::vector<std::size_t> waived;
  for (const TestcaseDef& def : registry)
    if (waiveReasonFor(def, one)) waived.push_back(def.index);
  std::vector<std::size_t> expected = kD2dIndices;
  expected.insert(expected.end(), kTmaD2dIndices.begin(), kTmaD2dIndices.end());
  EXPECT_EQ(waived, expected);
}

// stdout: upstream's bare "Waived: " per waived testcase; stderr: which and why, in order.
TEST(D2dOutput, OneGpuWaiversNameTestcaseAndReasonOnStderr) {
  const Outcome o = runNvbandwidth(FakeTopology(1), {});
  const std::vector<TestcaseDef> registry = makeRegistry();
  EXPECT_EQ(countOf(o.out, "\nWaived: \n"), 22) << o.out;
  std::size_t at = 0;
  for (std::size_t i : kD2dIndices) {
    const std::string line = "NOTE: " + registry[i].key +
                             " waived: needs two GPUs with peer access; this system has 1 GPU\n";
    const std::size_t found = o.err.find(line, at);
    EXPECT_NE(found, std::string::npos) << line;
    at = found == std::string::npos ? at : found;
    EXPECT_EQ(o.out.find("Running " + registry[i].key + "."), std::string::npos);
    EXPECT_EQ(o.out.find(registry[i].key + ":"), std::string::npos);
  }
}

json testcasesOf(const Outcome& o) { return json::parse(o.out).at("nvbandwidth").at("testcases"); }

// One JSON entry per matrix (docs/compatibility.md#c9), named like the SUM key, with upstream's
// titles (docs/compatibility.md#u4), in registry order.
TEST(D2dOutput, JsonEntryPerMatrixWithUpstreamTitles) {
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"device_to_device_memcpy_read_ce", "memcpy CE GPU(row) -> GPU(column) bandwidth (GB/s)"},
      {"device_to_device_memcpy_write_ce", "memcpy CE GPU(row) <- GPU(column) bandwidth (GB/s)"},
      {"device_to_device_bidirectional_memcpy_read_ce_read1",
       "memcpy CE GPU(row) <-> GPU(column) Read1 bandwidth (GB/s)"},
      {"device_to_device_bidirectional_memcpy_read_ce_read2",
       "memcpy CE GPU(row) <-> GPU(column) Read2 bandwidth (GB/s)"},
      {"device_to_device_bidirectional_memcpy_read_ce_total",
       "memcpy CE GPU(row) <-> GPU(column) Total bandwidth (GB/s)"},
      {"device_to_device_bidirectional_memcpy_write_ce_write1",
       "memcpy CE GPU(row) <-> GPU(column) Write1 bandwidth (GB/s)"},
      {"device_to_device_bidirectional_memcpy_write_ce_write2",
       "memcpy CE GPU(row) <-> GPU(column) Write2 bandwidth (GB/s)"},
      {"device_to_device_bidirectional_memcpy_write_ce_total",
       "memcpy CE GPU(row) <-> GPU(column) Total bandwidth (GB/s)"},
      {"all_to_one_write_ce", "memcpy CE GPU(row) <- GPU(column) bandwidth (GB/s)"},
      {"all_to_one_read_ce", "memcpy CE GPU(row) -> GPU(column) bandwidth (GB/s)"},
      {"one_to_all_write_ce", "memcpy CE GPU(row) -> GPU(column) bandwidth (GB/s)"},
      {"one_to_all_read_ce", "memcpy CE GPU(row) <- GPU(column) bandwidth (GB/s)"},
      {"device_to_device_memcpy_read_sm", "memcpy SM GPU(row) -> GPU(column) bandwidth (GB/s)"},
      {"device_to_device_memcpy_write_sm", "memcpy SM GPU(row) <- GPU(column) bandwidth (GB/s)"},
      {"device_to_device_bidirectional_memcpy_read_sm_read1",
       "memcpy SM GPU(row) <-> GPU(column) Read1 bandwidth (GB/s)"},
      {"device_to_device_bidirectional_memcpy_read_sm_read2",
       "memcpy SM GPU(row) <-> GPU(column) Read2 bandwidth (GB/s)"},
      {"device_to_device_bidirectional_memcpy_read_sm_total",
       "memcpy SM GPU(row) <-> GPU(column) Total bandwidth (GB/s)"},
      {"device_to_device_bidirectional_memcpy_write_sm_write1",
       "memcpy SM GPU(row) <-> GPU(column) Write1 bandwidth (GB/s)"},
      {"device_to_device_bidirectional_memcpy_write_sm_write2",
       "memcpy SM GPU(row) <-> GPU(column) Write2 bandwidth (GB/s)"},
      {"device_to_device_bidirectional_memcpy_write_sm_total",
       "memcpy SM GPU(row) <-> GPU(column) Total bandwidth (GB/s)"},
      {"all_to_one_write_sm", "memcpy SM GPU(row) <- GPU(column) bandwidth (GB/s)"},
      {"all_to_one_read_sm", "memcpy SM GPU(row) -> GPU(column) bandwidth (GB/s)"},
      {"one_to_all_write_sm", "memcpy SM GPU(row) -> GPU(column) bandwidth (GB/s)"},
      {"one_to_all_read_sm", "memcpy SM GPU(row) <- GPU(column) bandwidth (GB/s)"},
      {"device_to_device_latency_sm", "Device to Device Latency SM GPU(row) <-> GPU(column) (ns)"},
  };
  const Outcome o = runNvbandwidth(fourGpus(), withFlags({"-j"}, d2dSelection()));
  std::vector<std::pair<std::string, std::string>> actual;
  for (const json& t : testcasesOf(o)) {
    EXPECT_EQ(t.at("status"), "Passed") << t.at("name");
    actual.emplace_back(t.at("name"), t.at("bandwidth_description"));
  }
  EXPECT_EQ(actual, expected);

  // The text output prints the same titles, each followed by its SUM line.
  const Outcome text = runNvbandwidth(fourGpus(), d2dSelection());
  std::size_t from = 0;
  for (const auto& [key, title] : expected) {
    const std::size_t at = text.out.find(title + "\n", from);
    ASSERT_NE(at, std::string::npos) << title;
    const std::size_t sum = text.out.find("\nSUM " + key + " ", at);
    ASSERT_NE(sum, std::string::npos) << key;
    from = sum;
  }
}

// The fake's value for copy number `copyIndex` of a measurement, src -> dst.
double v(int src, int dst, int copyIndex) { return 100.0 + 10 * src + dst + 0.25 * copyIndex; }

// The cell each copy lands in, for 4 GPUs where 1 and 2 are no peers: N×N cells are N/A on the
// diagonal and for (1,2)/(2,1); the fans sum the copies with every peer, in device order.
TEST(D2dOutput, JsonCellsHoldTheExpectedCopies) {
  const int n = 4;
  auto peers = [](int a, int b) { return a != b && !((a == 1 && b == 2) || (a == 2 && b == 1)); };
  using Cell = std::function<double(int r, int c)>;
  const Cell read = [](int r, int c) { return v(c, r, 0); };   // c -> r
  const Cell write = [](int r, int c) { return v(r, c, 0); };  // r -> c
  const Cell second = [](int r, int c) { return v(r, c, 1); };
  const Cell both = [](int r, int c) { return v(c, r, 0) + v(r, c, 1); };
  const Cell latency = [](int r, int c) { return 500.0 + 10 * r + c; };
  std::map<std::string, Cell> square;
  for (const std::string e : {"ce", "sm"}) {
    square["device_to_device_memcpy_read_" + e] = read;
    square["device_to_device_memcpy_write_" + e] = write;
    for (const std::string dir : {"read", "write"}) {
      const std::string key = "device_to_device_bidirectional_memcpy_" + dir + "_" + e + "_";
      square[key + dir + "1"] = read;
      square[key + dir + "2"] = second;
      square[key + "total"] = both;
    }
  }
  square["device_to_device_latency_sm"] = latency;
  // Fans: the value of copy k -> d (inbound) or d -> k (outbound) for the i-th peer k of d.
  using Fan = std::function<double(int d, int k, int i)>;
  const Fan inbound = [](int d, int k, int i) { return v(k, d, i); };
  const Fan outbound = [](int d, int k, int i) { return v(d, k, i); };
  std::map<std::string, Fan> fans;
  for (const std::string e : {"ce", "sm"}) {
    fans["all_to_one_write_" + e] = inbound;
    fans["all_to_one_read_" + e] = outbound;
    fans["one_to_all_write_" + e] = outbound;
    fans["one_to_all_read_" + e] = inbound;
  }

  const Outcome o = runNvbandwidth(fourGpus(), withFlags({"-j"}, d2dSelection()));
  std::size_t checked = 0;
  for (const json& t : testcasesOf(o)) {
    const std::string name = t.at("name");
    const json& cells = t.at("bandwidth_matrix");
    if (square.count(name)) {
      ASSERT_EQ(cells.size(), 4u) << name;
      double sum = 0.0;
      for (int r = 0; r < n; ++r) {
        ASSERT_EQ(cells[r].size(), 4u) << name;
        for (int c = 0; c < n; ++c) {
          const std::string cell = cells[r][c];
          if (!peers(r, c)) {
            EXPECT_EQ(cell, "N/A") << name << " [" << r << "][" << c << "]";
            continue;
          }
          const double expected = square[name](r, c);
          EXPECT_DOUBLE_EQ(std::stod(cell), expected) << name << " [" << r << "][" << c << "]";
          sum += expected;
        }
      }
      EXPECT_DOUBLE_EQ(t.at("sum").get<double>(), sum) << name;
    } else {
      ASSERT_TRUE(fans.count(name)) << "unexpected entry " << name;
      ASSERT_EQ(cells.size(), 1u) << name;
      ASSERT_EQ(cells[0].size(), 4u) << name;
      for (int d = 0; d < n; ++d) {
        double expected = 0.0;
        int i = 0;
        for (int k = 0; k < n; ++k)
          if (peers(d, k)) expected += fans[name](d, k, i++);
        EXPECT_DOUBLE_EQ(std::stod(cells[0][d].get<std::string>()), expected)
            << name << " [0][" << d << "]";
      }
    }
    ++checked;
  }
  EXPECT_EQ(checked, 25u);
}

// MIN/MAX/AVG skip N/A cells (docs/compatibility.md#c8): MIN is the smallest measured cell, never
// 0.
TEST(D2dOutput, VerboseStatisticsIgnoreNotAvailableCells) {
  const Outcome o = runNvbandwidth(fourGpus(), withFlags({"-j", "-v"}, d2dSelection()));
  for (const json& t : testcasesOf(o)) {
    double lo = 1e300, hi = -1e300, sum = 0.0;
    int count = 0;
    for (const json& row : t.at("bandwidth_matrix"))
      for (const json& cell : row) {
        if (cell == "N/A") continue;
        const double x = std::stod(cell.get<std::string>());
        lo = std::min(lo, x);
        hi = std::max(hi, x);
        sum += x;
        ++count;
      }
    ASSERT_GT(count, 0) << t.at("name");
    EXPECT_DOUBLE_EQ(t.at("min").get<double>(), lo) << t.at("name");
    EXPECT_DOUBLE_EQ(t.at("max").get<double>(), hi) << t.at("name");
    EXPECT_DOUBLE_EQ(t.at("average").get<double>(), sum / count) << t.at("name");
    EXPECT_GT(t.at("min").get<double>(), 0.0) << t.at("name");
  }
}

// A GPU without any peer leaves its fan cell N/A; SUM and the statistics skip it.
// The TMA chase has the SM chase's cells (peer pairs only, 1 and 2 N/A), its own title and the
// fake's TMA values (800 + 10 r + c); its SUM line adds them, and -v names every sample.
TEST(D2dOutput, TmaLatencyHasTheSmLatencyCells) {
  const Outcome text = runNvbandwidth(fourGpus(), {"-t", "33", "56"});
  expectAllPassed(text, 2);
  const std::string expected = "Running device_to_device_latency_tma.\n"
                               "memory latency TMA GPU(row) <-> GPU(column) (ns)\n"
                               "           0         1         2         3\n"
                               " 0       N/A    801.00    802.00    803.00\n"
                               " 1    810.00       N/A       N/A    813.00\n"
                               " 2    820.00       N/A       N/A    823.00\n"
                               " 3    830.00    831.00    832.00       N/A\n"
                               "\n"
                               "SUM device_to_device_latency_tma 8165.00\n";
  EXPECT_NE(text.out.find(expected), std::string::npos) << text.out;
  EXPECT_LT(text.out.find("Running device_to_device_latency_sm."),
            text.out.find("Running device_to_device_latency_tma."));

  const Outcome doc = runNvbandwidth(fourGpus(), {"-j", "-t", "33", "56"});
  const json entries = testcasesOf(doc);
  ASSERT_EQ(entries.size(), 2u);
  const json& sm = entries[0];
  const json& tma = entries[1];
  EXPECT_EQ(tma.at("name"), "device_to_device_latency_tma");
  EXPECT_EQ(tma.at("unit"), "ns");
  EXPECT_EQ(tma.at("bandwidth_description"), "memory latency TMA GPU(row) <-> GPU(column) (ns)");
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) {
      const std::string smCell = sm.at("bandwidth_matrix")[r][c];
      const std::string tmaCell = tma.at("bandwidth_matrix")[r][c];
      EXPECT_EQ(tmaCell == "N/A", smCell == "N/A") << r << "," << c;
      if (tmaCell != "N/A") {
        EXPECT_DOUBLE_EQ(std::stod(tmaCell), 800.0 + 10 * r + c);
      }
    }

  const Outcome verbose = runNvbandwidth(fourGpus(), {"-v", "-t", "56"});
  EXPECT_NE(verbose.out.find("\tSample 2: Device 3 reading Device 1: 831.00 ns\n"),
            std::string::npos)
      << verbose.out;
}

TEST(D2dOutput, FanCellOfAGpuWithoutPeersIsNotAvailable) {
  FakeTopology topo(3);
  for (int other : {0, 1}) {
    topo.setPeerAccess(2, other, false);
    topo.setPeerAccess(other, 2, false);
  }
  const Outcome o = runNvbandwidth(topo, {"-v", "-t", "12"});
  expectAllPassed(o, 1);
  const std::string title = "memcpy CE GPU(row) <- GPU(column) bandwidth (GB/s)\n";
  const std::size_t at = o.out.find(title);
  ASSERT_NE(at, std::string::npos) << o.out;
  const std::string expected = "           0         1         2\n"
                               " 0    110.00    101.00       N/A\n"
                               "\n"
                               "SUM all_to_one_write_ce 211.00\n"
                               "MIN all_to_one_write_ce 101.00\n"
                               "MAX all_to_one_write_ce 110.00\n"
                               "AVG all_to_one_write_ce 105.50\n"
                               "Cell statistics of all_to_one_write_ce (GB/s, median reported):\n"
                               "    cell  samples       min       max      mean    median    "
                               "stddev     CV(%)\n"
                               "  [0][0]        3    110.00    110.00    110.00    110.00      "
                               "0.00      0.00\n"
                               "  [0][1]        3    101.00    101.00    101.00    101.00      "
                               "0.00      0.00\n"
                               "\n";
  EXPECT_EQ(o.out.substr(at, o.out.find("NOTE: ", at) - at), title + expected);
  EXPECT_EQ(o.out.find("-> Device 2"), std::string::npos) << "no copy touches GPU 2";
  EXPECT_EQ(o.out.find("Device 2 ->"), std::string::npos) << "no copy touches GPU 2";
}

}  // namespace test_d2d_output
}  // namespace nvbw
