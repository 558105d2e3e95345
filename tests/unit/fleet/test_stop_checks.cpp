// Every long loop over a report asks whether to stop as it goes (a signal is acted on within a
// fraction of a second, not at the end of a 256 MiB report): reading, checking, comparing,
// judging, the summary's reading, the page and the metrics. Each is run with a stop that counts
// how often it is asked, and must ask at least once per matrix row of the report; then with one
// that fires half-way, and must end with Interrupted at once.
#include <gtest/gtest.h>

#include <csignal>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "app/expectation_checks.h"
#include "core/error.h"
#include "fleet/comparison/comparison.h"
#include "fleet/expectations/expectations.h"
#include "fleet/html/html_report.h"
#include "fleet/metrics/metrics.h"
#include "fleet/summary/fleet_summary_internal.h"
#include "golden.h"
#include "json_documents.h"

namespace nvbw {
namespace test_stop_checks {

using nlohmann::json;

const std::string kReport = test::kGolden + "/run_to_run_x2/issue11_full.json";

// The rows of every matrix of the report: the least number of times a loop over it must ask.
std::size_t matrixRows(const json& doc) {
  std::size_t rows = 0;
  for (const json& entry : doc["nvbandwidth"]["testcases"])
    if (entry.contains("values")) rows += entry["values"].size();
  return rows;
}

using Loop = std::function<void(const StopRequest&)>;

void expectAskedAndStopped(const std::string& what, const Loop& loop, std::size_t atLeast) {
  std::size_t asked = 0;
  loop([&asked] {
    ++asked;
    return 0;
  });
  EXPECT_GE(asked, atLeast) << what << " asks too rarely";
  std::size_t after = 0;
  const std::size_t fireAt = asked / 2 + 1;
  std::size_t calls = 0;
  try {
    loop([&] {
      if (++calls < fireAt) return 0;
      ++after;
      return SIGTERM;
    });
    ADD_FAILURE() << what << " was not interrupted";
  } catch (const Interrupted& e) {
    EXPECT_EQ(e.signal(), SIGTERM) << what;
  }
  EXPECT_EQ(after, 1u) << what << " went on after the stop";
}

TEST(StopChecks, EveryLoopOverAReportAsksAsItGoes) {
  const std::string text = test::readFile(kReport);
  const json doc = json::parse(text);
  const std::size_t rows = matrixRows(doc);
  const Report report = reportOfDocument(doc);
  const ExpectationKeys keys = expectationKeys();
  ASSERT_GT(rows, 20u);
  expectAskedAndStopped(
      "the shape check",
      [&](const StopRequest& stop) { checkReportShape(doc, ReportKind::Run, stop); }, rows);
  expectAskedAndStopped(
      "the comparison", [&](const StopRequest& stop) { compareReports(report, report, 5.0, stop); },
      rows);
  expectAskedAndStopped(
      "--min-percent-of-peak",
      [&](const StopRequest& stop) { checkPercentOfPeak(50.0, report, keys, stop); }, rows);
  const Expectations floors = parseExpectations("host_to_device_memcpy_ce 1\n"
                                                "device_to_device_memcpy_read_ce 1\n",
                                                "--expect 'f'", keys);
  expectAskedAndStopped(
      "--expect", [&](const StopRequest& stop) { checkExpectations(floors, report, keys, stop); },
      2);
  expectAskedAndStopped(
      "the page", [&](const StopRequest& stop) { renderHtmlReport(report, stop); }, rows);
  expectAskedAndStopped(
      "the metrics", [&](const StopRequest& stop) { metricsPieces(report, stop); }, rows);
  expectAskedAndStopped(
      "the summary's reading", [&](const StopRequest& stop) { summary::digestReport(text, stop); },
      rows);
}

}  // namespace test_stop_checks
}  // namespace nvbw
