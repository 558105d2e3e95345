// The verdict rules of issue 19 on real data: the four reports of an unchanged H200
// (tests/golden/run_to_run) must never be SLOWER or FASTER than each other, in any order, while a
// real regression of the same reports is SLOWER; and a run's suspect cells are re-judged by their
// confirmation runs.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/statistics.h"
#include "fleet/comparison/comparison.h"
#include "golden.h"

namespace nvbw {
namespace test_comparison_rules {

using nlohmann::json;
using test::kGolden;
using test::readFile;

const std::vector<std::string> kRunToRun = {"base", "ours_1", "ours_2", "ours_3"};

json runToRun(const std::string& name) {
  return json::parse(readFile(kGolden + "/run_to_run/" + name + ".json"));
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

TEST(RunToRun, EveryOrderedPairOfTheUnchangedReportsIsSameOrNoisy) {
  std::size_t cells = 0, noisy = 0;
  for (const std::string& a : kRunToRun)
    for (const std::string& b : kRunToRun) {
      if (a == b) continue;
      const Comparison c = compareReports(runToRun(a), runToRun(b));
      EXPECT_EQ(c.cells.size(), 21u) << a << " -> " << b;
      EXPECT_EQ(c.count(Verdict::Slower), 0u) << a << " -> " << b << "\n" << comparisonText(c);
      EXPECT_EQ(c.count(Verdict::Faster), 0u) << a << " -> " << b << "\n" << comparisonText(c);
      EXPECT_TRUE(c.onlyInBaseline.empty() && c.onlyInCurrent.empty());
      cells += c.cells.size();
      noisy += c.count(Verdict::Noisy);
    }
  // The false-alarm table of the README (Fleet validation, tools/false_alarms.py): 252 cells,
  // 0 SLOWER, 8 NOISY; the rule before issue 19 called 23 SLOWER and 23 FASTER, failing all 12.
  EXPECT_EQ(cells, 252u);
  EXPECT_EQ(noisy, 8u);
}

// The NOISY cells are the host bidirectional copy-engine cells, the ones whose run-to-run range
// is 11% (README of the reports).
TEST(RunToRun, OnlyTheNoisyHostBidirectionalCellsComeOutNoisy) {
  for (const std::string& a : kRunToRun)
    for (const std::string& b : kRunToRun) {
      if (a == b) continue;
      for (const CellComparison& cell : compareReports(runToRun(a), runToRun(b)).cells) {
        if (cell.verdict != Verdict::Noisy) continue;
        EXPECT_TRUE(cell.name == "host_to_device_bidirectional_memcpy_ce" ||
                    cell.name == "host_to_all_bidirectional_memcpy_ce")
            << a << " -> " << b << ": " << cell.name;
      }
    }
}

// A cell at 80% is SLOWER unless a side's own samples spread by more than 10% (ours_2's host
// bidirectional copy: 44.9 to 50.1 GB/s within one run): two saved reports cannot always tell such
// a cell's 20% drop from its noise, and may call it NOISY; a run confirms it instead. At 70% every
// cell is SLOWER.
TEST(RunToRun, ARealRegressionOfTheSameReportsIsSlower) {
  for (const std::string& a : kRunToRun)
    for (const std::string& b : kRunToRun) {
      const Comparison c = compareReports(runToRun(a), slowed(runToRun(b), 1.25));
      for (const CellComparison& cell : c.cells) {
        if (cell.bandPercent > 10.0) {
          EXPECT_NE(cell.verdict, Verdict::Same) << a << " -> " << b << ": " << cell.name;
        } else {
          EXPECT_EQ(cell.verdict, Verdict::Slower) << a << " -> " << b << ": " << cell.name;
        }
      }
      EXPECT_GE(c.count(Verdict::Slower), 20u);
      const Comparison worse = compareReports(runToRun(a), slowed(runToRun(b), 1.0 / 0.7));
      EXPECT_EQ(worse.count(Verdict::Slower), worse.cells.size()) << a << " -> " << b;
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

bool isHostCell(const CellComparison& cell) { return cell.name.rfind("host_", 0) == 0; }

bool isBidirectional(const CellComparison& cell) {
  return cell.name.find("bidirectional") != std::string::npos;
}

// 15% off the host cells of each unchanged report: every unidirectional host cell is SLOWER in
// every order, no other cell is, and the comparison fails (exit 3). The host bidirectional cells,
// whose run-to-run range is 11% (tests/golden/run_to_run/README.md), may come out NOISY or even
// SAME: two saved reports cannot tell a 15% drop of theirs from their variation (a run confirms
// instead; the next test).
TEST(RunToRun, FifteenPercentOffTheHostCellsIsSlower) {
  for (const std::string& a : kRunToRun)
    for (const std::string& b : kRunToRun) {
      const Comparison c = compareReports(runToRun(a), hostCellsSlowed(runToRun(b)));
      std::size_t unidirectional = 0;
      for (const CellComparison& cell : c.cells) {
        if (!isHostCell(cell)) {
          EXPECT_NE(cell.verdict, Verdict::Slower) << a << " -> " << b << ": " << cell.name;
        } else if (!isBidirectional(cell)) {
          ++unidirectional;
          EXPECT_EQ(cell.verdict, Verdict::Slower) << a << " -> " << b << ": " << cell.name;
        }
      }
      EXPECT_EQ(unidirectional, 5u);  // 4 copies to the GPU and the latency
      EXPECT_TRUE(c.anySlower()) << a << " -> " << b;
    }
}

// The same doctored report, judged as a run would: its confirmations are the other two reports,
// doctored alike (the link stays slow). The unidirectional host cells are confirmed SLOWER;
// nothing else is SLOWER.
TEST(RunToRun, FifteenPercentOffTheHostCellsIsConfirmedSlower) {
  Comparison c = compareReports(runToRun("base"), hostCellsSlowed(runToRun("ours_1")));
  json runs = json::array();
  for (unsigned run = 1; run <= 2; ++run) {
    const json doctored = hostCellsSlowed(runToRun(run == 1 ? "ours_2" : "ours_3"));
    for (const json& e : doctored["nvbandwidth"]["testcases"])
      if (e.contains("values")) runs.push_back(confirmationOf(e, run));
  }
  applyConfirmations(c, runs, {2, suspectTestcases(c), 1.0, 0});
  for (const CellComparison& cell : c.cells) {
    if (isHostCell(cell) && !isBidirectional(cell)) {
      EXPECT_EQ(cell.verdict, Verdict::Slower) << cell.name << "\n" << comparisonText(c);
    }
    if (!isHostCell(cell)) {
      EXPECT_NE(cell.verdict, Verdict::Slower) << cell.name;
    }
  }
  EXPECT_EQ(c.confirmation->unconfirmed, 0u) << comparisonText(c);
}

// And the unchanged reports judged as a run would, each pair's suspect cells confirmed by the
// other two reports: never SLOWER.
TEST(RunToRun, UnchangedReportsAreNeverConfirmedSlower) {
  std::size_t suspects = 0;
  for (const std::string& a : kRunToRun)
    for (const std::string& b : kRunToRun) {
      if (a == b) continue;
      Comparison c = compareReports(runToRun(a), runToRun(b));
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
      EXPECT_EQ(c.count(Verdict::Slower), 0u) << a << " -> " << b << "\n" << comparisonText(c);
      EXPECT_EQ(c.confirmation->unconfirmed, 0u);
      suspects += c.suspects();
    }
  // Something was confirmed: the host bidirectional cells beyond their band (README).
  EXPECT_GT(suspects, 0u);
}

TEST(RunToRun, TheFakePlatformAtEightyPercentIsSlower) {
  const json base = json::parse(readFile(kGolden + "/fleet/fake_base.json"));
  const json slower = json::parse(readFile(kGolden + "/fleet/fake_slower.json"));
  const Comparison c = compareReports(base, slower);
  EXPECT_EQ(c.count(Verdict::Slower), 10u);  // every bandwidth cell
  EXPECT_EQ(c.count(Verdict::Faster), 2u);   // the latency cells, 20% lower
  EXPECT_EQ(c.count(Verdict::Noisy), 0u);
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
  json values = json::array(), stats = json::array();
  for (const auto& samples : cells) {
    values.push_back(median(samples));
    stats.push_back(cellOf(samples));
  }
  json e = {{"name", name},       {"status", "Passed"}, {"bandwidth_description", name},
            {"values", {values}}, {"cells", {stats}},   {"bandwidth_matrix", {values}},
            {"sum", 0.0},         {"unit", "GB/s"},     {"statistic", "median"}};
  if (size) e["bufferSize_MiB"] = *size;
  return e;
}

json report(const std::vector<json>& entries) {
  return {{"nvbandwidth", {{"schema_version", "1.0"}, {"testcases", entries}}}};
}

const std::vector<double> kBase = {100.0, 100.1, 99.9};

// Two cells of one testcase 10% lower (suspect), one unchanged.
Comparison suspectComparison() {
  return compareReports(
      report({entry("host_to_device_memcpy_ce", {kBase, kBase, kBase})}),
      report({entry("host_to_device_memcpy_ce", {{90, 90, 90}, {90, 90, 90}, kBase})}));
}

TEST(Confirmation, SuspectCellsNameTheirTestcaseOnce) {
  const Comparison c = suspectComparison();
  EXPECT_EQ(c.suspects(), 2u);
  EXPECT_EQ(suspectTestcases(c),
            (std::vector<SuspectTestcase>{{"host_to_device_memcpy_ce", std::nullopt}}));
}

TEST(Confirmation, EveryConfirmationBeyondTheBandIsSlower) {
  Comparison c = suspectComparison();
  const json runs = {
      confirmationOf(entry("host_to_device_memcpy_ce", {{91, 91, 91}, {100, 100, 100}, kBase}), 1),
      confirmationOf(entry("host_to_device_memcpy_ce", {{89, 89, 89}, {99, 99, 99}, kBase}), 2)};
  applyConfirmations(c, runs, {2, suspectTestcases(c), 1.5, 0});
  ASSERT_EQ(c.cells.size(), 3u);
  // [0][0]: 90, 91, 89 are all beyond the 5% band: SLOWER, median 90.
  EXPECT_EQ(c.cells[0].verdict, Verdict::Slower);
  EXPECT_EQ(c.cells[0].confirmations, (std::vector<double>{91, 89}));
  EXPECT_DOUBLE_EQ(*c.cells[0].confirmedMedian, 90.0);
  EXPECT_NEAR(*c.cells[0].confirmedChangePercent, -10.0, 1e-9);
  // [0][1]: the confirmations (100, 99) disagree with the first measurement: NOISY.
  EXPECT_EQ(c.cells[1].verdict, Verdict::Noisy);
  EXPECT_DOUBLE_EQ(*c.cells[1].confirmedMedian, 99.0);
  EXPECT_EQ(c.cells[2].verdict, Verdict::Same);
  EXPECT_TRUE(c.cells[2].confirmations.empty());
  ASSERT_TRUE(c.confirmation.has_value());
  EXPECT_EQ(c.confirmation->unconfirmed, 0u);

  const std::string text = comparisonText(c);
  EXPECT_EQ(text.find("Confirmation of 2 suspect cells, 2 more runs (1.50 s) of:\n"
                      "  host_to_device_memcpy_ce\n"),
            0u)
      << text;
  // Closest samples: the baseline's smallest (99.9) against the largest of 90, 91 and 89.
  EXPECT_NE(text.find("    confirmations 91.00, 89.00: median of 3 90.00 (-10.00%)\n"
                      "    closest samples -8.91% apart: both still beyond the band\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("    confirmations 100.00, 99.00: median of 3 99.00 (-1.00%)\n"
                      "    closest samples +0.10% apart: not both beyond the band\n"),
            std::string::npos)
      << text;
  // Every line but the one-line summary fits 80 columns.
  for (std::size_t start = 0, end; (end = text.find('\n', start)) != std::string::npos;
       start = end + 1)
    if (text.compare(start, 12, "Comparison: ") != 0) {
      EXPECT_LE(end - start, 80u) << text.substr(start, end - start);
    }
  EXPECT_NE(text.find("1 SLOWER, 0 FASTER, 1 NOISY;"), std::string::npos);

  const json j = comparisonJson(c);
  EXPECT_EQ(j["rule"], "confirmed");
  EXPECT_EQ(j["confirmation"], (json{{"runs", 2},
                                     {"testcases", {{{"testcase", "host_to_device_memcpy_ce"}}}},
                                     {"seconds", 1.5},
                                     {"unconfirmed", 0}}));
  EXPECT_EQ(j["cells"][0]["confirmations"], (json{91.0, 89.0}));
  EXPECT_EQ(j["cells"][0]["confirmed_median"], 90.0);
  EXPECT_FALSE(j["cells"][2].contains("confirmations"));
}

// The median must stay beyond the band, and so must the most favourable sample of every
// measurement: one confirmation back within the band makes the cell NOISY, whatever the median.
TEST(Confirmation, TheMedianAndEveryMeasurementMustStayBeyondTheBand) {
  Comparison c = suspectComparison();
  // [0][0]: 90, 94, 96: the median (94) is beyond the 5% band, 96 is not: NOISY.
  // [0][1]: 90, 93, 90.5: the median (90.5) and the best (93, -6.9%) beyond: SLOWER.
  const json runs = {
      confirmationOf(entry("host_to_device_memcpy_ce", {{94, 94, 94}, {93, 93, 93}, kBase}), 1),
      confirmationOf(entry("host_to_device_memcpy_ce", {{96, 96, 96}, {90.5, 90.5, 90.5}, kBase}),
                     2)};
  applyConfirmations(c, runs, {2, suspectTestcases(c), 1.0, 0});
  EXPECT_EQ(c.cells[0].verdict, Verdict::Noisy);
  EXPECT_DOUBLE_EQ(*c.cells[0].confirmedMedian, 94.0);
  EXPECT_EQ(c.cells[1].verdict, Verdict::Slower);
  EXPECT_DOUBLE_EQ(*c.cells[1].confirmedMedian, 90.5);
  EXPECT_NEAR(*c.cells[1].separationPercent, (93 - 99.9) / 99.9 * 100, 1e-9);
}

// Within a confirmation, one sample back within the band is enough to make the cell NOISY:
// the samples, not only the medians, must separate from the baseline's.
TEST(Confirmation, OneSampleOfAConfirmationWithinTheBandMakesItNoisy) {
  Comparison c = suspectComparison();
  const json runs = {
      confirmationOf(entry("host_to_device_memcpy_ce", {{90, 90, 97}, {90, 90, 90}, kBase}), 1),
      confirmationOf(entry("host_to_device_memcpy_ce", {{90, 90, 90}, {90, 90, 90}, kBase}), 2)};
  applyConfirmations(c, runs, {2, suspectTestcases(c), 1.0, 0});
  EXPECT_EQ(c.cells[0].verdict, Verdict::Noisy);
  EXPECT_DOUBLE_EQ(*c.cells[0].confirmedMedian, 90.0);  // the median alone would say SLOWER
  EXPECT_EQ(c.cells[1].verdict, Verdict::Slower);
}

TEST(Confirmation, TwoConfirmationsWithinTheBandMakeItNoisy) {
  Comparison c = suspectComparison();
  // [0][0]: 90, then 96 and 95.5: the median (95.5) is within the 5% band.
  // [0][1]: 90, then 94 and 80: the median (90) and the best (94, -5.9%) beyond it.
  const json runs = {
      confirmationOf(entry("host_to_device_memcpy_ce", {{96, 96, 96}, {94, 94, 94}, kBase}), 1),
      confirmationOf(entry("host_to_device_memcpy_ce", {{95.5, 95.5, 95.5}, {80, 80, 80}, kBase}),
                     2)};
  applyConfirmations(c, runs, {2, suspectTestcases(c), 1.0, 0});
  EXPECT_EQ(c.cells[0].verdict, Verdict::Noisy);
  EXPECT_DOUBLE_EQ(*c.cells[0].confirmedMedian, 95.5);
  EXPECT_EQ(c.cells[1].verdict, Verdict::Slower);
  EXPECT_TRUE(c.anySlower());
}

// Confirmations that are faster than the baseline pull a suspect cell's median back: NOISY,
// never FASTER (the first measurement was slower).
TEST(Confirmation, FasterConfirmationsNeverMakeItFaster) {
  Comparison c = suspectComparison();
  const json runs = {
      confirmationOf(entry("host_to_device_memcpy_ce", {{120, 120, 120}, {90, 90, 90}, kBase}), 1),
      confirmationOf(entry("host_to_device_memcpy_ce", {{120, 120, 120}, {90, 90, 90}, kBase}), 2)};
  applyConfirmations(c, runs, {2, suspectTestcases(c), 1.0, 0});
  EXPECT_EQ(c.cells[0].verdict, Verdict::Noisy);  // median 120: +20%, not slower
  EXPECT_EQ(c.cells[1].verdict, Verdict::Slower);
}

TEST(Confirmation, AFailedConfirmationLeavesTheSavedReportVerdictAndANote) {
  Comparison c = suspectComparison();
  const json runs = json::array({json{{"name", "host_to_device_memcpy_ce"},
                                      {"status", "ERROR"},
                                      {"error", "Testcase host_to_device_memcpy_ce failed: x"},
                                      {"confirmation_run", 1}}});
  applyConfirmations(c, runs, {2, suspectTestcases(c), 0.5, 0});
  EXPECT_EQ(c.cells[0].verdict, Verdict::Slower);  // separated by 10%: the saved-report rule
  EXPECT_EQ(c.confirmation->unconfirmed, 2u);
  EXPECT_NE(std::find(c.notes.begin(), c.notes.end(),
                      "2 suspect cells have no confirmation (their testcase failed or the run "
                      "stopped): judged as saved reports are"),
            c.notes.end());
}

TEST(Confirmation, SweepSizesAreConfirmedOneByOne) {
  const json base = report({entry("host_to_device_memcpy_ce", {kBase}, 16),
                            entry("host_to_device_memcpy_ce", {kBase}, 32)});
  const json current = report({entry("host_to_device_memcpy_ce", {kBase}, 16),
                               entry("host_to_device_memcpy_ce", {{80, 80, 80}}, 32)});
  Comparison c = compareReports(base, current);
  EXPECT_EQ(suspectTestcases(c), (std::vector<SuspectTestcase>{{"host_to_device_memcpy_ce", 32}}));
  // A confirmation at 16 MiB says nothing about the cell at 32 MiB.
  const json runs = {confirmationOf(entry("host_to_device_memcpy_ce", {{100, 100, 100}}, 16), 1),
                     confirmationOf(entry("host_to_device_memcpy_ce", {{81, 81, 81}}, 32), 1)};
  applyConfirmations(c, runs, {1, suspectTestcases(c), 0.1, 0});
  EXPECT_EQ(c.cells[1].verdict, Verdict::Slower);
  EXPECT_EQ(c.cells[1].confirmations, (std::vector<double>{81}));
  EXPECT_EQ(comparisonJson(c)["cells"][1]["bufferSize_MiB"], 32);
  EXPECT_NE(comparisonText(c).find("host_to_device_memcpy_ce at 32 MiB\n"), std::string::npos);
}

TEST(Confirmation, LatencyIsConfirmedInItsOwnDirection) {
  auto latency = [](const std::vector<double>& samples) {
    json e = entry("host_device_latency_sm", {samples});
    e["unit"] = "ns";
    return e;
  };
  Comparison c =
      compareReports(report({latency({1000, 1001, 999})}), report({latency({1200, 1201, 1199})}));
  ASSERT_TRUE(c.cells.at(0).suspect);
  json one = latency({1190, 1190, 1190}), two = latency({1210, 1210, 1210});
  applyConfirmations(c, {confirmationOf(one, 1), confirmationOf(two, 2)},
                     {2, suspectTestcases(c), 0.2, 0});
  EXPECT_EQ(c.cells[0].verdict, Verdict::Slower);
}

TEST(Confirmation, MalformedConfirmationEntriesAreRejected) {
  Comparison c = suspectComparison();
  EXPECT_THROW(applyConfirmations(c, json::object(), {}), std::runtime_error);
  EXPECT_THROW(applyConfirmations(c, {entry("host_to_device_memcpy_ce", {kBase})}, {}),
               std::runtime_error);  // no confirmation_run
}

}  // namespace test_comparison_rules
}  // namespace nvbw
