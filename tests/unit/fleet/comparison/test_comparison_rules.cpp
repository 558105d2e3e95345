// The verdict rules on real data: the reports of unchanged machines (tests/golden/run_to_run,
// four of one H200; tests/golden/run_to_run_x2, three of two H200s) must never fail against each
// other, in any order and with the others as the baseline, while a real regression of the same
// reports is SLOWER; and a run's suspect cells are re-judged by their confirmation runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/statistics.h"
#include "fleet/comparison/comparison.h"
#include "golden.h"
#include "report_documents.h"

namespace nvbw {
namespace test_comparison_rules {

using nlohmann::json;
using test::kGolden;
using test::readFile;

const std::vector<std::string> kRunToRun = {"base", "ours_1", "ours_2", "ours_3"};
const std::vector<std::string> kRunToRunX2 = {"issue11_full", "issue12_base", "issue12_second"};

json runToRun(const std::string& name) {
  return json::parse(readFile(kGolden + "/run_to_run/" + name + ".json"));
}

json runToRunX2(const std::string& name) {
  return json::parse(readFile(kGolden + "/run_to_run_x2/" + name + ".json"));
}

// The report with every cell made worse by `factor` (bandwidth divided, latency multiplied),
// samples and statistics alike: the same machine with a real regression.
json slowed(json doc, double factor) {
  for (json& entry : doc["nvbandwidth"]["testcases"]) {
    if (!entry.contains("values")) continue;
    const double f = entry["unit"] == "ns" ? factor : 1.0 / factor;
    for (json& row : entry["values"])
      for (json& v : row)
        if (v.is_number()) v = v.get<double>() * f;
    for (json& row : entry["cells"])
      for (json& cell : row) {
        if (cell.is_null()) continue;
        for (const char* key : {"min", "max", "mean", "median", "stddev"})
          cell[key] = cell[key].get<double>() * f;
        for (json& sample : cell["samples"]) sample = sample.get<double>() * f;
      }
  }
  return doc;
}

json confirmationOf(json e, unsigned run) {
  e["confirmation_run"] = run;
  return e;
}

bool failingCell(const ComparedCellRecord& cell) {
  return cell.verdict == verdictName(Verdict::Slower) ||
         cell.verdict == verdictName(Verdict::Unstable);
}

std::size_t failingCells(const ComparisonSection& c) {
  return countVerdict(c, Verdict::Slower) + countVerdict(c, Verdict::Unstable);
}

TEST(RunToRun, EveryOrderedPairOfTheUnchangedReportsPasses) {
  std::size_t cells = 0;
  for (const auto& [names, read] :
       {std::pair{kRunToRun, runToRun}, std::pair{kRunToRunX2, runToRunX2}})
    for (const std::string& a : names)
      for (const std::string& b : names) {
        if (a == b) continue;
        const ComparisonSection c = compareReports(read(a), read(b));
        EXPECT_EQ(failingCells(c), 0u) << a << " -> " << b << "\n" << comparisonText(c);
        EXPECT_EQ(countVerdict(c, Verdict::Faster), 0u) << a << " -> " << b << "\n"
                                                        << comparisonText(c);
        EXPECT_TRUE(c.onlyInBaseline->empty() && c.onlyInCurrent->empty());
        cells += c.cells->size();
      }
  EXPECT_EQ(cells, 12u * 21u + 6u * 108u);
}

// Each report against the machine's other reports as the baseline (their median and spread).
TEST(RunToRun, EveryUnchangedReportPassesAgainstTheOthers) {
  for (const auto& [names, read] :
       {std::pair{kRunToRun, runToRun}, std::pair{kRunToRunX2, runToRunX2}})
    for (const std::string& current : names) {
      Baseline others;
      for (const std::string& name : names)
        if (name != current) addDocument(others, read(name), "baseline " + name);
      const ComparisonSection c = compareWithBaseline(others, read(current));
      EXPECT_EQ(c.baselineReports, names.size() - 1);
      EXPECT_EQ(failingCells(c), 0u) << current << "\n" << comparisonText(c);
      EXPECT_EQ(countVerdict(c, Verdict::Same), c.cells->size()) << current << "\n"
                                                                 << comparisonText(c);
    }
}

// A cell at 80% is SLOWER wherever its band is under 10% (every cell but the host copies that
// move up to 11% between healthy runs, whose band is up to 17%); at 60% every cell is SLOWER.
TEST(RunToRun, ARealRegressionOfTheSameReportsIsSlower) {
  for (const std::string& a : kRunToRun)
    for (const std::string& b : kRunToRun) {
      const ComparisonSection c = compareReports(runToRun(a), slowed(runToRun(b), 1.25));
      for (const ComparedCellRecord& cell : *c.cells)
        if (*cell.bandPercent < 10.0) {
          EXPECT_EQ(cell.verdict, verdictName(Verdict::Slower))
              << a << " -> " << b << ": " << cell.name;
        }
      EXPECT_GE(countVerdict(c, Verdict::Slower), 14u) << a << " -> " << b;
      const ComparisonSection worse = compareReports(runToRun(a), slowed(runToRun(b), 1.0 / 0.6));
      EXPECT_EQ(countVerdict(worse, Verdict::Slower), worse.cells->size()) << a << " -> " << b;
    }
}

// The report with the cells of the host testcases (whose key starts with "host_") made 15% worse:
// a host link that lost bandwidth while everything else stayed.
json hostCellsSlowed(const json& doc) {
  json out = doc;
  json slowedDoc = slowed(doc, 1.0 / 0.85);
  json& entries = out["nvbandwidth"]["testcases"];
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (entries[i]["name"].get<std::string>().rfind("host_", 0) == 0)
      entries[i] = slowedDoc["nvbandwidth"]["testcases"][i];
  return out;
}

bool isHostCell(const ComparedCellRecord& cell) { return cell.name.rfind("host_", 0) == 0; }

bool isBidirectionalCe(const ComparedCellRecord& cell) {
  return cell.name.find("bidirectional_memcpy_ce") != std::string::npos;
}

// 15% off the host cells of each unchanged report: every host cell but the bidirectional CE ones
// (which move 11% between healthy runs: not judgeable below about 45%) is SLOWER in every order,
// no other cell fails, and the comparison fails (exit 3).
TEST(RunToRun, FifteenPercentOffTheHostCellsIsSlower) {
  for (const std::string& a : kRunToRun)
    for (const std::string& b : kRunToRun) {
      const ComparisonSection c = compareReports(runToRun(a), hostCellsSlowed(runToRun(b)));
      std::size_t judged = 0;
      for (const ComparedCellRecord& cell : *c.cells) {
        if (!isHostCell(cell)) {
          EXPECT_FALSE(failingCell(cell)) << a << " -> " << b << ": " << cell.name;
        } else if (!isBidirectionalCe(cell)) {
          ++judged;
          EXPECT_EQ(cell.verdict, verdictName(Verdict::Slower))
              << a << " -> " << b << ": " << cell.name;
        }
      }
      // To the GPU and to all (CE, SM), the bidirectional SM ones, and the latency.
      EXPECT_EQ(judged, 7u);
      EXPECT_TRUE(anyFailing(c)) << a << " -> " << b;
    }
}

// The same doctored report, judged as a run would: its confirmations are the other two reports,
// doctored alike (the link stays slow). The host cells are confirmed SLOWER; nothing else fails.
TEST(RunToRun, FifteenPercentOffTheHostCellsIsConfirmedSlower) {
  ComparisonSection c = compareReports(runToRun("base"), hostCellsSlowed(runToRun("ours_1")));
  json runs = json::array();
  for (unsigned run = 1; run <= 2; ++run) {
    const json doctored = hostCellsSlowed(runToRun(run == 1 ? "ours_2" : "ours_3"));
    for (const json& e : doctored["nvbandwidth"]["testcases"])
      if (e.contains("values")) runs.push_back(confirmationOf(e, run));
  }
  applyConfirmations(c, runs, {2, suspectTestcases(c), 1.0, 0});
  EXPECT_GE(countVerdict(c, Verdict::Slower), 7u) << comparisonText(c);
  for (const ComparedCellRecord& cell : *c.cells) {
    if (isHostCell(cell) && !isBidirectionalCe(cell)) {
      EXPECT_EQ(cell.verdict, verdictName(Verdict::Slower)) << cell.name << "\n"
                                                            << comparisonText(c);
    }
    if (!isHostCell(cell)) {
      EXPECT_FALSE(failingCell(cell)) << cell.name;
    }
  }
  EXPECT_EQ(c.confirmation->unconfirmed, 0u) << comparisonText(c);
}

// And the unchanged reports judged as a run would, any suspect cell confirmed by the other two
// reports: never failing.
TEST(RunToRun, UnchangedReportsAreNeverConfirmedFailing) {
  for (const std::string& a : kRunToRun)
    for (const std::string& b : kRunToRun) {
      if (a == b) continue;
      ComparisonSection c = compareReports(runToRun(a), runToRun(b));
      json runs = json::array();
      unsigned run = 0;
      for (const std::string& other : kRunToRun) {
        if (other == a || other == b) continue;
        ++run;
        const json confirmation = runToRun(other);
        for (const json& e : confirmation["nvbandwidth"]["testcases"])
          if (e.contains("values")) runs.push_back(confirmationOf(e, run));
      }
      applyConfirmations(c, runs, {2, suspectTestcases(c), 1.0, 0});
      EXPECT_EQ(failingCells(c), 0u) << a << " -> " << b << "\n" << comparisonText(c);
      EXPECT_EQ(c.confirmation->unconfirmed, 0u);
    }
}

TEST(RunToRun, TheFakePlatformAtEightyPercentIsSlower) {
  const json base = json::parse(readFile(kGolden + "/fleet/fake_base.json"));
  const json slower = json::parse(readFile(kGolden + "/fleet/fake_slower.json"));
  const ComparisonSection c = compareReports(base, slower);
  EXPECT_EQ(countVerdict(c, Verdict::Slower), 10u);  // every bandwidth cell
  EXPECT_EQ(countVerdict(c, Verdict::Faster), 2u);   // the latency cells, 20% lower
  EXPECT_EQ(countVerdict(c, Verdict::Noisy), 0u);
  EXPECT_EQ(countVerdict(c, Verdict::Unstable), 0u);
}

// ---- Confirmation ----

json cellOf(const std::vector<double>& samples) {
  const SampleStatistics s = describeSamples(samples);
  return {{"samples", samples},
          {"min", s.min},
          {"max", s.max},
          {"mean", s.mean},
          {"median", s.median},
          {"stddev", s.stddev},
          {"cv", s.cv ? json(*s.cv) : json(0.0)}};
}

json entry(const std::string& name, const std::vector<std::vector<double>>& cells,
           std::optional<std::uint64_t> size = std::nullopt) {
  json values = json::array(), texts = json::array(), stats = json::array();
  for (const auto& samples : cells) {
    values.push_back(median(samples));
    texts.push_back(std::to_string(median(samples)));
    stats.push_back(cellOf(samples));
  }
  json e = {{"name", name},       {"status", "Passed"}, {"bandwidth_description", name},
            {"values", {values}}, {"cells", {stats}},   {"bandwidth_matrix", {texts}},
            {"sum", 0.0},         {"unit", "GB/s"},     {"statistic", "median"}};
  if (size) e["bufferSize_MiB"] = *size;
  return e;
}

json report(const std::vector<json>& entries) {
  return {{"nvbandwidth", {{"schema_version", "1.0"}, {"testcases", entries}}}};
}

const std::vector<double> kBase = {100.0, 100.1, 99.9};
const std::string kH2d = "host_to_device_memcpy_ce";

// Two cells of one testcase 10% lower (suspect SLOWER), one unstable (samples 14% apart, suspect
// UNSTABLE), one unchanged.
ComparisonSection suspectComparison() {
  return compareReports(report({entry(kH2d, {kBase, kBase, kBase, kBase})}),
                        report({entry(kH2d, {{90, 90, 90}, {90, 90, 90}, {100, 92, 106}, kBase})}));
}

json confirmation(const std::vector<std::vector<double>>& cells, unsigned run) {
  return confirmationOf(entry(kH2d, cells), run);
}

TEST(Confirmation, SuspectCellsAreTheFailingOnesAndNameTheirTestcaseOnce) {
  const ComparisonSection c = suspectComparison();
  EXPECT_EQ(suspectCells(c), 3u);
  EXPECT_EQ(c.cells->at(2).verdict, verdictName(Verdict::Unstable));
  const std::vector<SuspectRecord> suspects = suspectTestcases(c);
  ASSERT_EQ(suspects.size(), 1u);
  EXPECT_EQ(suspects[0].testcase, kH2d);
  EXPECT_EQ(suspects[0].bufferSizeMiB, std::nullopt);
}

TEST(Confirmation, TheMedianOfAllMeasurementsDecides) {
  ComparisonSection c = suspectComparison();
  const json runs = {confirmation({{91, 91, 91}, {100, 100, 100}, {100, 95, 106}, kBase}, 1),
                     confirmation({{89, 89, 89}, {99, 99, 99}, {100, 100.1, 99.9}, kBase}, 2)};
  applyConfirmations(c, runs, {2, suspectTestcases(c), 1.5, 0});
  ASSERT_EQ(c.cells->size(), 4u);
  // [0][0]: 90, 91, 89: the median (90) is beyond the 5% band: SLOWER.
  EXPECT_EQ(c.cells->at(0).verdict, verdictName(Verdict::Slower));
  EXPECT_EQ(c.cells->at(0).confirmations, (std::vector<double>{91, 89}));
  EXPECT_DOUBLE_EQ(*c.cells->at(0).confirmedMedian, 90.0);
  EXPECT_NEAR(**c.cells->at(0).confirmedChangePercent, -10.0, 1e-9);
  // [0][1]: the confirmations (100, 99) bring the median back: a disturbance that passed, NOISY.
  EXPECT_EQ(c.cells->at(1).verdict, verdictName(Verdict::Noisy));
  EXPECT_DOUBLE_EQ(*c.cells->at(1).confirmedMedian, 99.0);
  // [0][2]: spreads 14%, 11%, 0.2%: the median spread (11%) is above the 5% limit: UNSTABLE.
  EXPECT_EQ(c.cells->at(2).verdict, verdictName(Verdict::Unstable));
  EXPECT_NEAR(*c.cells->at(2).confirmedSpreadPercent, 11.0, 0.02);  // 2 x stddev of 100, 95, 106
  EXPECT_EQ(c.cells->at(3).verdict, verdictName(Verdict::Same));
  EXPECT_FALSE(c.cells->at(3).confirmations.has_value());
  ASSERT_TRUE(c.confirmation.has_value());
  EXPECT_EQ(c.confirmation->unconfirmed, 0u);

  const std::string text = comparisonText(c);
  EXPECT_EQ(text.find("Confirmation of 3 suspect cells, 2 more runs (1.50 s) of:\n"
                      "  host_to_device_memcpy_ce\n"),
            0u)
      << text;
  EXPECT_NE(text.find("    confirmations 91.00, 89.00: median of 3 90.00 (-10.00%)\n"
                      "    median spread 0.00%, limit 5.00%\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("    confirmations 100.00, 99.00: median of 3 99.00 (-1.00%)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("NOISY: slower or unstable at first, not in most of its confirmations: "
                      "reported,\nnever failing.\n"),
            std::string::npos)
      << text;
  // Every line but the one-line summary fits 80 columns.
  for (std::size_t start = 0, end; (end = text.find('\n', start)) != std::string::npos;
       start = end + 1)
    if (text.compare(start, 12, "Comparison: ") != 0) {
      EXPECT_LE(end - start, 80u) << text.substr(start, end - start);
    }
  EXPECT_NE(text.find("1 SLOWER, 0 FASTER, 1 NOISY, 1 UNSTABLE;"), std::string::npos) << text;

  const json j = comparisonSectionJson(c);
  EXPECT_EQ(j["rule"], "confirmed");
  EXPECT_EQ(j["confirmation"], (json{{"runs", 2},
                                     {"testcases", {{{"testcase", kH2d}}}},
                                     {"seconds", 1.5},
                                     {"unconfirmed", 0}}));
  EXPECT_EQ(j["cells"][0]["confirmations"], (json{91.0, 89.0}));
  EXPECT_EQ(j["cells"][0]["confirmed_median"], 90.0);
  EXPECT_EQ(j["cells"][2]["confirmation_spreads"].size(), 2u);
  EXPECT_NEAR(j["cells"][2]["confirmed_spread_percent"].get<double>(), 11.0, 0.02);
  EXPECT_FALSE(j["cells"][3].contains("confirmations"));
}

// A slowdown that lasts but whose measurements spread is SLOWER, not excused: the issue's
// contention case, latency 1753, 1702 and 1747 ns against 1197.
TEST(Confirmation, AConfirmedSlowdownIsSlowerHoweverItsSamplesSpread) {
  auto latency = [](const std::vector<double>& samples) {
    json e = entry("host_device_latency_sm", {samples});
    e["unit"] = "ns";
    return e;
  };
  ComparisonSection c =
      compareReports(report({latency({1197, 1199, 1195})}), report({latency({1753, 1560, 1800})}));
  ASSERT_TRUE(*c.cells->at(0).suspect);
  applyConfirmations(c,
                     {confirmationOf(latency({1702, 1500, 1760}), 1),
                      confirmationOf(latency({1747, 1600, 1800}), 2)},
                     {2, suspectTestcases(c), 0.2, 0});
  EXPECT_EQ(c.cells->at(0).verdict, verdictName(Verdict::Slower));
  EXPECT_DOUBLE_EQ(*c.cells->at(0).confirmedMedian, 1747.0);
  EXPECT_TRUE(*c.cells->at(0).unstable);
}

// Confirmations that are faster than the baseline pull a suspect cell's median back: NOISY,
// never FASTER (the first measurement was slower).
TEST(Confirmation, FasterConfirmationsNeverMakeItFaster) {
  ComparisonSection c = suspectComparison();
  const json runs = {confirmation({{120, 120, 120}, {90, 90, 90}, kBase, kBase}, 1),
                     confirmation({{120, 120, 120}, {90, 90, 90}, kBase, kBase}, 2)};
  applyConfirmations(c, runs, {2, suspectTestcases(c), 1.0, 0});
  EXPECT_EQ(c.cells->at(0).verdict, verdictName(Verdict::Noisy));  // median 120: +20%, not slower
  EXPECT_EQ(c.cells->at(1).verdict, verdictName(Verdict::Slower));
  EXPECT_EQ(c.cells->at(2).verdict, verdictName(Verdict::Noisy));  // steady in both confirmations
  EXPECT_TRUE(anyFailing(c));
}

TEST(Confirmation, AFailedConfirmationLeavesTheSavedReportVerdictAndANote) {
  ComparisonSection c = suspectComparison();
  const json runs = json::array({json{{"name", kH2d},
                                      {"status", "ERROR"},
                                      {"error", "Testcase host_to_device_memcpy_ce failed: x"},
                                      {"confirmation_run", 1}}});
  applyConfirmations(c, runs, {2, suspectTestcases(c), 0.5, 0});
  EXPECT_EQ(c.cells->at(0).verdict, verdictName(Verdict::Slower));
  EXPECT_EQ(c.cells->at(2).verdict, verdictName(Verdict::Unstable));
  EXPECT_EQ(c.confirmation->unconfirmed, 3u);
  EXPECT_NE(std::find(c.notes->begin(), c.notes->end(),
                      "3 suspect cells have no confirmation (their testcase failed or the run "
                      "stopped): judged as saved reports are"),
            c.notes->end());
}

TEST(Confirmation, SweepSizesAreConfirmedOneByOne) {
  const json base = report({entry(kH2d, {kBase}, 16), entry(kH2d, {kBase}, 32)});
  const json current = report({entry(kH2d, {kBase}, 16), entry(kH2d, {{80, 80, 80}}, 32)});
  ComparisonSection c = compareReports(base, current);
  const std::vector<SuspectRecord> suspects = suspectTestcases(c);
  ASSERT_EQ(suspects.size(), 1u);
  EXPECT_EQ(suspects[0].testcase, kH2d);
  EXPECT_EQ(suspects[0].bufferSizeMiB, 32u);
  // A confirmation at 16 MiB says nothing about the cell at 32 MiB.
  const json runs = {confirmationOf(entry(kH2d, {{100, 100, 100}}, 16), 1),
                     confirmationOf(entry(kH2d, {{81, 81, 81}}, 32), 1)};
  applyConfirmations(c, runs, {1, suspectTestcases(c), 0.1, 0});
  EXPECT_EQ(c.cells->at(1).verdict, verdictName(Verdict::Slower));
  EXPECT_EQ(c.cells->at(1).confirmations, (std::vector<double>{81}));
  EXPECT_EQ(comparisonSectionJson(c)["cells"][1]["bufferSize_MiB"], 32);
  EXPECT_NE(comparisonText(c).find("host_to_device_memcpy_ce at 32 MiB\n"), std::string::npos);
}

TEST(Confirmation, LatencyIsConfirmedInItsOwnDirection) {
  auto latency = [](const std::vector<double>& samples) {
    json e = entry("host_device_latency_sm", {samples});
    e["unit"] = "ns";
    return e;
  };
  ComparisonSection c =
      compareReports(report({latency({1000, 1001, 999})}), report({latency({1200, 1201, 1199})}));
  ASSERT_TRUE(*c.cells->at(0).suspect);
  json one = latency({1190, 1190, 1190}), two = latency({1210, 1210, 1210});
  applyConfirmations(c, {confirmationOf(one, 1), confirmationOf(two, 2)},
                     {2, suspectTestcases(c), 0.2, 0});
  EXPECT_EQ(c.cells->at(0).verdict, verdictName(Verdict::Slower));
}

TEST(Confirmation, MalformedConfirmationEntriesAreRejected) {
  ComparisonSection c = suspectComparison();
  EXPECT_THROW(applyConfirmations(c, json::object(), {}), std::runtime_error);
  EXPECT_THROW(applyConfirmations(c, {entry(kH2d, {kBase})}, {}),
               std::runtime_error);  // no confirmation_run: the reader refuses it
}

}  // namespace test_comparison_rules
}  // namespace nvbw
