#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <regex>
#include <sstream>

#include "golden.h"
#include "output_fixtures.h"
#include "plans/registry.h"
#include "report/listing.h"
#include "report/output.h"
#include "report/report_builder.h"
#include "report/report_text.h"
#include "report/text_format.h"
#include "text_search.h"
#include "upstream_keys.h"

namespace nvbw {
namespace test_output_text {

using namespace test;

struct Captured {
  std::ostringstream out;
  std::ostringstream err;
  std::unique_ptr<Output> output;
  explicit Captured(OutputSettings settings = {}) : output(textOutput(out, err, settings)) {}
};

// The 1-GPU run used by several tests, finished.
void reportOneGpuRun(Output& o) {
  oneGpuRun(o, 55.4612, 1197.2178);
  o.finish(RunEnd{});
}

TEST(TextOutput, VersionBlock) {
  EXPECT_EQ(versionBlock("v0.8", "v0.8"),
            "nvbandwidth Version: v0.8\nBuilt from Git version: v0.8\n\n");
  // An empty git string keeps the trailing space, as upstream prints it.
  EXPECT_EQ(versionBlock("v0.8", ""), "nvbandwidth Version: v0.8\nBuilt from Git version: \n\n");
}

// stdout is upstream's lines only; why a testcase was waived or failed is on stderr, in order.
TEST(TextOutput, OneGpuRunMatchesGolden) {
  Captured c;
  reportOneGpuRun(*c.output);
  expectGolden("text_one_gpu.txt", c.out.str());
  expectGolden("text_one_gpu.stderr", c.err.str());
}

// Upstream's bare "Waived: " on stdout, for the programs that parse it; the name and the reason
// for a person on stderr (their words and numbers would be read as the previous testcase's).
TEST(TextOutput, WaivedIsUpstreamsLineAndTheReasonIsOnStderr) {
  Captured c;
  c.output->testcaseFinished(waivedResult("all_to_one_write_ce", "needs two GPUs"));
  EXPECT_EQ(c.out.str(), "Waived: \n");
  EXPECT_EQ(c.err.str(), "NOTE: all_to_one_write_ce waived: needs two GPUs\n");
}

// A failed testcase's ERROR line on stderr, -v adding the detail; upstream's selection errors on
// stdout, where upstream prints them (SuperBench reads "not found").
TEST(TextOutput, ErrorLinesOfOursAreOnStderrAndUpstreamsOnStdout) {
  for (const bool verbose : {false, true}) {
    Captured c({verbose, false});
    TestcaseResult failed = failedResult("k", "Testcase k failed: GPU 0 cannot hold it");
    failed.detail = "cuMemAlloc(&ptr, bytes) at src/platform/cuda_raii.cpp:51";
    c.output->testcaseStarted("k");
    c.output->testcaseFinished(failed);
    c.output->testcaseFinished(failedResult("x", "Testcase x not found!"));
    c.output->testcaseFinished(failedResult("99", "Testcase index 99 out of bound!"));
    c.output->testcaseFinished(failedResult("", "Testcase name is empty!"));
    EXPECT_EQ(c.out.str(), "Running k.\nERROR: Testcase x not found!\n"
                           "ERROR: Testcase index 99 out of bound!\n");
    EXPECT_EQ(c.err.str(), "ERROR: Testcase k failed: GPU 0 cannot hold it\n" +
                               std::string(verbose ? "Detail: cuMemAlloc(&ptr, bytes) at "
                                                     "src/platform/cuda_raii.cpp:51\n"
                                                   : "") +
                               "ERROR: Testcase name is empty!\n");
  }
}

TEST(TextOutput, VerboseMatchesGolden) {
  Captured c({/*verbose=*/true, /*perfFormatter=*/false});
  Output& o = *c.output;
  o.header(headerOf(systemWith(2), {smallBufferWarning()}));
  o.testcaseStarted("device_to_device_memcpy_read_ce");
  const std::vector<double> samples10 = {389.1234, 389.0987, 389.1411};
  const std::vector<double> samples01 = {389.2012, 389.2234, 389.1876};
  MatrixResult read({"device_to_device_memcpy_read_ce", kD2dReadTitle, Unit::GBps, 2, 2});
  read.at(1, 0) = cellOf(samples10);
  read.at(0, 1) = cellOf(samples01);
  o.testcaseFinished(passed(
      "device_to_device_memcpy_read_ce", {read},
      {record("Device 1 -> Device 0", samples10), record("Device 0 -> Device 1", samples01)}));
  o.testcaseStarted("all_to_host_memcpy_ce");
  o.testcaseFinished(
      passed("all_to_host_memcpy_ce",
             {matrix("all_to_host_memcpy_ce", "memcpy CE CPU(row) <- GPU(column) bandwidth (GB/s)",
                     1, 2, {55.3391, 55.3398})},
             {record("Total Bandwidth ", {110.6789})}));
  o.testcaseStarted("device_to_device_latency_sm");
  // A matrix with no measured cell: SUM 0.00 and no MIN/MAX/AVG (never NaN).
  o.testcaseFinished(passed("device_to_device_latency_sm",
                            {matrix("device_to_device_latency_sm", kD2dLatencyTitle, 2, 2,
                                    {NA, NA, NA, NA}, Unit::Nanoseconds)},
                            {record("Device 0 reading Device 1", {712.3968}, Unit::Nanoseconds)}));
  o.finish(RunEnd{});
  expectGolden("text_verbose.txt", c.out.str());
}

TEST(TextOutput, SamplesAreSilentWithoutVerbose) {
  Captured c;
  c.output->testcaseFinished(
      passed("k", {matrix("k", "t", 1, 1, {55.41})}, {record("Host -> Device 0", {55.41})}));
  EXPECT_EQ(c.out.str().find("Sample"), std::string::npos) << c.out.str();
}

TEST(TextOutput, SampleLinesPrintEachSampleOfEverySeriesInTurn) {
  Captured c({true, false});
  MeasurementRecord both{{SampleSeries{"Host -> Device 0", Unit::GBps, {55.4666, 55.1}},
                          SampleSeries{"Total Bandwidth ", Unit::GBps, {110.0, 110.25}}}};
  c.output->testcaseFinished(
      passed("k", {}, {both, record("Device 0 reading Host", {1197.871}, Unit::Nanoseconds)}));
  EXPECT_EQ(c.out.str(), "\tSample 0: Host -> Device 0: 55.47 GB/s\n"
                         "\tSample 0: Total Bandwidth : 110.00 GB/s\n"
                         "\tSample 1: Host -> Device 0: 55.10 GB/s\n"
                         "\tSample 1: Total Bandwidth : 110.25 GB/s\n"
                         "\tSample 0: Device 0 reading Host: 1197.87 ns\n");
}

TEST(TextOutput, NoisyCellsAreNamedOnStderrInEveryMode) {
  for (const bool verbose : {false, true}) {
    Captured c({verbose, false});
    MatrixResult m({"k", "t", Unit::GBps, 1, 3});
    m.at(0, 0) = cellOf({100.0, 100.5, 99.5});  // CV 0.5%: quiet
    m.at(0, 1) = cellOf({100.0, 110.0, 90.0});  // CV 10%
    m.at(0, 2) = cellOf({50.0, 52.0, 48.0});    // CV 4%
    c.output->testcaseFinished(passed("k", {m}));
    // On stderr: "2.00%" and "[0][1]" on stdout would be values of the testcase to a parser.
    EXPECT_EQ(c.out.str().find("NOTE"), std::string::npos) << c.out.str();
    EXPECT_NE(c.out.str().find("SUM k "), std::string::npos);
    EXPECT_EQ(c.err.str(),
              "NOTE: k: samples vary by more than 2.00% (coefficient of variation) in [0][1] "
              "10.00%, [0][2] 4.00%\n");
  }
}

TEST(TextOutput, QuietMatricesHaveNoNote) {
  Captured c;
  MatrixResult m({"k", "t", Unit::GBps, 1, 1});
  m.at(0, 0) = cellOf({100.0, 101.0, 100.5});
  c.output->testcaseFinished(passed("k", {m}));
  EXPECT_EQ(c.out.str().find("NOTE"), std::string::npos) << c.out.str();
}

TEST(TextOutput, VerboseShowsCellStatisticsAfterTheMatrix) {
  Captured c({true, false});
  MatrixResult m({"k", "t", Unit::GBps, 2, 2});
  m.at(0, 1) = cellOf({10.0, 12.0, 11.0, 13.0});
  c.output->testcaseFinished(passed("k", {m}));
  const std::string text = c.out.str();
  const std::string block = "Cell statistics of k (GB/s, median reported):\n"
                            "    cell  samples       min       max      mean    median    stddev"
                            "     CV(%)\n"
                            "  [0][1]        4     10.00     13.00     11.50     11.50      1.29"
                            "     11.23\n";
  const auto at = text.find(block);
  ASSERT_NE(at, std::string::npos) << text;
  EXPECT_GT(at, text.find("AVG k 11.50"));
}

TEST(TextOutput, InterruptedRunSaysSoOnStderr) {
  Captured c;
  c.output->header(headerOf(systemWith(1)));
  c.output->testcaseStarted("host_to_device_memcpy_ce");
  c.output->testcaseFinished(failedResult("host_to_device_memcpy_ce", "interrupted by SIGINT"));
  RunEnd end;
  end.interruptedBy = 2;
  end.finished = 1;
  end.selected = 35;
  c.output->finish(end);
  const std::string text = c.out.str();
  // stdout ends with the interrupted testcase's Running line: neither the trailer nor a line of
  // ours with numbers that clients would read as its cells.
  const std::string last = "Running host_to_device_memcpy_ce.\n";
  ASSERT_GE(text.size(), last.size());
  EXPECT_EQ(text.substr(text.size() - last.size()), last);
  EXPECT_EQ(c.err.str(), "ERROR: interrupted by SIGINT\n"
                         "Interrupted by SIGINT: 1 of 35 selected testcases reported above; the "
                         "rest did not run.\n");
}

TEST(TextOutput, RunWarningsGoToStderrBeforeTheTrailer) {
  Captured c;
  reportOneGpuRun(*c.output);
  const std::string quiet = c.out.str();
  Captured warned;
  oneGpuRun(*warned.output, 55.4612, 1197.2178);
  RunEnd end;
  end.warnings = {"WARNING: GPU 0: clocks were held down for power or thermal reasons for 2.35 s "
                  "during the run: its figures may be low."};
  warned.output->finish(end);
  EXPECT_EQ(warned.out.str(), quiet);  // stdout as without the warning, trailer included
  EXPECT_EQ(warned.err.str(), c.err.str() + end.warnings[0] + "\n");
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
  o.header(headerOf(systemWith(4)));
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
  o.finish(RunEnd{});
  expectGolden("text_four_gpu.txt", c.out.str());
}

TEST(TextOutput, WideValuesOverflowTheColumn) {
  Captured c;
  c.output->testcaseFinished(passed1x1("k", "t", 12345678.9));
  EXPECT_NE(c.out.str().find("\n 012345678.90\n"), std::string::npos) << c.out.str();
}

TEST(TextOutput, StartupFailurePrintsVersionBlockWarningsAndErrorOnStderr) {
  Captured c;
  SystemFacts info;
  info.version = "v0.8";
  info.gitVersion = "v0.8";
  c.output->header(failedStartHeader(info, {"NOTE: a warning"}));
  c.output->globalError("cuInit failed: CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)",
                        "");
  EXPECT_EQ(c.out.str(),
            "nvbandwidth Version: v0.8\nBuilt from Git version: v0.8\n\nNOTE: a warning\n");
  EXPECT_EQ(c.err.str(),
            "ERROR: cuInit failed: CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)\n");
}

TEST(TextOutput, DriverWithoutGpusStillPrintsVersions) {
  Captured c;
  c.output->header(headerOf(systemWith(0)));
  EXPECT_EQ(c.out.str(), "nvbandwidth Version: v0.8\nBuilt from Git version: v0.8-3-gabc1234\n\n"
                         "CUDA Runtime Version: 12080\nCUDA Driver Version: 13000\n"
                         "Driver Version: 580.159.04\n\ngpu-node-01\n\n");
}

TEST(TextOutput, LeavesTheStreamStateAlone) {
  Captured c({true, false});
  c.out << std::setprecision(3);
  const auto flags = c.out.flags();
  reportOneGpuRun(*c.output);
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

// Upstream's -v run through our formatter: the same text, plus the cell statistics that -v adds.
TEST(TextOutput, ReproducesUpstreamVerboseRun) {
  Captured c({true, false});
  Output& o = *c.output;
  o.header(headerOf(referenceMachine()));
  o.testcaseStarted("host_to_device_memcpy_ce");
  const std::vector<double> samples = {55.41, 55.45, 55.47};
  MatrixResult h2d({"host_to_device_memcpy_ce", kH2dTitle, Unit::GBps, 1, 1});
  h2d.at(0, 0) = cellOf(samples);
  o.testcaseFinished(
      passed("host_to_device_memcpy_ce", {h2d}, {record("Host -> Device 0", samples)}));
  o.testcaseStarted("host_device_latency_sm");
  o.testcaseFinished(
      passed1x1("host_device_latency_sm", kLatencyTitle, 1197.87, Unit::Nanoseconds));
  o.finish(RunEnd{});
  const std::string withoutStatistics = std::regex_replace(
      c.out.str(), std::regex("Cell statistics of [^\n]*\n[^\n]*\n[^\n]*\n"), "");
  EXPECT_EQ(withoutStatistics, readFile(kGolden + "/upstream/verbose-t0-latency.txt"));
}

// Replays upstream's default run (its testcase keys, titles and values) through our formatter. The
// only difference allowed is decision #3: our waived lines name the testcase and the reason.
TEST(TextOutput, ReproducesUpstreamDefaultRun) {
  const std::string reference = readFile(kGolden + "/upstream/default.txt");
  Captured c;
  Output& o = *c.output;
  o.header(headerOf(referenceMachine()));
  std::istringstream lines(reference);
  std::string line;
  int passedCount = 0;
  while (std::getline(lines, line)) {
    if (line == "Waived: ") {
      o.testcaseFinished(waivedResult("some_key", "some reason"));
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
      o.finish(RunEnd{});
    }
  }
  EXPECT_EQ(passedCount, 18);
  const std::string ours =
      std::regex_replace(c.out.str(), std::regex("Waived: some_key: some reason"), "Waived: ");
  EXPECT_EQ(ours, reference);
}

// --- -l
// ---------------------------------------------------------------------------------------------

TestcaseDef def(const std::string& key, const std::string& description, std::size_t index) {
  TestcaseDef d;
  d.key = key;
  d.description = description;
  d.index = index;
  return d;
}

TEST(Listing, TextMatchesGolden) {
  const std::vector<TestcaseDef> registry = {
      def("host_to_device_memcpy_ce", "Copy engine bandwidth from pinned host memory to each GPU.",
          0),
      def("device_to_device_memcpy_read_ce",
          "Copy engine bandwidth between every pair of GPUs with peer access.\n"
          "Read: the row GPU pulls from the column GPU.",
          1)};
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
      registry.push_back(def(line.substr(comma + 2, line.size() - comma - 3), "", registry.size()));
    } else if (!registry.empty() && !line.empty() && line[0] == '\t') {
      auto& d = registry.back().description;
      d += (d.empty() ? "" : "\n") + line.substr(1);
    }
  }
  ASSERT_EQ(registry.size(), 35u);
  const std::string expected = reference.substr(reference.find("Index, Name:"));
  EXPECT_EQ(listingText(registry) + "\n", expected);
}

// Entries print their own index: the plain build's list skips the multinode indices 35-47.
TEST(Listing, EntriesPrintTheirOwnIndex) {
  const std::string text = listingText({def("a", "first", 34), def("b", "second", 48)});
  EXPECT_EQ(text, "Index, Name:\n\tDescription\n=======================\n34, a:\n\tfirst\n\n"
                  "48, b:\n\tsecond\n\n");
}

// ---- --compat v0.10: its header lines and COEFFICIENT_OF_VARIATION ------------------------------

OutputSettings v010Settings(bool verbose = false, bool perf = false) {
  return OutputSettings{verbose, perf, CompatMode::V0_10};
}

// A 2-GPU run under v0.10: a host testcase with samples, a bidirectional one (three matrices), a
// latency one. Golden: text_v010.txt (compare with text_one_gpu.txt for v0.8's header).
void v010Run(Output& o) {
  o.header(headerOf(systemWith(2)));
  o.testcaseStarted("host_to_device_memcpy_ce");
  MatrixResult h2d({"host_to_device_memcpy_ce", kH2dTitle, Unit::GBps, 1, 2});
  h2d.at(0, 0) = cellOf({10.0, 11.0, 12.0});
  h2d.at(0, 1) = cellOf({20.0, 22.0, 24.0});
  o.testcaseFinished(passed("host_to_device_memcpy_ce", {h2d}));
  const std::string bidir = "device_to_device_bidirectional_memcpy_read_ce";
  const std::string title = "memcpy CE GPU(row) <-> GPU(column) ";
  MatrixResult read1({bidir + "_read1", title + "Read1 bandwidth (GB/s)", Unit::GBps, 2, 2});
  MatrixResult read2({bidir + "_read2", title + "Read2 bandwidth (GB/s)", Unit::GBps, 2, 2});
  MatrixResult total({bidir + "_total", title + "Total bandwidth (GB/s)", Unit::GBps, 2, 2});
  read1.at(0, 1) = cellOf({100.0, 100.0});
  read1.at(1, 0) = cellOf({100.0, 100.0});
  read2.at(0, 1) = cellOf({90.0, 110.0});
  read2.at(1, 0) = cellOf({100.0, 100.0});
  total.at(0, 1) = cellOf({190.0, 210.0});
  total.at(1, 0) = cellOf({200.0, 200.0});
  o.testcaseStarted(bidir);
  o.testcaseFinished(passed(bidir, {read1, read2, total}));
  o.testcaseStarted("device_to_device_latency_sm");
  MatrixResult latency({"device_to_device_latency_sm", kD2dLatencyTitle, Unit::Nanoseconds, 2, 2});
  latency.at(0, 1) = cellOf({700.0, 800.0});
  latency.at(1, 0) = cellOf({700.0, 700.0});
  o.testcaseFinished(passed("device_to_device_latency_sm", {latency}));
  o.finish(RunEnd{});
}

TEST(TextOutputV010, RunMatchesGolden) {
  Captured c(v010Settings());
  v010Run(*c.output);
  expectGolden("text_v010.txt", c.out.str());
  EXPECT_EQ(countOf(c.err.str(), ": samples vary by more than 2.00%"), 4) << c.err.str();
}

TEST(TextOutputV010, HeaderHasV010sVersionLinesAndNoDeviceLines) {
  Captured c(v010Settings());
  c.output->header(headerOf(systemWith(2)));
  EXPECT_EQ(c.out.str(), "nvbandwidth Version: v0.8\n"
                         "Built from Git version: v0.8-3-gabc1234\n"
                         "\n"
                         "CUDA Runtime Version: 12.8 (12080)\n"
                         "CUDA Driver Version (API): 13.0 (13000)\n"
                         "Driver Version: 580.159.04\n"
                         "\n");
  // v0.8 keeps its own.
  Captured v08;
  v08.output->header(headerOf(systemWith(2)));
  EXPECT_NE(v08.out.str().find("CUDA Runtime Version: 12080\nCUDA Driver Version: 13000\n"),
            std::string::npos);
  EXPECT_NE(v08.out.str().find("Device 1: NVIDIA H200"), std::string::npos);
}

TEST(TextOutputV010, HeaderKeepsWarningsAndTheProcessLines) {
  SystemFacts system = systemWith(1);
  system.mpiVersion = "Open MPI v4.1.6";
  system.processes.push_back({"node-a", 0, system.devices[0]});
  system.memorySharingDescription = "fabric handles";
  Captured c(v010Settings());
  c.output->header(headerOf(system, {"NOTE: a warning"}));
  EXPECT_EQ(c.out.str(), "nvbandwidth Version: v0.8\n"
                         "Built from Git version: v0.8-3-gabc1234\n"
                         "\n"
                         "MPI version: Open MPI v4.1.6\n"
                         "NOTE: a warning\n"
                         "CUDA Runtime Version: 12.8 (12080)\n"
                         "CUDA Driver Version (API): 13.0 (13000)\n"
                         "Driver Version: 580.159.04\n"
                         "\n"
                         "Process 0 (node-a): device 0: NVIDIA H200 (00000000:19:00)\n"
                         "Memory shared between processes through: fabric handles\n"
                         "\n");
}

TEST(TextOutputV010, CoefficientOfVariationFollowsTheSumOfEveryBandwidthTestcase) {
  Captured c(v010Settings());
  v010Run(*c.output);
  const std::string text = c.out.str();
  // Sums per sample 30, 33, 36: stddev 3 over mean 33.
  EXPECT_NE(text.find("SUM host_to_device_memcpy_ce 33.00\n"
                      "COEFFICIENT_OF_VARIATION host_to_device_memcpy_ce 0.09\n"),
            std::string::npos)
      << text;
  // Bidirectional: once, after _total, named after the testcase; sums 390 and 410.
  EXPECT_EQ(countOf(text, "COEFFICIENT_OF_VARIATION device_to_device_bidirectional"), 1) << text;
  EXPECT_NE(
      text.find("SUM device_to_device_bidirectional_memcpy_read_ce_total 400.00\n"
                "COEFFICIENT_OF_VARIATION device_to_device_bidirectional_memcpy_read_ce 0.04\n"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("SUM device_to_device_bidirectional_memcpy_read_ce_read1 200.00\n\n"),
            std::string::npos);
  // Latency: none (the two above are all).
  EXPECT_NE(text.find("SUM device_to_device_latency_sm 1450.00\n\n"), std::string::npos);
  EXPECT_EQ(countOf(text, "COEFFICIENT_OF_VARIATION"), 2) << text;
}

TEST(TextOutputV010, NoCoefficientOfVariationUnderV08) {
  Captured c;
  v010Run(*c.output);
  EXPECT_EQ(c.out.str().find("COEFFICIENT_OF_VARIATION"), std::string::npos);
  EXPECT_NE(c.out.str().find("Device 0: NVIDIA H200"), std::string::npos);
}

TEST(TextOutputV010, VerboseAndPerfLinesComeAfterTheCoefficient) {
  Captured verbose(v010Settings(true));
  verbose.output->testcaseStarted("host_to_device_memcpy_ce");
  verbose.output->testcaseFinished(passed1x1("host_to_device_memcpy_ce", kH2dTitle, 55.0));
  EXPECT_NE(verbose.out.str().find("SUM host_to_device_memcpy_ce 55.00\n"
                                   "COEFFICIENT_OF_VARIATION host_to_device_memcpy_ce 0.00\n"
                                   "MIN host_to_device_memcpy_ce 55.00\n"),
            std::string::npos)
      << verbose.out.str();
  Captured perf(v010Settings(false, true));
  perf.output->testcaseStarted("host_to_device_memcpy_ce");
  perf.output->testcaseFinished(passed1x1("host_to_device_memcpy_ce", kH2dTitle, 55.0));
  EXPECT_NE(perf.out.str().find("&&&& PERF host_to_device_memcpy_ce 55.00 +GB/s\n"
                                "COEFFICIENT_OF_VARIATION host_to_device_memcpy_ce 0.00\n"),
            std::string::npos)
      << perf.out.str();
}

// The matrix as the Report holds it (the one the text prints from).
double sumCv(const MatrixResult& m) {
  TestcaseResult result;
  result.name = m.spec.key;
  result.status = Status::Passed;
  result.matrices = {m};
  const std::vector<ReportEntry> entries = entriesOf(result, false, "median");
  return sumCoefficientOfVariation(MatrixView(entries.at(0), entries.at(0).parts.at(0)));
}

TEST(SumCoefficientOfVariation, IsTheSpreadOfThePerSampleSums) {
  MatrixResult m({"k", kD2dReadTitle, Unit::GBps, 2, 2});
  EXPECT_EQ(sumCv(m), 0.0);  // no cell
  m.at(0, 1) = cellOf({10.0});
  EXPECT_EQ(sumCv(m), 0.0);  // one sample: no spread
  m.at(0, 1) = cellOf({10.0, 12.0, 14.0});
  m.at(1, 0) = cellOf({30.0, 28.0, 26.0});
  EXPECT_EQ(sumCv(m), 0.0);  // the cells move against each other
  m.at(1, 0) = cellOf({30.0, 32.0, 34.0});
  // Sums 40, 44, 48: stddev (n - 1) 4, mean 44.
  EXPECT_NEAR(sumCv(m), 4.0 / 44.0, 1e-12);
  // Cells with fewer samples bound the sums (samples 0 and 1: 40, 44).
  m.at(0, 0) = cellOf({0.0, 0.0});
  EXPECT_NEAR(sumCv(m), std::sqrt(8.0) / 42.0, 1e-12);
}

TEST(Listing, V010ListingHasAnEmptyLineBeforeIndex42) {
  const std::string text = listingText(makeRegistry(RegistryScope::SingleNode, CompatMode::V0_10));
  const std::size_t at = text.find("\n\n\n42, device_to_device_latency_tma:\n");
  ASSERT_NE(at, std::string::npos) << text;
  EXPECT_LT(text.find("41, device_local_write_sm:\n"), at);
  EXPECT_EQ(countOf(text, "\n\n\n"), 1);
  EXPECT_NE(text.find("\n43, device_local_copy_tma:\n"), std::string::npos);
  // Nothing after the multi-process indices this build does not list, but this tool's own.
  for (std::size_t i = 44; i < 44 + test::kUpstreamMultinodeKeys.size(); ++i)
    EXPECT_EQ(text.find("\n" + std::to_string(i) + ", "), std::string::npos) << i;
  // v0.8's listing has no such line.
  EXPECT_EQ(countOf(listingText(makeRegistry()), "\n\n\n"), 0);
}

TEST(Listing, VersionTextNamesTheReleaseAndTheInterface) {
  EXPECT_EQ(versionText("v0.8", "g", "1.2.3", CompatMode::V0_8),
            "nvbandwidth Version: v0.8\nBuilt from Git version: g\nRelease: 1.2.3\n"
            "Interface: v0.8\n\n");
  EXPECT_EQ(versionText("v0.8", "g", "1.2.3", CompatMode::V0_10),
            "nvbandwidth Version: v0.8\nBuilt from Git version: g\nRelease: 1.2.3\n"
            "Interface: v0.10\n\n");
}

}  // namespace test_output_text
}  // namespace nvbw
