// Expectations (--expect FILE, --min-percent-of-peak P): the strict parser and every way a line
// can be wrong, the keys against the plans, the checks on the golden reports of both layouts, and
// the views (the JSON validated against docs/nvbandwidth.schema.json by tests/schema/validate.py).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/expectation_checks.h"
#include "fake_topology.h"
#include "fleet/expectations/expectations.h"
#include "golden.h"
#include "json_documents.h"
#include "plans/registry.h"
#include "platform/topology.h"
#include "run_binary.h"
#include "temp_file.h"

namespace nvbw {
namespace test_expectations {

using nlohmann::json;
using test::kGolden;
using test::readFile;
using test::TempFile;

const std::string kLabel = "--expect 'h100.txt'";
const std::string kDocs = NVBW_DOCS_DIR;

// The keys the program hands the expectations: every registered testcase's (app/).
const ExpectationKeys& knownKeys() {
  static const ExpectationKeys keys = expectationKeys();
  return keys;
}

// The calls as the program makes them, on the registry's keys; a document is first read by the
// model's reader, as every report reaching the checks is.
Expectations parseExpectations(const std::string& text, const std::string& label) {
  return nvbw::parseExpectations(text, label, knownKeys());
}
Expectations readExpectations(const NamedFile& file, const StopRequest& stop) {
  return nvbw::readExpectations(file, knownKeys(), stop);
}
std::optional<ExpectationKey> lookUpExpectationKey(const std::string& key) {
  const auto known = knownKeys().find(key);
  return known == knownKeys().end() ? std::nullopt : std::optional(known->second);
}
ExpectationSection checkExpectations(const Expectations& e, const json& document) {
  return nvbw::checkExpectations(e, reportOfDocument(document), knownKeys());
}
ExpectationSection checkPercentOfPeak(double minPercent, const json& document) {
  return nvbw::checkPercentOfPeak(minPercent, reportOfDocument(document), knownKeys());
}
// The section as the writer writes it.
json sectionJson(const ExpectationSection& r) { return expectationSectionsJson({r}).at(0); }

Expectations parse(const std::string& text) { return parseExpectations(text, kLabel); }

json golden(const std::string& name) {
  json document = json::parse(readFile(kGolden + "/" + name));
  checkReportShape(document, ReportKind::Run);  // the checks' precondition
  return document;
}

ExpectationSection check(const std::string& text, const json& report) {
  return checkExpectations(parse(text), report);
}

// The section's verdict and counts.
bool passed(const ExpectationSection& r) { return r.passed.value_or(false); }
std::uint64_t judgedCells(const ExpectationSection& r) { return r.summary->cells.value_or(0); }
std::uint64_t metCells(const ExpectationSection& r) { return r.summary->met.value_or(0); }
std::uint64_t belowCells(const ExpectationSection& r) { return r.summary->below.value_or(0); }
std::uint64_t notJudgedCells(const ExpectationSection& r) {
  return r.summary->notJudged.value_or(0);
}

std::string cellId(const BelowCellRecord& c) {
  return *c.name + "[" + std::to_string(*c.row) + "][" + std::to_string(*c.col) + "]";
}

// The BELOW cells as "key[r][c]".
std::vector<std::string> ids(const ExpectationSection& r) {
  std::vector<std::string> out;
  for (const BelowCellRecord& c : *r.below) out.push_back(cellId(c));
  return out;
}

// Per judged matrix: "key cells/below lines...".
std::vector<std::string> tallies(const ExpectationSection& r) {
  std::vector<std::string> out;
  for (const JudgedMatrixRecord& m : *r.matrices) {
    std::string lines;
    for (std::uint64_t line : m.lines.value_or(std::vector<std::uint64_t>{}))
      lines += " " + std::to_string(line);
    out.push_back(*m.name + (m.bufferSizeMiB ? "@" + std::to_string(*m.bufferSizeMiB) : "") + " " +
                  std::to_string(*m.cells) + "/" + std::to_string(*m.below) + lines);
  }
  return out;
}

// ---- The parser ---------------------------------------------------------------------------------

TEST(ExpectationsParser, ReadsEveryFormOfALine) {
  const Expectations e = parse("\xEF\xBB\xBF# a comment line\n"
                               "\n"
                               "host_to_device_memcpy_ce 48\r\n"
                               "  device_to_host_memcpy_ce\tGPU3   48.5GB/s   # NHC's floor\n"
                               "device_to_device_memcpy_read_ce [0][1] 335 GB/s\n"
                               "host_device_latency_sm 2000ns\n"
                               "device_to_device_latency_sm GPU1 1.5e3 ns\n"
                               "device_to_device_bidirectional_memcpy_read_ce_total 600\n"
                               "device_to_device_bidirectional_memcpy_write_sm 0\n"
                               "multinode_device_to_device_memcpy_read_ce 300\n");
  EXPECT_EQ(e.label, kLabel);
  ASSERT_EQ(e.lines.size(), 8u);
  const Expectation& host = e.lines[0];
  EXPECT_EQ(host.line, 3u);
  EXPECT_EQ(host.key, "host_to_device_memcpy_ce");
  EXPECT_EQ(host.testcase, "host_to_device_memcpy_ce");
  EXPECT_EQ(host.cells.kind, CellSelection::Kind::Every);
  EXPECT_EQ(host.unit, "GB/s");
  EXPECT_FALSE(host.ceiling());
  EXPECT_EQ(host.limit, 48.0);
  EXPECT_EQ(host.selection(), "host_to_device_memcpy_ce");

  EXPECT_EQ(e.lines[1].line, 4u);
  EXPECT_EQ(e.lines[1].cells.kind, CellSelection::Kind::Gpu);
  EXPECT_EQ(e.lines[1].cells.gpu, 3u);
  EXPECT_EQ(e.lines[1].limit, 48.5);
  EXPECT_EQ(e.lines[1].selection(), "device_to_host_memcpy_ce GPU3");

  EXPECT_EQ(e.lines[2].cells.kind, CellSelection::Kind::Cell);
  EXPECT_EQ(e.lines[2].cells.row, 0u);
  EXPECT_EQ(e.lines[2].cells.col, 1u);
  EXPECT_EQ(e.lines[2].selection(), "device_to_device_memcpy_read_ce [0][1]");

  EXPECT_EQ(e.lines[3].unit, "ns");
  EXPECT_TRUE(e.lines[3].ceiling());
  EXPECT_EQ(e.lines[3].limit, 2000.0);
  EXPECT_EQ(e.lines[4].limit, 1500.0);
  EXPECT_TRUE(e.lines[4].ceiling());

  EXPECT_EQ(e.lines[5].key, "device_to_device_bidirectional_memcpy_read_ce_total");
  EXPECT_EQ(e.lines[5].testcase, "device_to_device_bidirectional_memcpy_read_ce");
  EXPECT_EQ(e.lines[6].limit, 0.0);  // a floor of 0: the cells must be there, any value
  EXPECT_EQ(e.lines[7].testcase, "multinode_device_to_device_memcpy_read_ce");
}

TEST(ExpectationsParser, ALastLineWithoutNewlineCounts) {
  const Expectations e = parse("# floors\nhost_to_device_memcpy_ce 48");
  ASSERT_EQ(e.lines.size(), 1u);
  EXPECT_EQ(e.lines[0].line, 2u);
}

struct Malformed {
  std::string name;
  std::string text;
  std::size_t line;
  std::string says;
};

const Malformed kMalformed[] = {
    {"UnknownTestcase", "host_to_device_memcpy 48\n", 1,
     "unknown testcase 'host_to_device_memcpy'"},
    {"TestcaseIndex", "0 48\n", 1, "unknown testcase '0'"},
    {"SuffixOfASingleMatrixTestcase", "host_to_device_memcpy_ce_total 48\n", 1, "unknown testcase"},
    {"WrongSuffixForWrite", "device_to_device_bidirectional_memcpy_write_ce_read1 300\n", 1,
     "unknown testcase"},
    {"UppercaseKey", "HOST_TO_DEVICE_MEMCPY_CE 48\n", 1, "unknown testcase"},
    {"NoFloor", "host_to_device_memcpy_ce\n", 1, "no floor after 'host_to_device_memcpy_ce'"},
    {"NoFloorAfterCell", "device_to_device_memcpy_read_ce [0][1]\n", 1, "no floor after '[0][1]'"},
    {"NoCeiling", "host_device_latency_sm # 700\n", 1, "no ceiling"},
    {"CommaCell", "device_to_device_memcpy_read_ce 0,1 335\n", 1, "has a comma"},
    {"DecimalComma", "host_to_device_memcpy_ce 48,5\n", 1, "has a comma"},
    {"OneIndex", "device_to_device_memcpy_read_ce [0] 335\n", 1, "'[0]' is not a cell"},
    {"UnclosedCell", "device_to_device_memcpy_read_ce [0][1 335\n", 1, "is not a cell"},
    {"LetterCell", "device_to_device_memcpy_read_ce [a][b] 335\n", 1, "is not a cell"},
    {"NegativeIndex", "device_to_device_memcpy_read_ce [-1][0] 335\n", 1, "is not a cell"},
    {"SpaceInCell", "device_to_device_memcpy_read_ce [0] [1] 335\n", 1, "'[0]' is not a cell"},
    {"HugeIndex", "device_to_device_memcpy_read_ce [999999][0] 335\n", 1, "is not a cell"},
    {"RowBeyondAnyReport", "device_to_device_memcpy_read_ce [20000][0] 335\n", 1,
     "no report has a matrix that large"},
    {"GpuWithoutNumber", "host_to_device_memcpy_ce GPU 48\n", 1, "'GPU' is not a cell"},
    {"GpuWithSpace", "host_to_device_memcpy_ce GPU 3 48\n", 1, "'GPU' is not a cell"},
    {"LowercaseGpu", "host_to_device_memcpy_ce gpu3 48\n", 1, "'gpu3' is not a cell"},
    {"GpuBeyondAnyReport", "host_to_device_memcpy_ce GPU5000 48\n", 1, "more than 4096 GPUs"},
    {"Negative", "host_to_device_memcpy_ce -48\n", 1, "'-48' is negative"},
    {"NaN", "host_to_device_memcpy_ce nan\n", 1, "'nan' is not a finite number"},
    {"NaNUpper", "host_to_device_memcpy_ce NaN\n", 1, "is not a finite number"},
    {"Inf", "host_to_device_memcpy_ce inf\n", 1, "'inf' is not a finite number"},
    {"MinusInfinity", "host_to_device_memcpy_ce -Infinity\n", 1, "is not a finite number"},
    {"Overflow", "host_to_device_memcpy_ce 1e400\n", 1, "'1e400' is out of range"},
    {"AboveAnyBandwidth", "host_to_device_memcpy_ce 2e7\n", 1,
     "is not a bandwidth (0 to 1e7 GB/s)"},
    {"AboveAnyLatency", "host_device_latency_sm 2e9\n", 1, "is not a latency"},
    {"ZeroCeiling", "host_device_latency_sm 0\n", 1, "fails every cell"},
    {"Hex", "host_to_device_memcpy_ce 0x30\n", 1, "unit 'x30'"},
    {"LeadingPoint", "host_to_device_memcpy_ce .5\n", 1, "neither a number nor a cell"},
    {"TrailingPoint", "host_to_device_memcpy_ce 5.\n", 1, "decimal point must have digits"},
    {"Plus", "host_to_device_memcpy_ce +48\n", 1, "neither a number nor a cell"},
    {"Garbage", "host_to_device_memcpy_ce fast\n", 1, "'fast' is neither a number nor a cell"},
    {"OtherUnit", "host_to_device_memcpy_ce 48MB/s\n", 1, "unit 'MB/s' of '48MB/s' is neither"},
    {"OtherUnitApart", "host_to_device_memcpy_ce 48 GiB/s\n", 1, "unit 'GiB/s'"},
    {"LowercaseUnit", "host_to_device_memcpy_ce 48gb/s\n", 1, "unit 'gb/s'"},
    {"Microseconds", "host_device_latency_sm 2us\n", 1, "unit 'us'"},
    {"LatencyInGBps", "host_device_latency_sm 700GB/s\n", 1,
     "host_device_latency_sm is a latency in ns, but '700GB/s' is a bandwidth"},
    {"BandwidthInNs", "device_to_device_memcpy_read_ce 335 ns\n", 1,
     "device_to_device_memcpy_read_ce is a bandwidth in GB/s, but '335 ns' is a latency"},
    {"TwoNumbers", "host_to_device_memcpy_ce 48 49\n", 1, "a second number '49'"},
    {"Trailing", "host_to_device_memcpy_ce 48 GB/s please\n", 1, "unexpected 'please'"},
    {"TwoCells", "device_to_device_memcpy_read_ce [0][1] [1][0] 335\n", 1,
     "a second selection of cells '[1][0]'"},
    {"Duplicate", "# floors\nhost_to_device_memcpy_ce 48\nhost_to_device_memcpy_ce 50\n", 3,
     "host_to_device_memcpy_ce again (first on line 2)"},
    {"DuplicateCell",
     "device_to_device_memcpy_read_ce [0][1] 335\ndevice_to_device_memcpy_read_ce [0][1] 335GB/s\n",
     2, "device_to_device_memcpy_read_ce [0][1] again (first on line 1)"},
    {"NulByte", std::string("host_to_device_memcpy_ce 48\n# \0 in a comment\n", 45), 2,
     "control character \\x00 at column 3"},
    {"Escape", "host_to_device_memcpy_ce 48\x1b[31m\n", 1, "control character \\x1b"},
    {"Delete", "host_to_device_memcpy_ce 48\x7f\n", 1, "control character \\x7f"},
    {"LoneCarriageReturn", "host_to_device_memcpy_ce\r48\n", 1, "control character \\r"},
    {"Binary", "\xff\xfe\x01\x02garbage", 1, "control character \\x01"},
    {"NotUtf8Key", "h\xc3\xb6st_to_device 48\n", 1, "unknown testcase 'h\\xc3\\xb6st_to_device'"},
    {"LongLine", "# " + std::string(2000, 'x') + "\n", 1, "longer than 1024 bytes"},
    {"LaterLine", "host_to_device_memcpy_ce 48\n\n\n# fine so far\ndevice_to_host_memcpy_ce 4 8\n",
     5, "a second number '8'"},
};

class ExpectationsMalformed : public ::testing::TestWithParam<Malformed> {};

TEST_P(ExpectationsMalformed, IsAUsageErrorNamingTheFileAndLine) {
  const Malformed& m = GetParam();
  try {
    parse(m.text);
    FAIL() << "accepted:\n" << m.text;
  } catch (const ExpectationsError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind(kLabel + " line " + std::to_string(m.line) + ": ", 0), 0u) << message;
    EXPECT_NE(message.find(m.says), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_LT(message.size(), 400u) << message;
    const UsageError* usage = &e;  // exit status 2
    EXPECT_NE(usage, nullptr);
  }
}

INSTANTIATE_TEST_SUITE_P(Lines, ExpectationsMalformed, ::testing::ValuesIn(kMalformed),
                         [](const auto& info) { return info.param.name; });

TEST(ExpectationsParser, AFileWithoutExpectationsIsRefused) {
  for (const std::string text : {"", "\n\n", "# only comments\n   # and more\n", "\xEF\xBB\xBF"}) {
    try {
      parse(text);
      FAIL() << "accepted an empty file: '" << text << "'";
    } catch (const ExpectationsError& e) {
      EXPECT_EQ(std::string(e.what()),
                kLabel + ": holds no expectation (lines of <testcase> [cells] <number>)");
    }
  }
}

double secondsToRefuse(const std::string& text, std::string& message) {
  const auto start = std::chrono::steady_clock::now();
  try {
    parse(text);
  } catch (const ExpectationsError& e) {
    message = e.what();
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST(ExpectationsParser, TenMegabytesOfNonsenseAreRefusedQuickly) {
  std::mt19937 random(19);
  std::string text(10u << 20, '\0');
  for (char& c : text) c = static_cast<char>(random());
  std::string message;
  EXPECT_LT(secondsToRefuse(text, message), 0.5);
  EXPECT_EQ(message, kLabel + ": is 10485760 bytes; expectations files larger than 4 MiB are not "
                              "read");
}

TEST(ExpectationsParser, NonsenseUnderTheSizeLimitIsRefusedAtItsFirstLine) {
  // Printable text without a newline, then text in lines: both refused at once, line 1.
  std::string message;
  EXPECT_LT(secondsToRefuse(std::string(3u << 20, 'x'), message), 0.5);
  EXPECT_NE(message.find(kLabel + " line 1: longer than 1024 bytes"), std::string::npos) << message;
  std::string lines;
  while (lines.size() < (3u << 20)) lines += "lorem ipsum dolor sit amet\n";
  EXPECT_LT(secondsToRefuse(lines, message), 0.5);
  EXPECT_NE(message.find(kLabel + " line 1: unknown testcase 'lorem'"), std::string::npos)
      << message;
}

TEST(ExpectationsParser, AFaultAfterMegabytesOfGoodLinesIsFoundQuickly) {
  // 50,000 distinct valid lines (3.2 MB), then one bad line: the parser stays linear.
  std::string text;
  for (std::size_t i = 0; i < 50000; ++i)
    text += "device_to_device_memcpy_read_ce [" + std::to_string(i / 4000) + "][" +
            std::to_string(i % 4000) + "] 335\n";
  text += "device_to_device_memcpy_read_ce 335 GB/s fast\n";
  ASSERT_LT(text.size(), kMaxExpectationsBytes);
  std::string message;
  EXPECT_LT(secondsToRefuse(text, message), 5.0);
  EXPECT_NE(message.find(kLabel + " line 50001: unexpected 'fast'"), std::string::npos) << message;
}

TEST(ExpectationsParser, ReadsAFileAsReportFilesAreRead) {
  const TempFile file("expect", "host_to_device_memcpy_ce 48\n");
  const Expectations e = readExpectations({"--expect", file.path()}, {});
  EXPECT_EQ(e.path, file.path());
  EXPECT_EQ(e.label, "--expect '" + file.path() + "'");
  ASSERT_EQ(e.lines.size(), 1u);

  // A directory is refused without being read; so is a file that is not there.
  EXPECT_THROW(readExpectations({"--expect", ::testing::TempDir()}, {}), ReportFileError);
  EXPECT_THROW(readExpectations({"--expect", file.path() + ".missing"}, {}), ReportFileError);
  const TempFile big("expect_big", std::string(kMaxExpectationsBytes + 1, '#'));
  try {
    readExpectations({"--expect", big.path()}, {});
    FAIL() << "read a file over the limit";
  } catch (const ExpectationsError& e) {
    EXPECT_NE(std::string(e.what()).find("larger than 4 MiB are not read"), std::string::npos);
  }
}

TEST(ExpectationsParser, TheShippedExamplesParse) {
  for (const char* name : {"h100.txt", "h200.txt", "a100.txt", "v100.txt"}) {
    const std::string path = kDocs + "/expectations/" + name;
    const Expectations e = readExpectations({"--expect", path}, {});
    EXPECT_FALSE(e.lines.empty()) << name;
    // Each says whose choice its numbers are.
    EXPECT_NE(readFile(path).find("other people's choice"), std::string::npos) << name;
  }
  const Expectations h100 = readExpectations({"--expect", kDocs + "/expectations/h100.txt"}, {});
  ASSERT_EQ(h100.lines.size(), 3u);
  EXPECT_EQ(h100.lines[0].selection(), "host_to_device_memcpy_ce");
  EXPECT_EQ(h100.lines[0].limit, 48.0);
  EXPECT_EQ(h100.lines[1].selection(), "device_to_host_memcpy_ce");
  EXPECT_EQ(h100.lines[1].limit, 48.0);
  EXPECT_EQ(h100.lines[2].selection(), "device_to_device_memcpy_read_ce");
  EXPECT_EQ(h100.lines[2].limit, 335.0);
  const Expectations a100 = readExpectations({"--expect", kDocs + "/expectations/a100.txt"}, {});
  ASSERT_EQ(a100.lines.size(), 3u);
  EXPECT_EQ(a100.lines[0].limit, 21.0);
  EXPECT_EQ(a100.lines[2].limit, 238.0);
  const Expectations v100 = readExpectations({"--expect", kDocs + "/expectations/v100.txt"}, {});
  ASSERT_EQ(v100.lines.size(), 2u);
  EXPECT_EQ(v100.lines[0].limit, 10.0);
}

// The example file of docs/verdicts.md (section Expectations) parses, and the text it shows for
// the 2 x H200 report is what the check prints.
TEST(ExpectationsParser, TheDocumentedExampleIsWhatTheCheckPrints) {
  const std::string page = readFile(kDocs + "/verdicts.md");
  auto block = [&page](const std::string& start) {
    const std::size_t from = page.find("```\n" + start);
    EXPECT_NE(from, std::string::npos) << start;
    const std::size_t body = from + 4;
    return page.substr(body, page.find("```", body) - body);
  };
  const ExpectationSection r =
      checkExpectations(parseExpectations(block("# key"), "--expect 'ex.txt'"),
                        golden("run_to_run_x2/issue11_full.json"));
  EXPECT_EQ(expectationText(r), block("BELOW device_to_device_memcpy_read_ce [0][1]: 393.89 GB/s, "
                                      "floor"));
}

// ---- The keys, against what the plans really report ---------------------------------------------

TEST(ExpectationKeys, EveryMatrixOfEveryPlanIsAKeyWithItsTestcaseAndUnit) {
  const FakeTopology single(2);
  FakeTopology world(1);
  world.setProcessFacts({2, std::nullopt, std::nullopt});
  const std::vector<TestcaseDef> registry = makeRegistry(RegistryScope::WithMultinode);
  ASSERT_EQ(registry.size(), registeredTestcases().size());
  for (const TestcaseDef& def : registry) {
    const bool multinode = def.testcase->facts().multiProcess;
    const Plan plan = def.plan(PlanContext{multinode ? world : single, std::size_t{64} << 20});
    ASSERT_FALSE(plan.matrices.empty()) << def.key;
    const auto testcase = lookUpExpectationKey(def.key);
    ASSERT_TRUE(testcase) << def.key;
    EXPECT_EQ(testcase->testcase, def.key);
    std::vector<std::string> suffixes;
    for (const MatrixSpec& m : plan.matrices) {
      const auto key = lookUpExpectationKey(def.key + m.key);
      ASSERT_TRUE(key) << def.key + m.key;
      EXPECT_EQ(key->testcase, def.key) << m.key;
      EXPECT_EQ(key->unit, m.unit == Unit::Nanoseconds ? "ns" : "GB/s") << def.key + m.key;
      suffixes.push_back(m.key);
    }
    // No key the plan does not report.
    for (const char* suffix : {"_read1", "_read2", "_write1", "_write2", "_total"})
      EXPECT_EQ(lookUpExpectationKey(def.key + suffix).has_value(),
                std::find(suffixes.begin(), suffixes.end(), suffix) != suffixes.end())
          << def.key + suffix;
  }
  EXPECT_FALSE(lookUpExpectationKey("host_to_device"));
  EXPECT_FALSE(lookUpExpectationKey(""));
}

// ---- Checks on the golden reports ---------------------------------------------------------------

TEST(ExpectationsCheck, TheH100FloorsPassARealTwoH200Run) {
  const Expectations h100 = readExpectations({"--expect", kDocs + "/expectations/h100.txt"}, {});
  const ExpectationSection r = checkExpectations(h100, golden("run_to_run_x2/issue11_full.json"));
  EXPECT_TRUE(passed(r)) << expectationText(r);
  EXPECT_EQ(r.check, "file");
  EXPECT_EQ(judgedCells(r), 6u);  // 2 host to device, 2 device to host, 2 peer reads
  EXPECT_EQ(metCells(r), 6u);
  EXPECT_TRUE(r.below->empty());
  EXPECT_TRUE(r.unmet->empty());
  EXPECT_EQ(tallies(r),
            (std::vector<std::string>{
                "host_to_device_memcpy_ce 2/0 " + std::to_string(h100.lines[0].line),
                "device_to_host_memcpy_ce 2/0 " + std::to_string(h100.lines[1].line),
                "device_to_device_memcpy_read_ce 2/0 " + std::to_string(h100.lines[2].line)}));
  const Expectations h200 = readExpectations({"--expect", kDocs + "/expectations/h200.txt"}, {});
  EXPECT_TRUE(passed(checkExpectations(h200, golden("run_to_run_x2/issue11_full.json"))));
}

TEST(ExpectationsCheck, FiveHundredEverywhereFailsWithEveryCellBelow) {
  const json report = golden("run_to_run_x2/issue11_full.json");
  const ExpectationSection r = check("host_to_device_memcpy_ce 500\ndevice_to_host_memcpy_ce 500\n"
                                     "device_to_device_memcpy_read_ce 500\n",
                                     report);
  EXPECT_FALSE(passed(r));
  EXPECT_EQ(ids(r),
            (std::vector<std::string>{
                "host_to_device_memcpy_ce[0][0]", "host_to_device_memcpy_ce[0][1]",
                "device_to_host_memcpy_ce[0][0]", "device_to_host_memcpy_ce[0][1]",
                "device_to_device_memcpy_read_ce[0][1]", "device_to_device_memcpy_read_ce[1][0]"}));
  EXPECT_EQ(belowCells(r), 6u);
  EXPECT_EQ(metCells(r), 0u);
  // Each with the report's figure, its floor and the line that set it.
  const json& testcases = report["nvbandwidth"]["testcases"];
  for (const BelowCellRecord& c : *r.below) {
    for (const json& entry : testcases) {
      if (entry["name"] == *c.name) {
        EXPECT_EQ(c.value, entry["values"][*c.row][*c.col].get<double>());
      }
    }
    EXPECT_EQ(c.limit, 500.0);
    EXPECT_EQ(c.bound, "floor");
    for (const JudgedMatrixRecord& m : *r.matrices) {
      if (m.name == c.name) {
        EXPECT_EQ(m.lines, std::vector<std::uint64_t>{*c.line});
      }
    }
  }
}

TEST(ExpectationsCheck, AValueEqualToItsLimitMeetsIt) {
  // Peer reads 110 / 101 GB/s, latency 509 / 519 ns.
  const json report = golden("fleet/fake_base.json");
  const ExpectationSection r =
      check("device_to_device_memcpy_read_ce 101\nhost_device_latency_sm 519 ns\n", report);
  EXPECT_TRUE(passed(r)) << expectationText(r);
  EXPECT_EQ(metCells(r), 4u);
  const ExpectationSection tighter =
      check("device_to_device_memcpy_read_ce 101.5\nhost_device_latency_sm 518.9 ns\n", report);
  EXPECT_EQ(ids(tighter), (std::vector<std::string>{"device_to_device_memcpy_read_ce[1][0]",
                                                    "host_device_latency_sm[0][1]"}));
  EXPECT_EQ((*tighter.below)[1].bound, "ceiling");
  EXPECT_EQ((*tighter.below)[1].unitText, "ns");
}

TEST(ExpectationsCheck, GpuSelectsTheCellsTheGpuTakesPartIn) {
  const json report = golden("d2d/json_four_gpu.json");
  // Peer reads: row 2 and column 2, less the N/A ones ([2][2], and [1][2], [2][1]: no access).
  const ExpectationSection peer = check("device_to_device_memcpy_read_ce GPU2 1000\n", report);
  EXPECT_EQ(ids(peer), (std::vector<std::string>{"device_to_device_memcpy_read_ce[0][2]",
                                                 "device_to_device_memcpy_read_ce[2][0]",
                                                 "device_to_device_memcpy_read_ce[2][3]",
                                                 "device_to_device_memcpy_read_ce[3][2]"}));
  // A one-row matrix (all GPUs into GPU c): only column c, although its title says GPU(row).
  const ExpectationSection fan = check("all_to_one_write_ce GPU2 1000\n", report);
  EXPECT_EQ(ids(fan), (std::vector<std::string>{"all_to_one_write_ce[0][2]"}));
}

TEST(ExpectationsCheck, TheMostSpecificLineWinsAndTheStrictestAmongEquals) {
  const json report = golden("d2d/json_four_gpu.json");
  // Floors above every value (101 .. 132), so every cell is BELOW and names its line.
  const ExpectationSection all =
      check("device_to_device_memcpy_read_ce 1000\n"         // line 1: every cell
            "device_to_device_memcpy_read_ce GPU3 1250\n"    // line 2
            "device_to_device_memcpy_read_ce GPU0 1050\n"    // line 3: [0][3] has GPU0 and GPU3
            "device_to_device_memcpy_read_ce [3][0] 900\n",  // line 4: one cell
            report);
  std::vector<std::string> lines;
  for (const BelowCellRecord& c : *all.below)
    lines.push_back(cellId(c) + " line " + std::to_string(*c.line));
  EXPECT_EQ(lines, (std::vector<std::string>{"device_to_device_memcpy_read_ce[0][1] line 3",
                                             "device_to_device_memcpy_read_ce[0][2] line 3",
                                             "device_to_device_memcpy_read_ce[0][3] line 2",
                                             "device_to_device_memcpy_read_ce[1][0] line 3",
                                             "device_to_device_memcpy_read_ce[1][3] line 2",
                                             "device_to_device_memcpy_read_ce[2][0] line 3",
                                             "device_to_device_memcpy_read_ce[2][3] line 2",
                                             "device_to_device_memcpy_read_ce[3][0] line 4",
                                             "device_to_device_memcpy_read_ce[3][1] line 2",
                                             "device_to_device_memcpy_read_ce[3][2] line 2"}));
  // Every off-diagonal cell with a value involves GPU 0 or 3: line 1 set no cell's floor, but it
  // covered cells, so it is not unmet.
  EXPECT_EQ(tallies(all),
            (std::vector<std::string>{"device_to_device_memcpy_read_ce 10/10 2 3 4"}));
  EXPECT_TRUE(all.unmet->empty());

  // An exception may lower a floor as well as raise it.
  const ExpectationSection r = check("device_to_device_memcpy_read_ce 100\n"
                                     "device_to_device_memcpy_read_ce GPU3 125\n"
                                     "device_to_device_memcpy_read_ce GPU0 105\n"
                                     "device_to_device_memcpy_read_ce [3][0] 50\n",
                                     report);
  EXPECT_EQ(ids(r), (std::vector<std::string>{"device_to_device_memcpy_read_ce[1][0]",
                                              "device_to_device_memcpy_read_ce[2][0]",
                                              "device_to_device_memcpy_read_ce[3][1]",
                                              "device_to_device_memcpy_read_ce[3][2]"}));
  EXPECT_EQ(metCells(r), 6u);
}

TEST(ExpectationsCheck, ATestcaseKeyCoversEveryMatrixAndAMatrixKeyOverridesIt) {
  const json report = golden("d2d/json_four_gpu.json");
  const ExpectationSection r = check("device_to_device_bidirectional_memcpy_read_ce 105\n"
                                     "device_to_device_bidirectional_memcpy_read_ce_total 240\n",
                                     report);
  EXPECT_EQ(tallies(r), (std::vector<std::string>{
                            "device_to_device_bidirectional_memcpy_read_ce_read1 10/3 1",
                            "device_to_device_bidirectional_memcpy_read_ce_read2 10/3 1",
                            "device_to_device_bidirectional_memcpy_read_ce_total 10/6 2"}));
  for (const JudgedMatrixRecord& m : *r.matrices)
    EXPECT_EQ(m.testcase, "device_to_device_bidirectional_memcpy_read_ce");
  EXPECT_EQ(ids(r), (std::vector<std::string>{
                        "device_to_device_bidirectional_memcpy_read_ce_read1[1][0]",
                        "device_to_device_bidirectional_memcpy_read_ce_read1[2][0]",
                        "device_to_device_bidirectional_memcpy_read_ce_read1[3][0]",
                        "device_to_device_bidirectional_memcpy_read_ce_read2[0][1]",
                        "device_to_device_bidirectional_memcpy_read_ce_read2[0][2]",
                        "device_to_device_bidirectional_memcpy_read_ce_read2[0][3]",
                        "device_to_device_bidirectional_memcpy_read_ce_total[0][1]",
                        "device_to_device_bidirectional_memcpy_read_ce_total[0][2]",
                        "device_to_device_bidirectional_memcpy_read_ce_total[0][3]",
                        "device_to_device_bidirectional_memcpy_read_ce_total[1][0]",
                        "device_to_device_bidirectional_memcpy_read_ce_total[2][0]",
                        "device_to_device_bidirectional_memcpy_read_ce_total[3][0]"}));
}

TEST(ExpectationsCheck, MissingWaivedAndFailedTestcasesAreUnmetAndFail) {
  const json report = golden("json_one_gpu.json");
  const ExpectationSection r =
      check("host_to_device_memcpy_ce 48\n"          // passes: 55.49
            "device_to_device_memcpy_read_ce 335\n"  // Waived: one GPU
            "device_local_copy 1000\n"               // ERROR: verification
            "all_to_host_memcpy_ce 20\n"             // not run
            "host_to_device_memcpy_ce GPU1 48\n"     // a GPU the node does not have
            "host_device_latency_sm 2000\n",         // passes: 1197 ns
            report);
  EXPECT_FALSE(passed(r));
  EXPECT_EQ(belowCells(r), 0u);
  EXPECT_EQ(metCells(r), 2u);
  ASSERT_EQ(r.unmet->size(), 4u);
  EXPECT_EQ((*r.unmet)[0].line, 2u);
  EXPECT_EQ((*r.unmet)[0].reason, "waived");
  EXPECT_EQ((*r.unmet)[0].expectation, "device_to_device_memcpy_read_ce");
  EXPECT_EQ((*r.unmet)[0].detail, "Waived: needs two GPUs with peer access; this system has 1 GPU");
  EXPECT_EQ((*r.unmet)[1].line, 3u);
  EXPECT_EQ((*r.unmet)[1].reason, "error");
  EXPECT_EQ(
      (*r.unmet)[1].detail->rfind("ERROR: Testcase device_local_copy failed: data verification", 0),
      0u);
  EXPECT_EQ((*r.unmet)[2].line, 4u);
  EXPECT_EQ((*r.unmet)[2].reason, "missing");
  EXPECT_EQ((*r.unmet)[2].detail, "all_to_host_memcpy_ce is not in the report");
  EXPECT_EQ((*r.unmet)[3].line, 5u);
  EXPECT_EQ((*r.unmet)[3].reason, "no_value");
  EXPECT_EQ((*r.unmet)[3].expectation, "host_to_device_memcpy_ce GPU1");
  EXPECT_EQ((*r.unmet)[3].detail, "the report has no value of GPU 1 in host_to_device_memcpy_ce");
}

TEST(ExpectationsCheck, ACellThatIsNotAvailableIsUnmet) {
  const ExpectationSection diagonal = check("device_to_device_memcpy_read_ce [1][1] 300\n",
                                            golden("run_to_run_x2/issue11_full.json"));
  ASSERT_EQ(diagonal.unmet->size(), 1u);
  EXPECT_EQ((*diagonal.unmet)[0].reason, "no_value");
  EXPECT_EQ((*diagonal.unmet)[0].detail,
            "the report has no value at [1][1] of device_to_device_memcpy_read_ce");
  const ExpectationSection allNa =
      check("device_to_device_latency_sm 1000\n", golden("json_verbose.json"));
  ASSERT_EQ(allNa.unmet->size(), 1u);
  EXPECT_EQ((*allNa.unmet)[0].detail, "every cell of device_to_device_latency_sm is N/A");
  EXPECT_FALSE(passed(allNa));
}

TEST(ExpectationsCheck, AMatrixKeyOfAWaivedTestcaseIsUnmet) {
  const ExpectationSection r = check("device_to_device_bidirectional_memcpy_read_ce_total 600\n",
                                     golden("upstream/default.json"));
  ASSERT_EQ(r.unmet->size(), 1u);
  EXPECT_EQ((*r.unmet)[0].reason, "waived");
  EXPECT_EQ((*r.unmet)[0].detail, "Waived");  // upstream gives no reason
}

TEST(ExpectationsCheck, UpstreamStringCellsAreJudged) {
  const json report = golden("upstream/default.json");
  const ExpectationSection r = check(
      "host_to_device_memcpy_ce 48\ndevice_local_copy 5000\nhost_device_latency_sm 10\n", report);
  EXPECT_EQ(judgedCells(r), 3u);
  EXPECT_EQ(ids(r),
            (std::vector<std::string>{"host_device_latency_sm[0][0]", "device_local_copy[0][0]"}));
  EXPECT_EQ((*r.below)[0].unitText, "ns");  // from the key: upstream writes no unit
  EXPECT_EQ((*r.below)[0].value, 1197.22);
  EXPECT_EQ((*r.below)[0].bound, "ceiling");
}

json upstreamStacked() {
  // Upstream v0.8 on two GPUs: the read1, read2 and total matrices of a bidirectional testcase
  // stacked in one entry of 6 rows.
  return {{"nvbandwidth",
           {{"CUDA Runtime Version", 12080},
            {"Driver Version", "570.86"},
            {"GPU Device list", {"0: NVIDIA H100", "1: NVIDIA H100"}},
            {"git_version", "v0.8"},
            {"version", "v0.8"},
            {"testcases",
             {{{"name", "device_to_device_bidirectional_memcpy_read_ce"},
               {"status", "Passed"},
               {"bandwidth_description", "memcpy CE GPU(row) <-> GPU(column) bandwidth (GB/s)"},
               {"bandwidth_matrix",
                json::array({json::array({"N/A", "370.1"}), json::array({"370.2", "N/A"}),
                             json::array({"N/A", "369.9"}), json::array({"369.8", "N/A"}),
                             json::array({"N/A", "740.0"}), json::array({"739.5", "N/A"})})},
               {"sum", 2959.5}}}}}}};
}

TEST(ExpectationsCheck, UpstreamStackedEntriesAreSplitIntoTheirMatrices) {
  const json report = upstreamStacked();
  checkReportShape(report, ReportKind::Run);
  const ExpectationSection r =
      check("device_to_device_bidirectional_memcpy_read_ce 370\n"
            "device_to_device_bidirectional_memcpy_read_ce_total [1][0] 739.6\n",
            report);
  EXPECT_EQ(tallies(r), (std::vector<std::string>{
                            "device_to_device_bidirectional_memcpy_read_ce_read1 2/0 1",
                            "device_to_device_bidirectional_memcpy_read_ce_read2 2/2 1",
                            "device_to_device_bidirectional_memcpy_read_ce_total 2/1 1 2"}));
  EXPECT_EQ(ids(r), (std::vector<std::string>{
                        "device_to_device_bidirectional_memcpy_read_ce_read2[0][1]",
                        "device_to_device_bidirectional_memcpy_read_ce_read2[1][0]",
                        "device_to_device_bidirectional_memcpy_read_ce_total[1][0]"}));
  EXPECT_EQ((*r.below)[2].value, 739.5);
  EXPECT_EQ((*r.below)[2].limit, 739.6);
  EXPECT_EQ((*r.below)[2].line, 2u);
}

TEST(ExpectationsCheck, GpuSelectsRowsAndColumnsOfSplitMatricesWithoutADescription) {
  json report = upstreamStacked();
  report["nvbandwidth"]["testcases"][0].erase("bandwidth_description");
  checkReportShape(report, ReportKind::Run);
  // The shape decides: each 2 x 2 part is GPU by GPU, so GPU1 is row 1 and column 1.
  const ExpectationSection r =
      check("device_to_device_bidirectional_memcpy_read_ce_total GPU1 800\n", report);
  EXPECT_EQ(ids(r), (std::vector<std::string>{
                        "device_to_device_bidirectional_memcpy_read_ce_total[0][1]",
                        "device_to_device_bidirectional_memcpy_read_ce_total[1][0]"}));
}

TEST(ExpectationsCheck, EverySizeOfASweepIsJudgedAndRunningIsUnmet) {
  const json report = golden("html/features.json");
  const ExpectationSection r =
      check("device_to_device_memcpy_read_ce 300\n"
            "device_to_device_memcpy_write_ce 300\n"  // interrupted: Running
            "host_to_device_memcpy_sm 20\n",          // Waived
            report);
  EXPECT_EQ(tallies(r), (std::vector<std::string>{"device_to_device_memcpy_read_ce@64 6/0 1",
                                                  "device_to_device_memcpy_read_ce@1 6/6 1"}));
  ASSERT_EQ(r.unmet->size(), 2u);
  EXPECT_EQ((*r.unmet)[0].reason, "running");
  EXPECT_EQ((*r.unmet)[1].reason, "waived");
  EXPECT_EQ((*r.unmet)[1].detail, "Waived: needs <two> GPUs & peer access");
  EXPECT_NE(expectationText(r).find(
                "BELOW device_to_device_memcpy_read_ce [0][1] at 1 MiB: 40.50 GB/s, floor 300 "
                "GB/s (line 1)\n"),
            std::string::npos)
      << expectationText(r);
}

TEST(ExpectationsCheck, ARunThatNeverStartedMeetsNothing) {
  const ExpectationSection r =
      check("host_to_device_memcpy_ce 48\n", golden("json_startup_failed.json"));
  EXPECT_FALSE(passed(r));
  ASSERT_EQ(r.unmet->size(), 1u);
  EXPECT_EQ((*r.unmet)[0].reason, "missing");
  ASSERT_EQ(r.notes->size(), 1u);
  EXPECT_EQ((*r.notes)[0].rfind("the run reported an error: ", 0), 0u);
}

// The run's own error and interruption are noted (runNotes), an empty one without the colon.
TEST(ExpectationsCheck, TheRunsErrorAndInterruptionAreNoted) {
  json report = golden("fleet/fake_base.json");
  report["nvbandwidth"]["error"] = "";
  report["nvbandwidth"]["interrupted"] = "SIGTERM";
  const ExpectationSection r = check("host_to_device_memcpy_ce 1\n", report);
  EXPECT_EQ(*r.notes, (std::vector<std::string>{"the run reported an error",
                                                "the run was interrupted by SIGTERM"}));
}

TEST(ExpectationsCheck, AReportInAnotherUnitIsUnmet) {
  json report = golden("fleet/fake_base.json");
  report["nvbandwidth"]["testcases"][0]["unit"] = "ns";
  const ExpectationSection r = check("host_to_device_memcpy_ce 48\n", report);
  ASSERT_EQ(r.unmet->size(), 1u);
  EXPECT_EQ((*r.unmet)[0].reason, "unit_mismatch");
  EXPECT_EQ(judgedCells(r), 0u);
  EXPECT_TRUE(r.matrices->empty());
}

TEST(ExpectationsCheck, ADocumentOfTheWrongShapeIsRefused) {
  EXPECT_THROW(check("host_to_device_memcpy_ce 48\n", json::array()), ReportShapeError);
  json report = golden("fleet/fake_base.json");
  report["nvbandwidth"]["testcases"][0]["values"][0][0] = "fast";
  EXPECT_THROW(check("host_to_device_memcpy_ce 48\n", report), ReportShapeError);
}

// ---- Percent of peak ----------------------------------------------------------------------------

TEST(PercentOfPeak, JudgesEveryCellWithAKnownPeak) {
  const json report = golden("run_to_run_x2/issue11_full.json");
  const ExpectationSection r = checkPercentOfPeak(80.0, report);
  EXPECT_EQ(r.check, "percent_of_peak");
  EXPECT_EQ(r.label, "--min-percent-of-peak 80");
  // The same counts, made independently from the report.
  std::size_t known = 0, low = 0, latency = 0;
  for (const json& entry : report["nvbandwidth"]["testcases"]) {
    const bool ns = entry["unit"] == "ns";
    for (std::size_t row = 0; row < entry["values"].size(); ++row)
      for (std::size_t col = 0; col < entry["values"][row].size(); ++col) {
        if (entry["values"][row][col].is_null()) continue;
        if (ns) {
          ++latency;
          continue;
        }
        const json& p = entry["percent_of_peak"][row][col];
        if (p.is_null()) continue;
        ++known;
        if (p.get<double>() < 80.0) ++low;
      }
  }
  EXPECT_EQ(judgedCells(r), known);
  EXPECT_EQ(belowCells(r), low);
  EXPECT_EQ(r.below->size(), low);
  EXPECT_GT(low, 0u);
  EXPECT_FALSE(passed(r));
  EXPECT_EQ(notJudgedCells(r), latency);  // every bandwidth cell of this run has a peak
  for (const NotJudgedRecord& n : *r.notJudged) EXPECT_EQ(n.reason, "latency: no peak") << *n.name;
  const BelowCellRecord& first = (*r.below)[0];
  EXPECT_EQ(cellId(first), "host_to_device_bidirectional_memcpy_ce[0][0]");
  EXPECT_NEAR(**first.percentOfPeak, 75.18, 0.01);
  EXPECT_NEAR(**first.peakGBps, 63.015, 0.001);
  EXPECT_EQ(first.link->value_or(""), "PCIe Gen5 x16");
  EXPECT_EQ(first.limit, 80.0);
  EXPECT_EQ((*r.matrices)[0].name, "host_to_device_memcpy_ce");  // judged, every cell met
  EXPECT_EQ((*r.matrices)[0].below, 0u);
  EXPECT_FALSE((*r.matrices)[0].lines.has_value());
  EXPECT_TRUE(passed(checkPercentOfPeak(42.0, report)));  // the lowest: 42.36% (host_to_all)
}

TEST(PercentOfPeak, CellsWithoutAPeakAreListedNotJudged) {
  const ExpectationSection r = checkPercentOfPeak(80.0, golden("html/features.json"));
  // At 64 MiB five peer reads have a peak, one ([1][2]) none; at 1 MiB none has.
  EXPECT_EQ(judgedCells(r), 5u);
  EXPECT_TRUE(passed(r));
  std::vector<std::string> items;
  for (const NotJudgedRecord& n : *r.notJudged)
    items.push_back(*n.name + (n.bufferSizeMiB ? "@" + std::to_string(*n.bufferSizeMiB) : "") +
                    " " + std::to_string(*n.cells) + " " + *n.reason);
  EXPECT_EQ(items, (std::vector<std::string>{"device_to_device_memcpy_read_ce@64 1 no known peak",
                                             "device_to_device_memcpy_read_ce@1 6 no known peak",
                                             "device_to_device_latency_sm 6 latency: no peak",
                                             "multinode_bisect_write_ce 2 no known peak",
                                             "host_to_device_memcpy_sm 0 Waived",
                                             "no<such>&test 0 ERROR", "device_local_copy 0 Passed",
                                             "device_to_device_memcpy_write_ce 0 Running"}));
}

TEST(PercentOfPeak, AReportWithoutPeaksFailsForNothingJudged) {
  for (const char* name :
       {"upstream/default.json", "json_one_gpu.json", "d2d/json_four_gpu.json"}) {
    const ExpectationSection r = checkPercentOfPeak(50.0, golden(name));
    EXPECT_EQ(judgedCells(r), 0u) << name;
    EXPECT_FALSE(passed(r)) << name;
    ASSERT_EQ(r.unmet->size(), 1u) << name;
    EXPECT_EQ((*r.unmet)[0].reason, "nothing_judged");
    EXPECT_EQ((*r.unmet)[0].expectation, "--min-percent-of-peak 50");
  }
  const ExpectationSection upstream = checkPercentOfPeak(50.0, golden("upstream/default.json"));
  EXPECT_NE(std::find(upstream.notes->begin(), upstream.notes->end(),
                      "an upstream v0.8 report carries no peaks"),
            upstream.notes->end());
}

TEST(PercentOfPeak, TheMinimumMustBeAPercentage) {
  const json report = golden("run_to_run_x2/issue11_full.json");
  for (double bad : {0.0, -5.0, 100.5, std::nan(""), HUGE_VAL})
    EXPECT_THROW(checkPercentOfPeak(bad, report), std::invalid_argument) << bad;
  EXPECT_NO_THROW(checkPercentOfPeak(100.0, report));
  EXPECT_EQ(checkPercentOfPeak(82.5, report).label, "--min-percent-of-peak 82.5");
}

// ---- Views
// ---------------------------------------------------------------------------------------

TEST(ExpectationsText, NamesEveryBelowCellWithItsFigureAndFloorThenTheSummary) {
  const ExpectationSection r = check("host_to_device_memcpy_ce 500\ndevice_to_host_memcpy_ce 48\n"
                                     "device_to_device_memcpy_read_ce [0][1] 500 # one pair\n"
                                     "host_device_latency_sm 700 ns\n"
                                     "device_to_device_memcpy_write_tma 300\n",
                                     golden("run_to_run_x2/issue11_full.json"));
  EXPECT_EQ(expectationText(r),
            "BELOW host_to_device_memcpy_ce [0][0]: 55.39 GB/s, floor 500 GB/s (line 1)\n"
            "BELOW host_to_device_memcpy_ce [0][1]: 55.41 GB/s, floor 500 GB/s (line 1)\n"
            "BELOW device_to_device_memcpy_read_ce [0][1]: 393.89 GB/s, floor 500 GB/s (line 3)\n"
            "BELOW host_device_latency_sm [0][0]: 1198.97 ns, ceiling 700 ns (line 4)\n"
            "BELOW host_device_latency_sm [0][1]: 1197.83 ns, ceiling 700 ns (line 4)\n"
            "Expectations --expect 'h100.txt': FAILED: 9 cells: 4 met, 5 BELOW; 0 "
            "unmet.\n");
}

TEST(ExpectationsText, UnmetLinesAndAPassingSummary) {
  const ExpectationSection passing =
      check("host_to_device_memcpy_ce 48\n", golden("run_to_run_x2/issue11_full.json"));
  EXPECT_EQ(expectationText(passing),
            "Expectations --expect 'h100.txt': PASSED: 2 cells: 2 met, 0 BELOW; 0 unmet.\n");
  const ExpectationSection r =
      check("host_to_device_memcpy_ce 48\ndevice_to_device_memcpy_read_ce 335\n"
            "all_to_host_memcpy_ce 20\n",
            golden("json_one_gpu.json"));
  EXPECT_EQ(expectationText(r),
            "UNMET device_to_device_memcpy_read_ce (line 2): Waived: needs two GPUs with peer "
            "access; this system has 1 GPU\n"
            "UNMET all_to_host_memcpy_ce (line 3): all_to_host_memcpy_ce is not in the report\n"
            "Expectations --expect 'h100.txt': FAILED: 1 cells: 1 met, 0 BELOW; 2 unmet.\n");
}

TEST(ExpectationsText, PercentOfPeakNamesThePeakAndListsWhatItCouldNotJudge) {
  const std::string text =
      expectationText(checkPercentOfPeak(88.0, golden("run_to_run_x2/issue11_full.json")));
  EXPECT_NE(text.find("BELOW host_to_device_memcpy_ce [0][0]: 55.39 GB/s is 87.91% of its 63.02 "
                      "GB/s peak (PCIe Gen5 x16), below 88%\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("Not judged (2): host_device_latency_sm (2 cells, latency: no peak),\n"
                      "  device_to_device_latency_sm (2 cells, latency: no peak)\n"),
            std::string::npos)
      << text;
  for (std::size_t start = 0, end; (end = text.find('\n', start)) != std::string::npos;
       start = end + 1)
    if (text.compare(start, 6, "BELOW ") != 0 && text.compare(start, 13, "Expectations ") != 0) {
      EXPECT_LE(end - start, 80u) << text.substr(start);
    }
  EXPECT_NE(text.find("Expectations --min-percent-of-peak 88: FAILED: 104 cells: 4 met, 100 BELOW; "
                      "0 unmet; 4 not judged.\n"),
            std::string::npos)
      << text;
}

TEST(ExpectationsText, TextFromTheReportIsEscaped) {
  json report = golden("json_one_gpu.json");
  report["nvbandwidth"]["testcases"][1]["waive_reason"] = "bad\x1b[2J\nreason";
  const std::string text = expectationText(check("device_to_device_memcpy_read_ce 335\n", report));
  EXPECT_NE(text.find("Waived: bad\\x1b[2J\\nreason\n"), std::string::npos) << text;
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
}

TEST(ExpectationsJson, HoldsTheBelowCellsTheMatricesTheLinesAndTheSummary) {
  const ExpectationSection r =
      check("host_to_device_memcpy_ce 500\ndevice_to_device_memcpy_read_ce GPU1 335\n"
            "all_to_host_memcpy_sm 1\n",
            golden("run_to_run_x2/issue11_full.json"));
  const json j = sectionJson(r);
  EXPECT_EQ(j["check"], "file");
  EXPECT_EQ(j["label"], kLabel);
  EXPECT_EQ(j["passed"], false);
  EXPECT_EQ(j["summary"], (json{{"cells", 6},
                                {"met", 4},
                                {"below", 2},
                                {"below_not_listed", 0},
                                {"unmet", 0},
                                {"not_judged", 0}}));
  ASSERT_EQ(j["matrices"].size(), 3u);
  EXPECT_EQ(j["matrices"][0], (json{{"name", "host_to_device_memcpy_ce"},
                                    {"testcase", "host_to_device_memcpy_ce"},
                                    {"unit", "GB/s"},
                                    {"cells", 2},
                                    {"met", 0},
                                    {"below", 2},
                                    {"lines", {1}}}));
  ASSERT_EQ(j["below"].size(), 2u);
  EXPECT_EQ(j["below"][1], (json{{"name", "host_to_device_memcpy_ce"},
                                 {"testcase", "host_to_device_memcpy_ce"},
                                 {"row", 0},
                                 {"col", 1},
                                 {"unit", "GB/s"},
                                 {"value", *(*r.below)[1].value},
                                 {"bound", "floor"},
                                 {"limit", 500.0},
                                 {"line", 1}}));
  ASSERT_EQ(j["expectations"].size(), 3u);
  EXPECT_EQ(j["expectations"][1], (json{{"line", 2},
                                        {"name", "device_to_device_memcpy_read_ce"},
                                        {"testcase", "device_to_device_memcpy_read_ce"},
                                        {"cells", "GPU1"},
                                        {"unit", "GB/s"},
                                        {"bound", "floor"},
                                        {"limit", 335.0}}));
  EXPECT_EQ(j["file"], "");
  const json p = sectionJson(checkPercentOfPeak(85.0, golden("run_to_run_x2/issue11_full.json")));
  EXPECT_EQ(p["check"], "percent_of_peak");
  EXPECT_EQ(p["min_percent_of_peak"], 85.0);
  EXPECT_EQ(p["below"][0]["link"], "PCIe Gen5 x16");
  EXPECT_FALSE(p["matrices"][0].contains("lines"));
  EXPECT_FALSE(p.contains("expectations"));
}

// A report of 317 GPUs whose peer reads are all below their floor: 100,489 BELOW cells, of which
// the first 100,000 are listed; the counts stay exact.
TEST(ExpectationsJson, BelowCellsBeyondTheListAreCounted) {
  const std::size_t gpus = 317;
  json devices = json::array(), values = json::array();
  for (std::size_t i = 0; i < gpus; ++i) devices.push_back("GPU " + std::to_string(i));
  const json row(std::vector<double>(gpus, 1.0));
  for (std::size_t i = 0; i < gpus; ++i) values.push_back(row);
  json entry = {{"name", "device_to_device_memcpy_read_ce"},
                {"status", "Passed"},
                {"unit", "GB/s"},
                {"values", values}};
  const json report = {{"nvbandwidth",
                        {{"schema_version", "1.0"},
                         {"version", "v0.8"},
                         {"git_version", ""},
                         {"GPU Device list", devices},
                         {"testcases", json::array({entry})}}}};
  checkReportShape(report, ReportKind::Run);
  const ExpectationSection r = check("device_to_device_memcpy_read_ce 2\n", report);
  EXPECT_EQ(judgedCells(r), gpus * gpus);
  EXPECT_EQ(belowCells(r), gpus * gpus);
  EXPECT_EQ(r.below->size(), kMaxListedBelowCells);
  const std::string text = expectationText(r);
  EXPECT_NE(text.find("\nBELOW ... and 489 more cells, not listed\nExpectations --expect "
                      "'h100.txt': FAILED: 100489 cells: 0 met, 100489 BELOW; 0 unmet.\n"),
            std::string::npos);
  EXPECT_EQ(sectionJson(r)["summary"]["below_not_listed"], 489);
}

// The run document with an "expectations" section, validated against the schema by the same
// validator the CLI schema tests use.
test::RunResult validate(const json& document) {
  const std::string validator =
      (std::filesystem::path(kDocs) / ".." / "tests" / "schema" / "validate.py").lexically_normal();
  const TempFile file("expectations_doc", document.dump(1));
  test::RunSpec spec("/usr/bin/python3",
                     {validator, kDocs + "/nvbandwidth.schema.json", file.path()});
  spec.killAfter = std::chrono::seconds(60);
  return test::runProgram(spec);
}

json withExpectations(const std::string& report, const std::vector<ExpectationSection>& results) {
  json document = golden(report);
  document["nvbandwidth"]["expectations"] = expectationSectionsJson(results);
  return document;
}

TEST(ExpectationsJson, TheSectionValidatesAgainstTheSchema) {
  ASSERT_EQ(access("/usr/bin/python3", X_OK), 0) << "the schema tests need /usr/bin/python3";
  const json h200 = golden("run_to_run_x2/issue11_full.json");
  const Expectations h100 = readExpectations({"--expect", kDocs + "/expectations/h100.txt"}, {});
  const std::vector<json> documents = {
      withExpectations("run_to_run_x2/issue11_full.json",
                       {checkExpectations(h100, h200), checkPercentOfPeak(85.0, h200)}),
      withExpectations("json_one_gpu.json",
                       {check("host_to_device_memcpy_ce 500\ndevice_to_device_memcpy_read_ce "
                              "GPU0 335\nall_to_host_memcpy_ce 20\nhost_device_latency_sm 700\n",
                              golden("json_one_gpu.json")),
                        checkPercentOfPeak(50.0, golden("json_one_gpu.json"))}),
      withExpectations("html/features.json",
                       {check("device_to_device_memcpy_read_ce 300\ndevice_to_device_memcpy_"
                              "write_ce [0][1] 1\n",
                              golden("html/features.json")),
                        checkPercentOfPeak(81.5, golden("html/features.json"))}),
      withExpectations("json_startup_failed.json", {check("host_to_device_memcpy_ce 48\n",
                                                          golden("json_startup_failed.json"))}),
      withExpectations("fleet/fake_base.json", {}),
  };
  for (const json& document : documents) {
    const test::RunResult run = validate(document);
    EXPECT_EQ(run.exitCode, 0) << test::describe(run);
  }
}

TEST(ExpectationsJson, TheSchemaRejectsAWrongSection) {
  const json h200 = golden("run_to_run_x2/issue11_full.json");
  const json good =
      withExpectations("run_to_run_x2/issue11_full.json", {checkPercentOfPeak(85.0, h200)});
  json badBound = good, missingSummary = good, wrongCheck = good, extraKey = good, noMinimum = good;
  badBound["nvbandwidth"]["expectations"][0]["below"][0]["bound"] = "minimum";
  missingSummary["nvbandwidth"]["expectations"][0].erase("summary");
  wrongCheck["nvbandwidth"]["expectations"][0]["check"] = "baseline";
  extraKey["nvbandwidth"]["expectations"][0]["below"][0]["colour"] = "red";
  noMinimum["nvbandwidth"]["expectations"][0].erase("min_percent_of_peak");
  for (const json* document : {&badBound, &missingSummary, &wrongCheck, &extraKey, &noMinimum}) {
    const test::RunResult run = validate(*document);
    EXPECT_EQ(run.exitCode, 1) << test::describe(run);
  }
  EXPECT_EQ(validate(good).exitCode, 0);
}

}  // namespace test_expectations
}  // namespace nvbw
