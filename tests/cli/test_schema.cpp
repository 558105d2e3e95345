// Checks docs/nvbandwidth.schema.json against what the tool really prints: the golden documents,
// runs of the application on faked 1-, 2- and 8-GPU machines, and the real binary on this machine
// (start-up failure without a GPU, -j -l). Mutated documents prove the schema rejects what it
// should. Validation is done by tests/schema/validate.py with python3-jsonschema, an independent
// implementation of the standard, so the schema is tested as consumers will use it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "golden.h"
#include "run_binary.h"
#include "temp_file.h"

namespace test_schema {

namespace fs = std::filesystem;
using nlohmann::json;
using nvbw::test::gpuPresent;
using nvbw::test::readFile;
using nvbw::test::TempFile;

const std::string kPython = "/usr/bin/python3";
const std::string kSchema = std::string(NVBW_DOCS_DIR) + "/nvbandwidth.schema.json";
const std::string kValidator =
    (fs::path(NVBW_DOCS_DIR) / ".." / "tests" / "schema" / "validate.py").lexically_normal();

// ---- running processes --------------------------------------------------------------------

using Environment = std::vector<std::pair<std::string, std::string>>;
using Finished = nvbw::test::RunResult;

// Runs argv[0] (a path) with `env` added to ours; `interruptAfter`: send SIGINT that long after
// the start. Whole 8-GPU runs are larger and slower than most: a minute before it counts as hung.
Finished runProcess(const std::vector<std::string>& command, const Environment& extraEnv = {},
                    std::optional<std::chrono::milliseconds> interruptAfter = std::nullopt) {
  nvbw::test::RunSpec spec(command.at(0), {command.begin() + 1, command.end()});
  spec.env = extraEnv;
  if (interruptAfter) {
    spec.signal = SIGINT;
    spec.signalAfter = *interruptAfter;
  }
  spec.killAfter = std::chrono::seconds(60);
  return nvbw::test::runProgram(spec);
}

std::string shortDescription(const Finished& run) {
  // Whole 8-GPU documents are hundreds of KiB; the start and the end say enough.
  constexpr std::size_t kShown = 4000;
  std::string out = run.out;
  if (out.size() > 2 * kShown)
    out = out.substr(0, kShown) + "\n[...]\n" + out.substr(out.size() - kShown);
  return "exit " + std::to_string(run.exitCode) + " signal " + std::to_string(run.signal) +
         (run.timedOut ? " (timed out)" : "") + "\n--- stdout ---\n" + out + "\n--- stderr ---\n" +
         run.err;
}

// ---- the validator ------------------------------------------------------------------------

// CI installs python3-jsonschema, so a missing validator is a broken setup and must fail the
// tests (a skip would let the schema go unchecked unnoticed).
constexpr const char* kInstallHint =
    "the schema tests need /usr/bin/python3 with the jsonschema module (Draft 2020-12, 4.10 or "
    "later): install python3-jsonschema (apt-get install python3-jsonschema, or run "
    "./debian_install.sh)";

// Empty when the validator can run; otherwise why not.
const std::string& validatorProblem() {
  static const std::string problem = [] {
    if (access(kPython.c_str(), X_OK) != 0) return kPython + " is missing. " + kInstallHint;
    const Finished probe =
        runProcess({kPython, "-c", "import jsonschema; jsonschema.Draft202012Validator"});
    if (probe.exitCode != 0)
      return "the jsonschema module cannot be imported (" + probe.err + "). " + kInstallHint;
    if (access(kValidator.c_str(), R_OK) != 0) return kValidator + " is missing";
    return std::string();
  }();
  return problem;
}

#define ASSERT_VALIDATOR_AVAILABLE() ASSERT_TRUE(validatorProblem().empty()) << validatorProblem()

Finished validate(const std::vector<std::string>& files) {
  std::vector<std::string> command = {kPython, kValidator, kSchema};
  command.insert(command.end(), files.begin(), files.end());
  return runProcess(command);
}

Finished validateText(const std::string& stem, const std::string& text) {
  const TempFile file("schema_" + stem, text);
  return validate({file.path()});
}

// Validates what a run printed on stdout, after checking that it is one JSON document.
void expectValidDocument(const Finished& run, const std::string& stem) {
  ASSERT_FALSE(run.timedOut) << shortDescription(run);
  ASSERT_TRUE(json::accept(run.out)) << "not one JSON document:\n" << shortDescription(run);
  const Finished check = validateText(stem, run.out);
  EXPECT_EQ(check.exitCode, 0) << "validator:\n"
                               << check.out << check.err << "\ndocument from:\n"
                               << shortDescription(run);
}

Finished runFake(std::vector<std::string> args, int gpus) {
  args.insert(args.begin(), NVBW_FAKE_BINARY);
  return runProcess(args, {{"NVBW_FAKE_GPUS", std::to_string(gpus)}});
}

// ---- the schema itself --------------------------------------------------------------------

TEST(Schema, ValidatorIsInstalled) { ASSERT_VALIDATOR_AVAILABLE(); }

const json& schema() {
  static const json parsed = json::parse(readFile(kSchema));
  return parsed;
}

// Follows "#/$defs/<name>" references; other references are not used by this schema.
const json& resolved(const json& node) {
  if (!node.is_object() || !node.contains("$ref")) return node;
  const std::string ref = node["$ref"];
  const std::string prefix = "#/$defs/";
  if (ref.rfind(prefix, 0) != 0) throw std::runtime_error("unexpected $ref " + ref);
  return resolved(schema().at("$defs").at(ref.substr(prefix.size())));
}

void collectUndescribed(const json& node, const std::string& where,
                        std::vector<std::string>& missing) {
  if (node.is_array()) {
    for (std::size_t i = 0; i < node.size(); ++i)
      collectUndescribed(node[i], where + "/" + std::to_string(i), missing);
    return;
  }
  if (!node.is_object()) return;
  for (const auto& [key, value] : node.items()) {
    // Conditions only test a document; the branches they select carry the descriptions.
    if (key == "if" || key == "not") continue;
    if (key == "properties") {
      for (const auto& [name, property] : value.items())
        if (!resolved(property).contains("description"))
          missing.push_back(where + "/properties/" + name);
    }
    if (key == "items" && !resolved(value).contains("description"))
      missing.push_back(where + "/items");
    collectUndescribed(value, where + "/" + key, missing);
  }
}

TEST(Schema, IsDraft202012AndDescribesEveryProperty) {
  EXPECT_EQ(schema().value("$schema", ""), "https://json-schema.org/draft/2020-12/schema");
  std::vector<std::string> missing;
  collectUndescribed(schema(), "#", missing);
  std::string list;
  for (const std::string& m : missing) list += "\n  " + m;
  EXPECT_TRUE(missing.empty()) << "without a description:" << list;
}

// ---- golden documents ---------------------------------------------------------------------

TEST(Schema, GoldenDocumentsValidate) {
  ASSERT_VALIDATOR_AVAILABLE();
  std::vector<std::string> files;
  bool listing = false;
  for (const auto& entry : fs::recursive_directory_iterator(NVBW_GOLDEN_DIR)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
    // upstream/ holds upstream v0.8's own output, which predates this layout (see below).
    if (entry.path().parent_path().filename() == "upstream") continue;
    listing |= entry.path().filename() == "listing.json";
    files.push_back(entry.path().string());
  }
  ASSERT_GE(files.size(), 7u) << "golden JSON documents went missing from " << NVBW_GOLDEN_DIR;
  EXPECT_TRUE(listing) << "listing.json (the -j -l kind) went missing";
  const Finished check = validate(files);
  EXPECT_EQ(check.exitCode, 0) << check.out << check.err;
}

// The schema describes layout 1.0 ("schema_version"), not upstream's document: upstream lacks
// the keys this layout requires (schema_version, settings, unit, values, cells, ...). A schema
// that accepted it would not be checking those keys.
TEST(Schema, UpstreamV08DocumentIsNotALayout10Document) {
  ASSERT_VALIDATOR_AVAILABLE();
  const Finished check = validate({std::string(NVBW_GOLDEN_DIR) + "/upstream/default.json"});
  EXPECT_EQ(check.exitCode, 1) << check.out << check.err;
  EXPECT_NE(check.out.find("'schema_version' is a required property"), std::string::npos)
      << check.out;
}

// ---- documents the application prints ----------------------------------------------------

struct FakeRunCase {
  int gpus;
  bool verbose;
};

void PrintTo(const FakeRunCase& c, std::ostream* os) {
  *os << c.gpus << " GPUs" << (c.verbose ? ", -v" : "");
}

class SchemaFakeRun : public ::testing::TestWithParam<FakeRunCase> {};

TEST_P(SchemaFakeRun, EveryTestcaseDocumentValidates) {
  ASSERT_VALIDATOR_AVAILABLE();
  std::vector<std::string> args = {"-j"};
  if (GetParam().verbose) args.push_back("-v");
  const Finished run = runFake(args, GetParam().gpus);
  EXPECT_EQ(run.exitCode, 0) << shortDescription(run);
  expectValidDocument(run, "fake");
  // The -v keys must really be there, or the schema's optional min/max/average went untested.
  const bool hasAverage = run.out.find("\"average\" : ") != std::string::npos;
  EXPECT_EQ(hasAverage, GetParam().verbose);
}

INSTANTIATE_TEST_SUITE_P(GpuCounts, SchemaFakeRun,
                         ::testing::Values(FakeRunCase{1, false}, FakeRunCase{1, true},
                                           FakeRunCase{2, false}, FakeRunCase{2, true},
                                           FakeRunCase{8, false}, FakeRunCase{8, true}),
                         [](const ::testing::TestParamInfo<FakeRunCase>& info) {
                           return std::to_string(info.param.gpus) + "gpu" +
                                  (info.param.verbose ? "_verbose" : "");
                         });

// Runs whose GPUs have link facts and an environment snapshot: links, peaks, percents, outliers
// (the 8-GPU fake's values spread enough to flag some) and both environment objects.
TEST(Schema, FakeRunsWithLinkFactsValidate) {
  ASSERT_VALIDATOR_AVAILABLE();
  const std::vector<std::pair<std::string, int>> cases = {
      {"direct", 2}, {"nvswitch", 8}, {"none", 2}};
  for (const auto& [links, gpus] : cases) {
    SCOPED_TRACE(links);
    const Finished run =
        runProcess({NVBW_FAKE_BINARY, "-j", "-v"},
                   {{"NVBW_FAKE_GPUS", std::to_string(gpus)}, {"NVBW_FAKE_LINKS", links}});
    EXPECT_EQ(run.exitCode, 0) << shortDescription(run);
    EXPECT_NE(run.out.find("\"percent_of_peak\" : "), std::string::npos);
    EXPECT_NE(run.out.find("\"environment_at_end\" : "), std::string::npos);
    if (gpus == 8) {
      EXPECT_NE(run.out.find("\"below_median_percent\" : "), std::string::npos);
    }
    expectValidDocument(run, "links_" + links);
  }
}

// Cells above their link's peak (the fake's host copies unscaled): "above_peak" and the warnings.
TEST(Schema, FakeRunAboveItsPeaksValidates) {
  ASSERT_VALIDATOR_AVAILABLE();
  const Finished run = runProcess(
      {NVBW_FAKE_BINARY, "-j", "-t", "0", "4"},
      {{"NVBW_FAKE_GPUS", "2"}, {"NVBW_FAKE_LINKS", "direct"}, {"NVBW_FAKE_HOST_SCALE", "100"}});
  EXPECT_EQ(run.exitCode, 0) << shortDescription(run);
  EXPECT_NE(run.out.find("\"above_peak\" : "), std::string::npos) << shortDescription(run);
  expectValidDocument(run, "above_peak");
}

TEST(Schema, FakeRunWithUnknownTestcasesValidates) {
  ASSERT_VALIDATOR_AVAILABLE();
  // An empty token is reported under an empty name.
  const Finished run = runFake({"-j", "-t", "0", "99", "nosuch", ""}, 2);
  EXPECT_EQ(run.exitCode, 1) << shortDescription(run);
  EXPECT_NE(run.out.find("\"status\" : \"ERROR\""), std::string::npos) << shortDescription(run);
  EXPECT_NE(run.out.find("\"name\" : \"\""), std::string::npos) << shortDescription(run);
  expectValidDocument(run, "unknown");
}

// -m and -b below 512 MiB: "statistic" : "mean" and the warning/warnings pair.
TEST(Schema, FakeRunWithMeanAndSmallBufferValidates) {
  ASSERT_VALIDATOR_AVAILABLE();
  const Finished run = runFake({"-j", "-m", "-b", "64", "-t", "0"}, 2);
  EXPECT_EQ(run.exitCode, 0) << shortDescription(run);
  EXPECT_NE(run.out.find("\"warnings\" : "), std::string::npos) << shortDescription(run);
  EXPECT_NE(run.out.find("\"statistic\" : \"mean\""), std::string::npos) << shortDescription(run);
  expectValidDocument(run, "mean");
}

// A signal mid-run: top-level "interrupted" and the cut-short testcase's ERROR entry.
TEST(Schema, InterruptedFakeRunValidates) {
  ASSERT_VALIDATOR_AVAILABLE();
  // Slow samples keep the run going long after the signal arrives.
  const Finished run =
      runProcess({NVBW_FAKE_BINARY, "-j"}, {{"NVBW_FAKE_GPUS", "2"}, {"NVBW_FAKE_SAMPLE_MS", "50"}},
                 std::chrono::milliseconds(500));
  EXPECT_EQ(run.exitCode, 128 + SIGINT) << shortDescription(run);
  EXPECT_NE(run.out.find("\"interrupted\" : \"SIGINT\""), std::string::npos)
      << shortDescription(run);
  expectValidDocument(run, "interrupted");
}

// Issue 19: a run with confirmation runs (suspect cells measured again: "confirmations" and the
// comparison's "confirmation"), with --expect and --min-percent-of-peak; --from and --compare with
// the checks.
TEST(Schema, ConfirmationAndExpectationDocumentsValidate) {
  ASSERT_VALIDATOR_AVAILABLE();
  const Environment links = {{"NVBW_FAKE_GPUS", "2"}, {"NVBW_FAKE_LINKS", "nvswitch"}};
  const Finished base =
      runProcess({NVBW_FAKE_BINARY, "-j", "-t", "0", "4", "--sweep", "16:32"}, links);
  ASSERT_EQ(base.exitCode, 0) << shortDescription(base);
  const TempFile baseline("schema_confirm_base", base.out);
  const TempFile floors("schema_floors", "host_to_device_memcpy_ce 1000\n");
  Environment slow = links;
  slow.push_back({"NVBW_FAKE_SCALE", "80"});
  slow.push_back({"NVBW_FAKE_FIRST_SCALE", "90"});
  const Finished run =
      runProcess({NVBW_FAKE_BINARY, "-j", "-t", "0", "4", "--sweep", "16:32", "--baseline",
                  baseline.path(), "--expect", floors.path(), "--min-percent-of-peak", "10"},
                 slow);
  EXPECT_EQ(run.exitCode, 3) << shortDescription(run);
  EXPECT_NE(run.out.find("\"confirmation_run\" : 2"), std::string::npos) << shortDescription(run);
  EXPECT_NE(run.out.find("\"expectations\" : "), std::string::npos) << shortDescription(run);
  expectValidDocument(run, "confirmed");
  // Noisy copies: UNSTABLE cells, confirmed ones with their spreads.
  Environment noisy = links;
  noisy.push_back({"NVBW_FAKE_NOISE", "20"});
  const Finished unstable = runProcess(
      {NVBW_FAKE_BINARY, "-j", "-t", "0", "4", "--sweep", "16:32", "--baseline", baseline.path()},
      noisy);
  EXPECT_EQ(unstable.exitCode, 3) << shortDescription(unstable);
  EXPECT_NE(unstable.out.find("\"verdict\" : \"UNSTABLE\""), std::string::npos)
      << shortDescription(unstable);
  EXPECT_NE(unstable.out.find("\"confirmation_spreads\" : "), std::string::npos);
  expectValidDocument(unstable, "unstable");

  const Finished from = runProcess({NVBW_BINARY, "-j", "--from", baseline.path(), "--expect",
                                    floors.path(), "--min-percent-of-peak", "10"});
  EXPECT_EQ(from.exitCode, 3) << shortDescription(from);
  expectValidDocument(from, "from_expect");
  const Finished compare = runProcess({NVBW_BINARY, "-j", "--compare", baseline.path(),
                                       baseline.path(), "--expect", floors.path()});
  EXPECT_EQ(compare.exitCode, 3) << shortDescription(compare);
  expectValidDocument(compare, "compare_expect");
}

TEST(Schema, RealBinaryRunValidates) {
  ASSERT_VALIDATOR_AVAILABLE();
  if (gpuPresent()) {
    // A whole default run takes minutes on a GPU; one small testcase gives the same layout.
    const Finished run = runProcess({NVBW_BINARY, "-j", "-t", "0", "-b", "64", "-i", "1"});
    expectValidDocument(run, "real");
    return;
  }
  const Finished run = runProcess({NVBW_BINARY, "-j"});
  EXPECT_EQ(run.exitCode, 1) << shortDescription(run);
  EXPECT_NE(run.out.find("\"error\" : \"cannot start: "), std::string::npos)
      << shortDescription(run);
  expectValidDocument(run, "startup_failed");
}

TEST(Schema, RealBinaryListingValidates) {
  ASSERT_VALIDATOR_AVAILABLE();
  const Finished run = runProcess({NVBW_BINARY, "-j", "-l"});
  EXPECT_EQ(run.exitCode, 0) << shortDescription(run);
  expectValidDocument(run, "listing");
}

// Entry kinds the application reaches only through rare paths: "Running" (a run-level error
// while a testcase was under way) and a passed testcase without a matrix.
TEST(Schema, RunningAndMatrixlessEntriesValidate) {
  ASSERT_VALIDATOR_AVAILABLE();
  json doc = json::parse(readFile(std::string(NVBW_GOLDEN_DIR) + "/json_one_gpu.json"));
  json& run = doc.at("nvbandwidth");
  run["testcases"].push_back({{"name", "device_local_copy"}, {"status", "Passed"}});
  run["testcases"].push_back({{"name", "host_to_device_memcpy_sm"}, {"status", "Running"}});
  run["error"] = "spin kernel timed out";
  const Finished check = validateText("running", doc.dump(1));
  EXPECT_EQ(check.exitCode, 0) << check.out << check.err;
}

// ---- the schema rejects what it should ----------------------------------------------------

struct Mutation {
  const char* name;
  const char* golden;                 // the valid document it starts from
  std::function<void(json&)> mutate;  // applied to doc["nvbandwidth"]
  const char* expected;               // in the validator's report: where, or what
};

json& entry(json& run, std::size_t i) { return run.at("testcases").at(i); }

// json_verbose.json: entry 0 is a 2x2 matrix with N/A on the diagonal, cells [0][1] measured.
const Mutation kMutations[] = {
    {"MatrixCellIsANumber", "json_verbose.json",
     [](json& r) { entry(r, 0).at("bandwidth_matrix").at(0).at(1) = 389.201; },
     "$.nvbandwidth.testcases[0].bandwidth_matrix[0][1]: 389.201 is not of type 'string'"},
    {"MatrixCellIsNotNumericText", "json_verbose.json",
     [](json& r) { entry(r, 0).at("bandwidth_matrix").at(0).at(1) = "fast"; },
     "$.nvbandwidth.testcases[0].bandwidth_matrix[0][1]: 'fast' does not match"},
    {"StatusIsBogus", "json_verbose.json", [](json& r) { entry(r, 0)["status"] = "Bogus"; },
     "$.nvbandwidth.testcases[0].status: 'Bogus' is not one of"},
    {"UnknownKeyInMatrixEntry", "json_verbose.json", [](json& r) { entry(r, 0)["speed"] = 1; },
     "$.nvbandwidth.testcases[0]: Additional properties are not allowed ('speed' was unexpected)"},
    {"UnknownKeyInWaivedEntry", "json_one_gpu.json", [](json& r) { entry(r, 1)["reason"] = "x"; },
     "$.nvbandwidth.testcases[1]: Additional properties are not allowed ('reason' was unexpected)"},
    {"CvIsAString", "json_verbose.json",
     [](json& r) { entry(r, 0).at("cells").at(0).at(1)["cv"] = "0.0"; },
     "$.nvbandwidth.testcases[0].cells[0][1].cv: '0.0' is not of type 'number', 'null'"},
    {"ValueIsNAText", "json_verbose.json",
     [](json& r) { entry(r, 0).at("values").at(0).at(0) = "N/A"; },
     "$.nvbandwidth.testcases[0].values[0][0]: 'N/A' is not of type 'number', 'null'"},
    {"UnitIsUnknown", "json_verbose.json", [](json& r) { entry(r, 0)["unit"] = "MB/s"; },
     "$.nvbandwidth.testcases[0].unit: 'MB/s' is not one of ['GB/s', 'ns']"},
    {"StatisticIsUnknown", "json_verbose.json", [](json& r) { entry(r, 0)["statistic"] = "max"; },
     "$.nvbandwidth.testcases[0].statistic: 'max' is not one of ['median', 'mean']"},
    {"WaivedEntryWithoutReason", "json_one_gpu.json",
     [](json& r) { entry(r, 1).erase("waive_reason"); },
     "$.nvbandwidth.testcases[1]: 'waive_reason' is a required property"},
    {"UnknownTopLevelKey", "json_one_gpu.json", [](json& r) { r["host"] = "gpu-node-01"; },
     "$.nvbandwidth: Additional properties are not allowed ('host' was unexpected)"},
    {"WarningWithoutWarnings", "json_verbose.json", [](json& r) { r.erase("warnings"); },
     "$.nvbandwidth: 'warnings' is a dependency of 'warning'"},
    {"ListingIndexIsAString", "listing.json", [](json& r) { entry(r, 1)["index"] = "1"; },
     "$.nvbandwidth.testcases[1].index: '1' is not of type 'integer'"},
};

// Names the mutation in test listings instead of dumping the struct's bytes.
void PrintTo(const Mutation& m, std::ostream* os) { *os << m.name; }

class SchemaRejects : public ::testing::TestWithParam<Mutation> {};

TEST_P(SchemaRejects, MutatedDocument) {
  ASSERT_VALIDATOR_AVAILABLE();
  const Mutation& m = GetParam();
  json doc = json::parse(readFile(std::string(NVBW_GOLDEN_DIR) + "/" + m.golden));
  m.mutate(doc.at("nvbandwidth"));
  const Finished check = validateText(m.name, doc.dump(1));
  EXPECT_EQ(check.exitCode, 1) << check.out << check.err;
  // The document must be rejected for the mutation, not for something else.
  EXPECT_NE(check.out.find(m.expected), std::string::npos)
      << "expected \"" << m.expected << "\" in:\n"
      << check.out << check.err;
}

INSTANTIATE_TEST_SUITE_P(Mutations, SchemaRejects, ::testing::ValuesIn(kMutations),
                         [](const ::testing::TestParamInfo<Mutation>& info) {
                           return std::string(info.param.name);
                         });

// ---- the validator script ----------------------------------------------------------------

// "-" reads the document from stdin, so a run can be piped into the script.
TEST(Schema, ValidatorReadsStandardInput) {
  ASSERT_VALIDATOR_AVAILABLE();
  const std::string listing = std::string(NVBW_GOLDEN_DIR) + "/listing.json";
  const Finished check = runProcess({"/bin/sh", "-c", "exec \"$0\" \"$1\" \"$2\" - < \"$3\"",
                                     kPython, kValidator, kSchema, listing});
  EXPECT_EQ(check.exitCode, 0) << check.out << check.err;
  EXPECT_EQ(check.out, "<stdin>: valid\n") << check.err;
}

// A document that is not JSON is an error, not a pass.
TEST(Schema, ValidatorReportsUnreadableDocuments) {
  ASSERT_VALIDATOR_AVAILABLE();
  const Finished check = validateText("broken", "{\"nvbandwidth\" : ");
  EXPECT_EQ(check.exitCode, 1) << check.out << check.err;
  EXPECT_NE(check.out.find("cannot read JSON"), std::string::npos) << check.out << check.err;
}

}  // namespace test_schema
