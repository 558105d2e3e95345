// The run's Report as the builder makes it from results: for every registered testcase, each
// entry's unit, matrix and axes (taken from the registry) are the ones the report reader derives
// from the written document, and the document read back writes the same bytes again.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fake_topology.h"
#include "model/report_files.h"
#include "model/report_writer.h"
#include "plans/registry.h"
#include "plans/testcase.h"
#include "report/report_builder.h"

namespace nvbw {
namespace test_report_builder {

constexpr int kGpus = 8;

// Every matrix the testcase's plan reports on kGpus GPUs (or processes), its cells measured:
// each cell its own samples, the diagonal left N/A.
TestcaseResult resultOf(const Testcase& testcase) {
  FakeTopology topo(testcase.facts().multiProcess ? 1 : kGpus);
  if (testcase.facts().multiProcess) topo.setProcessFacts({kGpus, std::nullopt, std::nullopt});
  const Plan plan = testcase.plan(PlanContext{topo, std::size_t{64} << 20});
  TestcaseResult result;
  result.name = testcase.key();
  for (MatrixSpec spec : plan.matrices) {
    spec.key = testcase.key() + spec.key;  // as the testcase loop names a plan's matrices
    MatrixResult m(spec);
    for (std::size_t row = 0; row < spec.rows; ++row)
      for (std::size_t col = 0; col < spec.cols; ++col)
        if (spec.rows == 1 || row != col) {
          const double v = 10.0 + static_cast<double>(row * spec.cols + col);
          m.at(row, col) = CellResult({v, v + 0.5, v - 0.25}, Statistic::Median);
        }
    result.matrices.push_back(std::move(m));
  }
  return result;
}

Report runOf(const std::vector<TestcaseResult>& results) {
  RunHeader header;
  header.system.version = "v0.8";
  header.system.gitVersion = "test";
  header.system.release = "test";
  header.system.hostname = "node";
  for (int i = 0; i < kGpus; ++i) header.system.devices.push_back({"GPU", 0, 0, 0, ""});
  ReportBuilder builder;
  builder.header(header);
  for (const TestcaseResult& r : results) {
    builder.testcaseStarted(r.name);
    builder.testcaseFinished(r);
  }
  builder.finish(RunEnd{});
  return builder.report();
}

void expectSameAxes(const MatrixAxes& built, const MatrixAxes& read, const std::string& key) {
  EXPECT_EQ(built.rowsNamed, read.rowsNamed) << key;
  EXPECT_EQ(built.colsNamed, read.colsNamed) << key;
  EXPECT_EQ(built.rowWord, read.rowWord) << key;
  EXPECT_EQ(built.colWord, read.colWord) << key;
  EXPECT_EQ(built.arrow, read.arrow) << key;
  EXPECT_EQ(built.ranks, read.ranks) << key;
}

TEST(ReportBuilder, EveryTestcasesEntriesAreShapedAsTheReaderShapesThem) {
  std::vector<TestcaseResult> results;
  for (const auto& testcase : registeredTestcases()) results.push_back(resultOf(*testcase));
  const Report built = runOf(results);
  const std::string text = reportJson(built);
  const Report read = readReportText(text);
  ASSERT_EQ(built.testcases->size(), read.testcases->size());
  std::size_t checked = 0;
  for (std::size_t i = 0; i < built.testcases->size(); ++i) {
    const ReportEntry& b = (*built.testcases)[i];
    const ReportEntry& r = (*read.testcases)[i];
    ASSERT_EQ(b.name, r.name);
    EXPECT_EQ(b.unit, r.unit) << b.name;
    ASSERT_EQ(b.parts.size(), r.parts.size()) << b.name;
    for (std::size_t p = 0; p < b.parts.size(); ++p) {
      EXPECT_EQ(b.parts[p].key, r.parts[p].key);
      EXPECT_EQ(b.parts[p].testcase, r.parts[p].testcase) << b.name;
      EXPECT_EQ(b.parts[p].title, r.parts[p].title) << b.name;
      EXPECT_EQ(b.parts[p].rows, r.parts[p].rows) << b.name;
      EXPECT_EQ(b.parts[p].cols, r.parts[p].cols) << b.name;
      expectSameAxes(b.parts[p].axes, r.parts[p].axes, b.name);
      ++checked;
    }
  }
  EXPECT_GE(checked, registeredTestcases().size());
  EXPECT_EQ(reportJson(read), text);
}

// The unit is the registry's, not a guess from the key: a latency testcase's entries are in ns
// and a bandwidth testcase's in GB/s whatever its matrix says.
TEST(ReportBuilder, TheUnitComesFromTheRegistry) {
  ReportEntry e;
  e.name = "host_device_latency_sm";
  shapeEntry(e, "host_device_latency_sm", Unit::GBps);
  EXPECT_EQ(e.unit, Unit::Nanoseconds);
  shapeEntry(e, "host_to_device_memcpy_ce", Unit::Nanoseconds);
  EXPECT_EQ(e.unit, Unit::GBps);
  // A name no testcase has keeps the matrix's own unit.
  shapeEntry(e, "made_up_latency", Unit::GBps);
  EXPECT_EQ(e.unit, Unit::GBps);
}

// Interrupted: the testcase that was running stays "Running", and the run says what stopped it.
TEST(ReportBuilder, AnInterruptedRunKeepsItsRunningTestcase) {
  ReportBuilder builder;
  builder.header(RunHeader{});
  builder.testcaseStarted("host_to_device_memcpy_ce");
  RunEnd end;
  end.interruptedBy = 2;
  builder.finish(end);
  const Report& r = builder.report();
  ASSERT_EQ(r.testcases->size(), 1u);
  EXPECT_EQ(r.testcases->front().status, Status::Running);
  EXPECT_EQ(r.interrupted, std::optional<std::string>("SIGINT"));
}

}  // namespace test_report_builder
}  // namespace nvbw
