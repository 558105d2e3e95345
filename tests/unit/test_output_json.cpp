#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "golden.h"
#include "nvbandwidth/json_style.h"
#include "nvbandwidth/output.h"
#include "nvbandwidth/version.h"
#include "output_fixtures.h"

namespace nvbw {
namespace {

using namespace test;

using nlohmann::json;

struct Captured {
  std::ostringstream out;
  std::unique_ptr<Output> output;
  explicit Captured(OutputSettings settings = {}) : output(makeJsonOutput(out, settings)) {}
};

TEST(JsonOutput, OneGpuRunMatchesGolden) {
  Captured c;
  Output& o = *c.output;
  oneGpuRun(o, 55.485873873000003, 1197.2177624702454);
  EXPECT_EQ(c.out.str(), "") << "JSON must be printed only by finish()";
  o.finish();
  expectGolden("json_one_gpu.json", c.out.str());
}

TEST(JsonOutput, VerboseMatchesGolden) {
  Captured c({/*verbose=*/true, /*perfFormatter=*/false});
  Output& o = *c.output;
  o.header(systemWith(2), {"NOTE: first warning", "NOTE: second warning"});
  o.testcaseStarted("device_to_device_memcpy_read_ce");
  o.sample({0, "Device 1 -> Device 0", 389.1234, Unit::GBps});  // not part of the document
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
  o.finish();
  expectGolden("json_verbose.json", c.out.str());
}

TEST(JsonOutput, StartupFailureMatchesGolden) {
  Captured c;
  SystemInfo info;
  info.version = "v0.8";
  info.gitVersion = "v0.8";
  c.output->header(info, {});
  c.output->globalError("cuInit failed: CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)");
  c.output->finish();
  expectGolden("json_startup_failed.json", c.out.str());
}

TEST(JsonOutput, RunWithoutTestcasesHasEmptyList) {
  Captured c;
  c.output->header(systemWith(1), {});
  c.output->finish();
  expectGolden("json_no_testcases.json", c.out.str());
}

TEST(JsonOutput, WithoutHeaderStillNamesVersion) {
  Captured c;
  c.output->globalError("You cannot specify both testcase and testcasePrefix options at the same "
                        "time");
  c.output->finish();
  const json doc = json::parse(c.out.str());
  const json expected = {
      {"nvbandwidth",
       {{"error", "You cannot specify both testcase and testcasePrefix options at the same time"},
        {"git_version", kGitVersion},
        {"version", kVersion}}}};
  EXPECT_EQ(doc, expected);
}

TEST(JsonOutput, TestcaseInterruptedByGlobalErrorStaysRunning) {
  Captured c;
  c.output->header(systemWith(1), {});
  c.output->testcaseStarted("host_to_device_memcpy_ce");
  c.output->globalError("spin kernel timed out");
  c.output->finish();
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
  c.output->finish();
  const json doc = json::parse(c.out.str());
  EXPECT_EQ(doc["nvbandwidth"]["testcases"][0]["bandwidth_matrix"],
            json::array({json::array({"55.4859", "1165.31", "55", "1.23457e+06", "N/A"})}));
}

TEST(JsonOutput, DocumentEndsWithBlankLine) {
  Captured c;
  c.output->finish();
  const std::string text = c.out.str();
  ASSERT_GE(text.size(), 3u);
  EXPECT_EQ(text.substr(text.size() - 3), "}\n\n");
}

// Replays upstream's -j run through our JSON output. Removing our documented additions (the
// "CUDA Driver Version" key, "unit" and "waive_reason") must leave upstream's exact bytes.
TEST(JsonOutput, ReproducesUpstreamDocument) {
  const std::string reference = readFile(kGolden + "/upstream/default.json");
  const json upstream = json::parse(reference)["nvbandwidth"];
  SystemInfo info = referenceMachine();
  info.version = upstream["version"];
  info.gitVersion = upstream["git_version"];
  info.cudaRuntimeVersion = upstream["CUDA Runtime Version"];
  info.driverVersion = upstream["Driver Version"];

  Captured c;
  Output& o = *c.output;
  o.header(info, {});
  for (const auto& t : upstream["testcases"]) {
    const std::string name = t["name"];
    if (t["status"] == "Waived") {
      o.testcaseFinished({name, Status::Waived, "some reason", {}});
      continue;
    }
    const Unit unit =
        t["bandwidth_description"].get<std::string>().find("(ns)") != std::string::npos
            ? Unit::Nanoseconds
            : Unit::GBps;
    o.testcaseStarted(name);
    o.testcaseFinished(passed1x1(name, t["bandwidth_description"], t["sum"].get<double>(), unit));
  }
  o.finish();

  json ours = json::parse(c.out.str());
  json& root = ours["nvbandwidth"];
  EXPECT_EQ(root["CUDA Driver Version"], 13000);
  root.erase("CUDA Driver Version");
  for (auto& t : root["testcases"]) {
    if (t["status"] == "Waived") {
      EXPECT_EQ(t["waive_reason"], "some reason");
      t.erase("waive_reason");
    } else {
      EXPECT_TRUE(t["unit"] == "GB/s" || t["unit"] == "ns");
      t.erase("unit");
    }
  }
  EXPECT_EQ(styledJson(ours) + "\n", reference);
}

// --- -j -l
// ------------------------------------------------------------------------------------------

TEST(Listing, JsonMatchesGolden) {
  TestcaseDef a;
  a.key = "host_to_device_memcpy_ce";
  a.description = "Copy engine bandwidth from pinned host memory to each GPU.";
  TestcaseDef b;
  b.key = "device_to_device_memcpy_read_ce";
  b.description = "Copy engine bandwidth between every pair of GPUs with peer access.\n"
                  "Read: the row GPU pulls from the column GPU.";
  expectGolden("listing.json", listingJson({a, b}, "v0.8", "v0.8-3-gabc1234"));
}

}  // namespace
}  // namespace nvbw
