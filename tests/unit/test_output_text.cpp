#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <regex>
#include <sstream>

#include "golden.h"
#include "nvbandwidth/output.h"
#include "output_fixtures.h"

namespace nvbw {
namespace {

using namespace test;

struct Captured {
  std::ostringstream out;
  std::ostringstream err;
  std::unique_ptr<Output> output;
  explicit Captured(OutputSettings settings = {}) : output(makeTextOutput(out, err, settings)) {}
};

// The 1-GPU run used by several tests, finished.
void reportOneGpuRun(Output& o) {
  oneGpuRun(o, 55.4612, 1197.2178);
  o.finish();
}

TEST(TextOutput, VersionBlock) {
  EXPECT_EQ(versionBlock("v0.8", "v0.8"),
            "nvbandwidth Version: v0.8\nBuilt from Git version: v0.8\n\n");
  // An empty git string keeps the trailing space, as upstream prints it.
  EXPECT_EQ(versionBlock("v0.8", ""), "nvbandwidth Version: v0.8\nBuilt from Git version: \n\n");
}

TEST(TextOutput, OneGpuRunMatchesGolden) {
  Captured c;
  reportOneGpuRun(*c.output);
  expectGolden("text_one_gpu.txt", c.out.str());
  EXPECT_EQ(c.err.str(), "");
}

TEST(TextOutput, WaivedLineNamesTestcaseAndReason) {
  Captured c;
  c.output->testcaseFinished({"all_to_one_write_ce", Status::Waived, "needs two GPUs", {}});
  EXPECT_EQ(c.out.str(), "Waived: all_to_one_write_ce: needs two GPUs\n");
}

TEST(TextOutput, VerboseMatchesGolden) {
  Captured c({/*verbose=*/true, /*perfFormatter=*/false});
  Output& o = *c.output;
  o.header(systemWith(2), {"NOTE: You have chosen a buffer size that is smaller than the default "
                           "buffer size. It is suggested to use the default buffer size (512MB) "
                           "to achieve maximal peak bandwidth."});
  o.testcaseStarted("device_to_device_memcpy_read_ce");
  const double samples10[] = {389.1234, 389.0987, 389.1411};
  const double samples01[] = {389.2012, 389.2234, 389.1876};
  for (unsigned s = 0; s < 3; ++s) o.sample({s, "Device 1 -> Device 0", samples10[s], Unit::GBps});
  for (unsigned s = 0; s < 3; ++s) o.sample({s, "Device 0 -> Device 1", samples01[s], Unit::GBps});
  o.testcaseFinished(passed("device_to_device_memcpy_read_ce",
                            {matrix("device_to_device_memcpy_read_ce", kD2dReadTitle, 2, 2,
                                    {NA, 389.2012, 389.1234, NA})}));
  o.testcaseStarted("all_to_host_memcpy_ce");
  o.sample({0, "Total Bandwidth ", 110.6789, Unit::GBps});
  o.testcaseFinished(
      passed("all_to_host_memcpy_ce",
             {matrix("all_to_host_memcpy_ce", "memcpy CE CPU(row) <- GPU(column) bandwidth (GB/s)",
                     1, 2, {55.3391, 55.3398})}));
  o.testcaseStarted("device_to_device_latency_sm");
  o.sample({0, "Device 0 -> Device 1", 712.3968, Unit::Nanoseconds});
  // A matrix with no measured cell: SUM 0.00 and no MIN/MAX/AVG (never NaN).
  o.testcaseFinished(
      passed("device_to_device_latency_sm", {matrix("device_to_device_latency_sm", kD2dLatencyTitle,
                                                    2, 2, {NA, NA, NA, NA}, Unit::Nanoseconds)}));
  o.finish();
  expectGolden("text_verbose.txt", c.out.str());
}

TEST(TextOutput, SamplesAreSilentWithoutVerbose) {
  Captured c;
  c.output->sample({0, "Host -> Device 0", 55.41, Unit::GBps});
  EXPECT_EQ(c.out.str(), "");
}

TEST(TextOutput, SampleLineFormat) {
  Captured c({true, false});
  c.output->sample({2, "Host -> Device 0", 55.4666, Unit::GBps});
  c.output->sample({0, "Device 0 -> Host (latency)", 1197.871, Unit::Nanoseconds});
  EXPECT_EQ(c.out.str(), "\tSample 2: Host -> Device 0: 55.47 GB/s\n"
                         "\tSample 0: Device 0 -> Host (latency): 1197.87 ns\n");
}

TEST(TextOutput, PerfFormatterMatchesGolden) {
  Captured c({false, true});
  Output& o = *c.output;
  o.testcaseStarted("host_to_device_memcpy_ce");
  o.testcaseFinished(passed1x1("host_to_device_memcpy_ce", kH2dTitle, 55.4612));
  o.testcaseStarted("host_device_latency_sm");
  o.testcaseFinished(
      passed1x1("host_device_latency_sm", kLatencyTitle, 1197.2178, Unit::Nanoseconds));
  expectGolden("text_perf.txt", c.out.str());
}

TEST(TextOutput, FourGpuMatricesMatchGolden) {
  Captured c;
  Output& o = *c.output;
  o.header(systemWith(4), {});
  o.testcaseStarted("device_to_device_memcpy_read_ce");
  std::vector<std::optional<double>> square;
  for (int r = 0; r < 4; ++r)
    for (int col = 0; col < 4; ++col)
      square.push_back(r == col ? std::optional<double>() : 389.0 + r * 0.27 + col * 0.031);
  o.testcaseFinished(
      passed("device_to_device_memcpy_read_ce",
             {matrix("device_to_device_memcpy_read_ce", kD2dReadTitle, 4, 4, square)}));
  o.testcaseStarted("all_to_one_write_ce");
  o.testcaseFinished(
      passed("all_to_one_write_ce",
             {matrix("all_to_one_write_ce", "memcpy CE GPU(row) <- GPU(column) bandwidth (GB/s)", 1,
                     4, {1165.3123, 1166.0199, 1164.8701, 1165.5512})}));
  o.testcaseStarted("device_to_device_bidirectional_memcpy_write_ce");
  const std::string key = "device_to_device_bidirectional_memcpy_write_ce";
  const std::string base = "memcpy CE GPU(row) <-> GPU(column) ";
  std::vector<std::optional<double>> one, two, total;
  for (std::size_t i = 0; i < square.size(); ++i) {
    one.push_back(square[i] ? std::optional<double>(*square[i] - 19.0) : NA);
    two.push_back(square[i] ? std::optional<double>(*square[i] - 19.5) : NA);
    total.push_back(square[i] ? std::optional<double>(*one[i] + *two[i]) : NA);
  }
  o.testcaseFinished(
      passed(key, {matrix(key + "_write1", base + "Write1 bandwidth (GB/s)", 4, 4, one),
                   matrix(key + "_write2", base + "Write2 bandwidth (GB/s)", 4, 4, two),
                   matrix(key + "_total", base + "Total bandwidth (GB/s)", 4, 4, total)}));
  o.finish();
  expectGolden("text_four_gpu.txt", c.out.str());
}

TEST(TextOutput, WideValuesOverflowTheColumn) {
  Captured c;
  c.output->testcaseFinished(passed1x1("k", "t", 12345678.9));
  EXPECT_NE(c.out.str().find("\n 012345678.90\n"), std::string::npos) << c.out.str();
}

TEST(TextOutput, StartupFailurePrintsVersionBlockWarningsAndErrorOnStderr) {
  Captured c;
  SystemInfo info;
  info.version = "v0.8";
  info.gitVersion = "v0.8";
  c.output->header(info, {"NOTE: a warning"});
  c.output->globalError("cuInit failed: CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)");
  EXPECT_EQ(c.out.str(),
            "nvbandwidth Version: v0.8\nBuilt from Git version: v0.8\n\nNOTE: a warning\n");
  EXPECT_EQ(c.err.str(),
            "ERROR: cuInit failed: CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)\n");
}

TEST(TextOutput, DriverWithoutGpusStillPrintsVersions) {
  Captured c;
  c.output->header(systemWith(0), {});
  EXPECT_EQ(c.out.str(), "nvbandwidth Version: v0.8\nBuilt from Git version: v0.8-3-gabc1234\n\n"
                         "CUDA Runtime Version: 12080\nCUDA Driver Version: 13000\n"
                         "Driver Version: 580.159.04\n\ngpu-node-01\n\n");
}

TEST(TextOutput, LeavesTheStreamStateAlone) {
  Captured c({true, false});
  c.out << std::setprecision(3);
  const auto flags = c.out.flags();
  reportOneGpuRun(*c.output);
  c.output->sample({0, "x", 1.5, Unit::GBps});
  EXPECT_EQ(c.out.flags(), flags);
  EXPECT_EQ(c.out.precision(), 3);
}

// --- The layout of real upstream output, rebuilt from its numbers
// ---------------------------------

TEST(TextOutput, ReferenceHostToDeviceBlock) {
  Captured c;
  c.output->testcaseStarted("host_to_device_memcpy_ce");
  c.output->testcaseFinished(passed1x1("host_to_device_memcpy_ce", kH2dTitle, 55.46));
  const std::string block = c.out.str();
  EXPECT_EQ(block, "Running host_to_device_memcpy_ce.\n"
                   "memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)\n"
                   "           0\n"
                   " 0     55.46\n"
                   "\n"
                   "SUM host_to_device_memcpy_ce 55.46\n"
                   "\n");
  EXPECT_NE(readFile(kGolden + "/upstream/default.txt").find(block), std::string::npos);
}

TEST(TextOutput, ReproducesUpstreamVerboseRun) {
  Captured c({true, false});
  Output& o = *c.output;
  o.header(referenceMachine(), {});
  o.testcaseStarted("host_to_device_memcpy_ce");
  o.sample({0, "Host -> Device 0", 55.41, Unit::GBps});
  o.sample({1, "Host -> Device 0", 55.45, Unit::GBps});
  o.sample({2, "Host -> Device 0", 55.47, Unit::GBps});
  o.testcaseFinished(passed1x1("host_to_device_memcpy_ce", kH2dTitle, 55.45));
  o.testcaseStarted("host_device_latency_sm");
  o.testcaseFinished(
      passed1x1("host_device_latency_sm", kLatencyTitle, 1197.87, Unit::Nanoseconds));
  o.finish();
  EXPECT_EQ(c.out.str(), readFile(kGolden + "/upstream/verbose-t0-latency.txt"));
}

// Replays upstream's default run (its testcase keys, titles and values) through our formatter. The
// only difference allowed is decision #3: our waived lines name the testcase and the reason.
TEST(TextOutput, ReproducesUpstreamDefaultRun) {
  const std::string reference = readFile(kGolden + "/upstream/default.txt");
  Captured c;
  Output& o = *c.output;
  o.header(referenceMachine(), {});
  std::istringstream lines(reference);
  std::string line;
  int passedCount = 0;
  while (std::getline(lines, line)) {
    if (line == "Waived: ") {
      o.testcaseFinished({"some_key", Status::Waived, "some reason", {}});
    } else if (line.rfind("Running ", 0) == 0) {
      const std::string key = line.substr(8, line.size() - 9);
      std::string title, columns, row;
      std::getline(lines, title);
      std::getline(lines, columns);
      std::getline(lines, row);
      const Unit unit = title.find("(ns)") != std::string::npos ? Unit::Nanoseconds : Unit::GBps;
      o.testcaseStarted(key);
      o.testcaseFinished(passed1x1(key, title, std::stod(row.substr(2)), unit));
      ++passedCount;
    } else if (line.rfind("NOTE: ", 0) == 0) {
      o.finish();
    }
  }
  EXPECT_EQ(passedCount, 18);
  const std::string ours =
      std::regex_replace(c.out.str(), std::regex("Waived: some_key: some reason"), "Waived: ");
  EXPECT_EQ(ours, reference);
}

// --- -l
// ---------------------------------------------------------------------------------------------

TestcaseDef def(const std::string& key, const std::string& description) {
  TestcaseDef d;
  d.key = key;
  d.description = description;
  return d;
}

TEST(Listing, TextMatchesGolden) {
  const std::vector<TestcaseDef> registry = {
      def("host_to_device_memcpy_ce", "Copy engine bandwidth from pinned host memory to each GPU."),
      def("device_to_device_memcpy_read_ce",
          "Copy engine bandwidth between every pair of GPUs with peer access.\n"
          "Read: the row GPU pulls from the column GPU.")};
  expectGolden("listing.txt", listingText(registry));
}

// Upstream's own descriptions through our formatter give upstream's listing. Upstream's last
// description ends in a stray newline, which adds one more blank line at the very end; ours do not.
TEST(Listing, TextHasUpstreamShape) {
  const std::string reference = readFile(kGolden + "/upstream/list.txt");
  std::vector<TestcaseDef> registry;
  std::istringstream lines(reference);
  std::string line;
  while (std::getline(lines, line)) {
    const auto comma = line.find(", ");
    if (!line.empty() && std::isdigit(static_cast<unsigned char>(line[0])) &&
        comma != std::string::npos && line.back() == ':') {
      registry.push_back(def(line.substr(comma + 2, line.size() - comma - 3), ""));
    } else if (!registry.empty() && !line.empty() && line[0] == '\t') {
      auto& d = registry.back().description;
      d += (d.empty() ? "" : "\n") + line.substr(1);
    }
  }
  ASSERT_EQ(registry.size(), 35u);
  const std::string expected = reference.substr(reference.find("Index, Name:"));
  EXPECT_EQ(listingText(registry) + "\n", expected);
}

}  // namespace
}  // namespace nvbw
