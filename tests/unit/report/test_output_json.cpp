#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/version.h"
#include "dcgm_check.h"
#include "golden.h"
#include "model/json_style.h"
#include "model/report_writer.h"
#include "output_fixtures.h"
#include "report/listing.h"
#include "report/output.h"
#include "report/report_builder.h"

namespace nvbw {
namespace test_output_json {

using namespace test;

using nlohmann::json;

// The JSON output as -j makes it (app/application.cpp): the run's Report, built as the run goes
// and written by the report model's writer once the run has finished.
class JsonOutput final : public Output {
 public:
  JsonOutput(std::ostream& out, OutputSettings settings) : out_(out), report_(settings) {}
  void header(const RunHeader& header) override { report_.header(header); }
  void testcaseStarted(const std::string& key) override { report_.testcaseStarted(key); }
  void testcaseFinished(const TestcaseResult& result) override { report_.testcaseFinished(result); }
  void globalError(const std::string& message, const std::string& detail) override {
    report_.globalError(message, detail);
  }
  void sweepFinished(const std::string& testcase,
                     const std::vector<std::uint64_t>& sizesMiB) override {
    report_.sweepFinished(testcase, sizesMiB);
  }
  void finish(const RunEnd& end) override {
    report_.finish(end);
    writeReportJson(out_, report_.report());
    out_ << "\n" << std::flush;
  }

 private:
  std::ostream& out_;
  ReportBuilder report_;
};

struct Captured {
  std::ostringstream out;
  std::unique_ptr<Output> output;
  explicit Captured(OutputSettings settings = {})
      : output(std::make_unique<JsonOutput>(out, settings)) {}
};

TEST(JsonOutput, OneGpuRunMatchesGolden) {
  Captured c;
  Output& o = *c.output;
  oneGpuRun(o, 55.485873873000003, 1197.2177624702454);
  EXPECT_EQ(c.out.str(), "") << "JSON must be printed only by finish()";
  o.finish(RunEnd{});
  expectGolden("json_one_gpu.json", c.out.str());
}

TEST(JsonOutput, VerboseMatchesGolden) {
  Captured c({/*verbose=*/true, /*perfFormatter=*/false});
  Output& o = *c.output;
  o.header(headerOf(systemWith(2), {"NOTE: first warning", "NOTE: second warning"}));
  o.testcaseStarted("device_to_device_memcpy_read_ce");
  o.testcaseFinished(passed("device_to_device_memcpy_read_ce",
                            {matrix("device_to_device_memcpy_read_ce", kD2dReadTitle, 2, 2,
                                    {NA, 389.2012, 389.1234, NA})}));
  o.testcaseStarted("device_to_device_bidirectional_memcpy_read_ce");
  const std::string key = "device_to_device_bidirectional_memcpy_read_ce";
  const std::string base = "memcpy CE GPU(row) <-> GPU(column) ";
  o.testcaseFinished(passed(
      key,
      {matrix(key + "_read1", base + "Read1 bandwidth (GB/s)", 2, 2, {NA, 370.5, 370.25, NA}),
       matrix(key + "_read2", base + "Read2 bandwidth (GB/s)", 2, 2, {NA, 369.75, 370.0, NA}),
       matrix(key + "_total", base + "Total bandwidth (GB/s)", 2, 2, {NA, 740.25, 740.25, NA})}));
  o.testcaseStarted("device_to_device_latency_sm");
  o.testcaseFinished(
      passed("device_to_device_latency_sm", {matrix("device_to_device_latency_sm", kD2dLatencyTitle,
                                                    2, 2, {NA, NA, NA, NA}, Unit::Nanoseconds)}));
  o.finish(RunEnd{});
  expectGolden("json_verbose.json", c.out.str());
}

TEST(JsonOutput, StartupFailureMatchesGolden) {
  Captured c;
  SystemFacts info;
  info.version = "v0.8";
  info.gitVersion = "v0.8";
  info.release = "1.2.3";
  info.cudaRuntimeVersion = 13000;
  info.driverVersion = "580.159.04";
  c.output->header(failedStartHeader(info));
  c.output->globalError(
      "cannot start: cuInit failed: CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)", "");
  c.output->finish(RunEnd{});
  expectGolden("json_startup_failed.json", c.out.str());
}

TEST(JsonOutput, RunWithoutTestcasesHasEmptyList) {
  Captured c;
  c.output->header(headerOf(systemWith(1)));
  c.output->finish(RunEnd{});
  expectGolden("json_no_testcases.json", c.out.str());
}

TEST(JsonOutput, WithoutHeaderStillNamesVersion) {
  Captured c;
  c.output->globalError("You cannot specify both testcase and testcasePrefix options at the same "
                        "time",
                        "");
  c.output->finish(RunEnd{});
  const json doc = json::parse(c.out.str());
  const json expected = {
      {"nvbandwidth",
       {{"error", "You cannot specify both testcase and testcasePrefix options at the same time"},
        {"git_version", kGitVersion},
        {"release", kRelease},
        {"testcases", json::array()},
        {"version", kVersion}}}};
  EXPECT_EQ(doc, expected);
}

TEST(JsonOutput, TestcaseInterruptedByGlobalErrorStaysRunning) {
  Captured c;
  c.output->header(headerOf(systemWith(1)));
  c.output->testcaseStarted("host_to_device_memcpy_ce");
  c.output->globalError("spin kernel timed out", "");
  c.output->finish(RunEnd{});
  const json doc = json::parse(c.out.str());
  ASSERT_EQ(doc["nvbandwidth"]["testcases"].size(), 1u);
  EXPECT_EQ(doc["nvbandwidth"]["testcases"][0],
            json({{"name", "host_to_device_memcpy_ce"}, {"status", "Running"}}));
  EXPECT_EQ(doc["nvbandwidth"]["error"], "spin kernel timed out");
}

TEST(JsonOutput, CellsUseIostreamDefaultFormat) {
  Captured c;
  c.output->testcaseFinished(
      passed("k", {matrix("k", "t", 1, 5, {55.485873873, 1165.3123, 55.0, 1234567.0, NA})}));
  c.output->finish(RunEnd{});
  const json doc = json::parse(c.out.str());
  EXPECT_EQ(doc["nvbandwidth"]["testcases"][0]["bandwidth_matrix"],
            json::array({json::array({"55.4859", "1165.31", "55", "1.23457e+06", "N/A"})}));
}

TEST(JsonOutput, DocumentEndsWithBlankLine) {
  Captured c;
  c.output->finish(RunEnd{});
  const std::string text = c.out.str();
  ASSERT_GE(text.size(), 3u);
  EXPECT_EQ(text.substr(text.size() - 3), "}\n\n");
}

// Replays upstream's -j run through our JSON output. Removing our documented additions (the
// "CUDA Driver Version" key, "unit" and "waive_reason") must leave upstream's exact bytes.
TEST(JsonOutput, ReproducesUpstreamDocument) {
  const std::string reference = readFile(kGolden + "/upstream/default.json");
  const json upstream = json::parse(reference)["nvbandwidth"];
  SystemFacts info = referenceMachine();
  info.version = upstream["version"];
  info.gitVersion = upstream["git_version"];
  info.cudaRuntimeVersion = upstream["CUDA Runtime Version"];
  info.driverVersion = upstream["Driver Version"];

  Captured c;
  Output& o = *c.output;
  o.header(headerOf(info));
  for (const auto& t : upstream["testcases"]) {
    const std::string name = t["name"];
    if (t["status"] == "Waived") {
      o.testcaseFinished(waivedResult(name, "some reason"));
      continue;
    }
    const Unit unit =
        t["bandwidth_description"].get<std::string>().find("(ns)") != std::string::npos
            ? Unit::Nanoseconds
            : Unit::GBps;
    o.testcaseStarted(name);
    o.testcaseFinished(passed1x1(name, t["bandwidth_description"], t["sum"].get<double>(), unit));
  }
  o.finish(RunEnd{});

  json ours = json::parse(c.out.str());
  json& root = ours["nvbandwidth"];
  EXPECT_EQ(root["CUDA Driver Version"], 13000);
  EXPECT_EQ(root["schema_version"], kJsonSchemaVersion);
  EXPECT_EQ(root["hostname"], "vm");
  EXPECT_EQ(root["release"], "1.2.3");
  for (const char* added :
       {"CUDA Driver Version", "schema_version", "settings", "hostname", "release"})
    root.erase(added);
  for (auto& t : root["testcases"]) {
    if (t["status"] == "Waived") {
      EXPECT_EQ(t["waive_reason"], "some reason");
      t.erase("waive_reason");
    } else {
      EXPECT_TRUE(t["unit"] == "GB/s" || t["unit"] == "ns");
      EXPECT_EQ(t["statistic"], "median");
      EXPECT_EQ(t["values"][0][0].get<double>(), t["sum"].get<double>());
      for (const char* added : {"unit", "statistic", "values", "cells"}) t.erase(added);
    }
  }
  EXPECT_EQ(styledJson(ours) + "\n", reference);
}

TEST(JsonOutput, NumericMatrixAndCellStatisticsStandBesideTheStrings) {
  Captured c;
  MatrixResult m({"k", "t", Unit::GBps, 2, 2});
  m.at(0, 1) = cellOf({10.0, 12.0, 11.0, 13.0});
  m.at(1, 0) = cellOf({5.0});
  c.output->header(headerOf(systemWith(2)));
  c.output->testcaseFinished(passed("k", {m}));
  c.output->finish(RunEnd{});
  const json entry = json::parse(c.out.str())["nvbandwidth"]["testcases"][0];
  EXPECT_EQ(entry["bandwidth_matrix"], json::parse(R"([["N/A","11.5"],["5","N/A"]])"));
  EXPECT_EQ(entry["values"], json::parse("[[null, 11.5], [5.0, null]]"));
  EXPECT_EQ(entry["statistic"], "median");
  const json& cell = entry["cells"][0][1];
  EXPECT_EQ(cell["samples"], json::parse("[10.0, 12.0, 11.0, 13.0]"));
  EXPECT_EQ(cell["min"], 10.0);
  EXPECT_EQ(cell["max"], 13.0);
  EXPECT_EQ(cell["mean"], 11.5);
  EXPECT_EQ(cell["median"], 11.5);
  EXPECT_NEAR(cell["stddev"].get<double>(), 1.2909944, 1e-6);
  EXPECT_NEAR(cell["cv"].get<double>(), 1.2909944 / 11.5, 1e-8);
  EXPECT_TRUE(entry["cells"][0][0].is_null());
  EXPECT_EQ(entry["cells"][1][0]["cv"], 0.0);  // one sample: no spread
}

TEST(JsonOutput, MeanRunsNameTheirStatistic) {
  Captured c;
  RunHeader h = headerOf(systemWith(1));
  h.settings.statistic = "mean";
  c.output->header(h);
  MatrixResult m({"k", "t", Unit::GBps, 1, 1});
  m.at(0, 0) = CellResult({1.0, 2.0, 6.0}, Statistic::Mean);
  c.output->testcaseFinished(passed("k", {m}));
  c.output->finish(RunEnd{});
  const json root = json::parse(c.out.str())["nvbandwidth"];
  EXPECT_EQ(root["settings"]["statistic"], "mean");
  EXPECT_EQ(root["testcases"][0]["statistic"], "mean");
  EXPECT_EQ(root["testcases"][0]["values"][0][0], 3.0);
}

TEST(JsonOutput, InterruptedRunIsAValidDocumentNamingTheSignal) {
  Captured c;
  c.output->header(headerOf(systemWith(1)));
  c.output->testcaseStarted("host_to_device_memcpy_ce");
  c.output->testcaseFinished(passed1x1("host_to_device_memcpy_ce", kH2dTitle, 55.0));
  c.output->testcaseStarted("device_to_host_memcpy_ce");
  c.output->testcaseFinished(failedResult("device_to_host_memcpy_ce", "interrupted by SIGTERM"));
  RunEnd end;
  end.interruptedBy = 15;
  end.finished = 2;
  end.selected = 35;
  end.timing = RunEnd::Timing{12.5, {}, {}};
  c.output->finish(end);
  const json root = json::parse(c.out.str())["nvbandwidth"];
  EXPECT_EQ(root["interrupted"], "SIGTERM");
  ASSERT_EQ(root["testcases"].size(), 2u);
  EXPECT_EQ(root["testcases"][1]["status"], "ERROR");
  EXPECT_EQ(root["testcases"][1]["error"], "interrupted by SIGTERM");
  EXPECT_EQ(root["timing"]["wall_seconds"], 12.5);
  expectDcgmAccepts(c.out.str());
}

// DCGM's nvbandwidth plugin rejects a whole report unless these hold; the start-up failure
// document is the one that used to lack them.
TEST(JsonOutput, StrictConsumersAcceptEveryDocument) {
  {
    Captured c;
    c.output->header(failedStartHeader(buildSystemFacts()));
    c.output->globalError("cannot start: no driver", "");
    c.output->finish(RunEnd{});
    expectDcgmAccepts(c.out.str());
  }
  {
    Captured c({true, false});
    oneGpuRun(*c.output, 55.5, 1197.2);
    c.output->finish(RunEnd{});
    expectDcgmAccepts(c.out.str());
  }
}

// --- -j -l
// ------------------------------------------------------------------------------------------

TEST(Listing, JsonMatchesGolden) {
  TestcaseDef a;
  a.key = "host_to_device_memcpy_ce";
  a.description = "Copy engine bandwidth from pinned host memory to each GPU.";
  TestcaseDef b;
  b.key = "device_to_device_memcpy_read_ce";
  b.index = 1;
  b.description = "Copy engine bandwidth between every pair of GPUs with peer access.\n"
                  "Read: the row GPU pulls from the column GPU.";
  Report versions;
  versions.version = "v0.8";
  versions.gitVersion = "v0.8-3-gabc1234";
  versions.release = "1.2.3";
  expectGolden("listing.json", listingJson({a, b}, versions));
}

}  // namespace test_output_json
}  // namespace nvbw
