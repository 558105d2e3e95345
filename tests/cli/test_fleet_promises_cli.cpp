// What the fleet commands promise, end to end: a command never writes over a file it reads (those
// its folders hold included), a folder that cannot be listed is never passed over in silence, an
// option a command cannot honour is a usage error, a run that cannot start still writes its files,
// no JSON holds a number that is not finite, and a substituted value never names a folder.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "golden.h"
#include "run_binary.h"
#include "temp_dir.h"

namespace test_fleet_promises_cli {

namespace fs = std::filesystem;
using nlohmann::json;
using nvbw::test::RunResult;
using nvbw::test::RunSpec;

const std::string kFleet = std::string(NVBW_GOLDEN_DIR) + "/fleet/";
const std::string kBase = kFleet + "fake_base.json";
const std::string kSlower = kFleet + "fake_slower.json";

using Folder = nvbw::test::TempDir;

using nvbw::test::readFile;

RunResult runWith(const std::string& program, const std::vector<std::string>& args,
                  std::vector<std::pair<std::string, std::string>> env = {}) {
  RunSpec spec(program, args);
  spec.env = std::move(env);
  spec.unsetEnv = {"SLURM_JOB_ID", "OMPI_MCA_orte_ess_jobid", "PMIX_NAMESPACE"};
  spec.killAfter = std::chrono::seconds(60);
  return nvbw::test::runProgram(spec);
}

RunResult nvbandwidth(const std::vector<std::string>& args) { return runWith(NVBW_BINARY, args); }

RunResult fake(const std::vector<std::string>& args,
               std::vector<std::pair<std::string, std::string>> env = {}) {
  env.push_back({"NVBW_FAKE_GPUS", "2"});
  return runWith(NVBW_FAKE_BINARY, args, env);
}

std::string hostName() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return name;
}

// A one-GPU report of host `host` whose only cell is `value` (JSON text, as written).
std::string oneCellReport(const std::string& host, const std::string& value) {
  return "{\"nvbandwidth\": {\"GPU Device list\": [\"0: NVIDIA H200 (00000000:19:00): (" + host +
         ")\"], \"hostname\": \"" + host +
         "\", \"testcases\": [{\"name\": \"host_to_device_memcpy_ce\", \"status\": \"Passed\", "
         "\"bandwidth_description\": \"memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)\", "
         "\"values\": [[" +
         value + "]], \"sum\": " + value + "}]}}\n";
}

// Every number of `doc` is finite (a parser may read 1e+9999 as infinity).
void expectFinite(const json& doc, const std::string& where = "") {
  if (doc.is_number_float()) {
    EXPECT_TRUE(std::isfinite(doc.get<double>())) << where;
  } else if (doc.is_structured()) {
    for (auto it = doc.begin(); it != doc.end(); ++it)
      expectFinite(*it, where + "/" + (doc.is_object() ? it.key() : std::string("[]")));
  }
}

// `--summarize kBase` with `extra`: a usage error with nothing on stdout.
void expectSummaryRefuses(const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"--summarize", kBase};
  args.insert(args.end(), extra.begin(), extra.end());
  const RunResult run = nvbandwidth(args);
  EXPECT_EQ(run.exitCode, 2) << extra[0] << " " << extra[1] << nvbw::test::describe(run);
  EXPECT_EQ(run.out, "");
  // The one line names the option (but -p's, which keeps upstream's words).
  if (extra[0] != "-p") {
    EXPECT_NE(run.err.find(extra[0]), std::string::npos) << run.err;
  }
}

// ---- 1. A command never writes over a report it reads, those found in folders included ----

TEST(SameFile, TheSummaryNeverWritesOverAReportItFindsInAFolder) {
  Folder dir("promises");
  fs::create_directories(dir / "reports");
  fs::copy_file(kBase, dir / "reports/node01.json");
  fs::copy_file(kSlower, dir / "reports/node02.json");
  fs::copy_file(kBase, dir / ("reports/" + hostName() + ".json"));
  fs::create_hard_link(dir / "reports/node01.json", dir / "hard.json");
  fs::create_symlink(dir / "outside.json", dir / "reports/link.json");
  std::ofstream(dir / "outside.json") << readFile(kSlower);
  for (const std::vector<std::string>& target :
       {std::vector<std::string>{"--output", dir / "reports/node01.json"},
        std::vector<std::string>{"--html", dir / "reports/node02.json"},
        std::vector<std::string>{"--output", dir / "reports/%h.json"},
        std::vector<std::string>{"--output", dir / "hard.json"},
        std::vector<std::string>{"--html", dir / "outside.json"}}) {
    for (bool asJson : {false, true}) {
      std::vector<std::string> args = {"--summarize", dir / "reports"};
      args.insert(args.end(), target.begin(), target.end());
      if (asJson) args.push_back("-j");
      const RunResult run = nvbandwidth(args);
      EXPECT_EQ(run.exitCode, 2) << target[1] << nvbw::test::describe(run);
      EXPECT_EQ(run.out, "");
      EXPECT_NE(run.err.find("which this command reads: it would be lost"), std::string::npos)
          << run.err;
    }
  }
  EXPECT_EQ(readFile(dir / "reports/node01.json"), readFile(kBase));
  EXPECT_EQ(readFile(dir / "reports/node02.json"), readFile(kSlower));
  EXPECT_EQ(readFile(dir / "outside.json"), readFile(kSlower));
}

TEST(SameFile, TwoTargetsNeverNameOneFile) {
  Folder dir("promises");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--from", kBase, "--html", dir / "r.html", "--output",
                                 dir / "r.html"},
        std::vector<std::string>{"--compare", kBase, kSlower, "--metrics", dir / "m", "--output",
                                 dir / "./m"},
        std::vector<std::string>{"--summarize", kBase, "--html", dir / "s.html", "--output",
                                 dir / "s.html"}}) {
    const RunResult run = nvbandwidth(args);
    EXPECT_EQ(run.exitCode, 2) << nvbw::test::describe(run);
    EXPECT_EQ(run.out, "");
  }
  EXPECT_TRUE(dir.names().empty());
}

// ---- 2. A folder that cannot be listed is unreadable, and the walk goes on ----

bool root() { return geteuid() == 0; }

// The program without the right to read folders it does not own: as a user, or as root
// without CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH.
RunResult withoutReadRights(const std::vector<std::string>& args) {
  if (!root()) return nvbandwidth(args);
  std::vector<std::string> wrapped = {"--inh-caps=-dac_override,-dac_read_search",
                                      "--bounding-set=-dac_override,-dac_read_search", NVBW_BINARY};
  wrapped.insert(wrapped.end(), args.begin(), args.end());
  return runWith("/usr/bin/setpriv", wrapped);
}

TEST(FolderWalk, AFolderThatCannotBeListedIsUnreadableAndTheRestIsSummarized) {
  if (root() && access("/usr/bin/setpriv", X_OK) != 0) GTEST_SKIP() << "no setpriv (util-linux)";
  Folder dir("promises");
  for (const char* rack : {"a", "b", "c", "d", "e"})
    fs::create_directories(dir / (std::string("tree/") + rack + "/deeper"));
  fs::copy_file(kBase, dir / "tree/a/n1.json");
  fs::copy_file(kBase, dir / "tree/b/n2.json");
  fs::copy_file(kBase, dir / "tree/c/n3.json");
  fs::copy_file(kBase, dir / "tree/d/deeper/n4.json");
  fs::copy_file(kSlower, dir / "tree/e/n5.json");
  fs::copy_file(kBase, dir / "tree/c/deeper/n6.json");
  chmod((dir / "tree/b").c_str(), 0);
  chmod((dir / "tree/c/deeper").c_str(), 0);
  const RunResult run = withoutReadRights({"--summarize", dir / "tree", "-j"});
  const RunResult text = withoutReadRights({"--summarize", dir / "tree"});
  chmod((dir / "tree/b").c_str(), 0755);
  chmod((dir / "tree/c/deeper").c_str(), 0755);
  ASSERT_EQ(run.exitCode, 3) << nvbw::test::describe(run);
  const json summary = json::parse(run.out)["nvbandwidth"]["summary"];
  EXPECT_EQ(summary["counts"]["nodes"], 4) << summary["counts"];
  ASSERT_EQ(summary["unreadable"].size(), 2u) << summary["unreadable"];
  EXPECT_EQ(summary["unreadable"][0]["file"], dir / "tree/b");
  EXPECT_EQ(summary["unreadable"][1]["file"], dir / "tree/c/deeper");
  for (const json& u : summary["unreadable"])
    EXPECT_NE(u["reason"].get<std::string>().find("Permission denied"), std::string::npos) << u;
  std::set<std::string> files;
  for (const json& node : summary["nodes"]) files.insert(node["file"].get<std::string>());
  EXPECT_EQ(files, (std::set<std::string>{dir / "tree/a/n1.json", dir / "tree/c/n3.json",
                                          dir / "tree/d/deeper/n4.json", dir / "tree/e/n5.json"}));
  EXPECT_EQ(text.exitCode, 3);
  EXPECT_NE(text.out.find("Summary: 4 nodes, 1 flagged, 2 unreadable."), std::string::npos)
      << text.out;
}

// Folders `depth` deep, named "d", made (and removed) through descriptors: their paths grow
// longer than the system's limit on a path.
class DeepTree {
 public:
  DeepTree(const std::string& top, int depth, int reportAt, const std::string& report)
      : top_(top), depth_(depth) {
    int fd = open(top.c_str(), O_RDONLY | O_DIRECTORY);
    for (int level = 1; level <= depth && fd >= 0; ++level) {
      mkdirat(fd, "d", 0755);
      const int next = openat(fd, "d", O_RDONLY | O_DIRECTORY);
      close(fd);
      fd = next;
      if (level == reportAt) {
        const int file = openat(fd, "deep.json", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        EXPECT_EQ(write(file, report.data(), report.size()), static_cast<ssize_t>(report.size()));
        close(file);
      }
    }
    EXPECT_GE(fd, 0) << "could not make the tree";
    if (fd >= 0) close(fd);
  }
  ~DeepTree() { removeBelow(open(top_.c_str(), O_RDONLY | O_DIRECTORY), depth_); }

 private:
  static void removeBelow(int fd, int levels) {
    if (fd < 0) return;
    if (levels > 0) removeBelow(openat(fd, "d", O_RDONLY | O_DIRECTORY), levels - 1);
    unlinkat(fd, "deep.json", 0);
    unlinkat(fd, "d", AT_REMOVEDIR);
    close(fd);
  }
  std::string top_;
  int depth_;
};

TEST(FolderWalk, ADeepTreeIsWalkedWithFewDescriptorsAndWhatIsTooDeepIsUnreadable) {
  Folder dir("promises");
  fs::create_directories(dir / "fleet");
  fs::copy_file(kBase, dir / "fleet/a.json");
  fs::copy_file(kBase, dir / "fleet/z.json");
  const DeepTree tree(dir / "fleet", 2100, 1500, readFile(kSlower));
  const RunResult run = runWith(
      "/usr/bin/prlimit", {"--nofile=64", "--", NVBW_BINARY, "--summarize", dir / "fleet", "-j"});
  ASSERT_EQ(run.exitCode, 3) << nvbw::test::describe(run).substr(0, 4000);
  const json summary = json::parse(run.out)["nvbandwidth"]["summary"];
  EXPECT_EQ(summary["counts"]["nodes"], 3) << summary["counts"];
  ASSERT_EQ(summary["unreadable"].size(), 1u);
  EXPECT_NE(summary["unreadable"][0]["reason"].get<std::string>().find("File name too long"),
            std::string::npos)
      << summary["unreadable"][0]["reason"];
}

// ---- 3. Options a command cannot honour are usage errors ----

TEST(Honoured, TheSummaryRefusesExpectationsItCannotCheck) {
  Folder dir("promises");
  std::ofstream(dir / "floors.txt") << "host_to_device_memcpy_ce 100000\n";
  expectSummaryRefuses({"--expect", dir / "floors.txt"});
  expectSummaryRefuses({"--min-percent-of-peak", "100"});
}

TEST(Honoured, TestcasesThatMatchNothingAreUsageErrors) {
  expectSummaryRefuses({"-t", "typo_name"});
  expectSummaryRefuses({"-t", "999"});
  expectSummaryRefuses({"-t", "host_to_device_memcpy_ce_total"});
  expectSummaryRefuses({"-p", "nothing_starts_so"});
  // A testcase this tool knows that no report holds is a note, not an error.
  const RunResult known = nvbandwidth({"--summarize", kBase, "-t", "device_local_copy"});
  EXPECT_EQ(known.exitCode, 0) << nvbw::test::describe(known);
  EXPECT_NE(known.out.find("selected testcase device_local_copy is in no report"),
            std::string::npos);
}

TEST(Honoured, RunOptionsAreRefusedByTheCommandsThatReadSavedReports) {
  Folder dir("promises");
  const std::vector<std::vector<std::string>> modes = {{"--compare", kBase, kSlower},
                                                       {"--from", kBase, "--html", dir / "r.html"},
                                                       {"--summarize", kBase}};
  const std::vector<std::vector<std::string>> runOptions = {{"-t", "0"},
                                                            {"-p", "host"},
                                                            {"-b", "64"},
                                                            {"-i", "5"},
                                                            {"-m"},
                                                            {"-s"},
                                                            {"-d"},
                                                            {"-v"},
                                                            {"--loopCount", "4"},
                                                            {"--perfFormatter"},
                                                            {"-H"},
                                                            {"-P", "2"},
                                                            {"--pair", "0", "1"},
                                                            {"--confirm", "1"}};
  for (const auto& mode : modes)
    for (const auto& option : runOptions) {
      if (mode[0] == "--summarize" && (option[0] == "-t" || option[0] == "-p")) continue;
      std::vector<std::string> args = mode;
      args.insert(args.end(), option.begin(), option.end());
      const RunResult run = nvbandwidth(args);
      EXPECT_EQ(run.exitCode, 2) << mode[0] << " " << option[0] << nvbw::test::describe(run);
      EXPECT_EQ(run.out, "");
    }
  // --tolerance judges against a baseline: a run without one, --from and --summarize have none.
  for (const auto& mode : modes) {
    if (mode[0] == "--compare") continue;
    std::vector<std::string> args = mode;
    args.insert(args.end(), {"--tolerance", "10"});
    const RunResult run = nvbandwidth(args);
    EXPECT_EQ(run.exitCode, 2) << mode[0] << nvbw::test::describe(run);
  }
  const RunResult run = fake({"-t", "0", "--tolerance", "10"});
  EXPECT_EQ(run.exitCode, 2) << nvbw::test::describe(run);
  EXPECT_EQ(run.out, "");
  EXPECT_TRUE(dir.names().empty());
}

TEST(Honoured, DoubleDashEndsTheOptions) {
  Folder dir("promises");
  fs::create_directories(dir / "fleet");
  fs::copy_file(kBase, dir / "fleet/-odd.json");
  // The arguments after it are --summarize's reports, whatever they start with.
  const RunResult folder = nvbandwidth({"-j", "--summarize", "--", dir / "fleet"});
  ASSERT_EQ(folder.exitCode, 0) << nvbw::test::describe(folder);
  EXPECT_EQ(json::parse(folder.out)["nvbandwidth"]["summary"]["counts"]["reports"], 1);
  const RunResult after = nvbandwidth({"--summarize", dir / "fleet", "--", "-j"});
  EXPECT_EQ(after.exitCode, 3) << nvbw::test::describe(after);
  EXPECT_NE(after.out.find("Unreadable reports (1):\n  -j: "), std::string::npos) << after.out;
  EXPECT_EQ(nvbandwidth({"--summarize", "--"}).exitCode, 2);
  // An option that takes a value never takes "--" for it.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--html", "--", "--from", kBase},
        std::vector<std::string>{"--from", kBase, "--output", "--"},
        std::vector<std::string>{"--compare", kBase, "--", kSlower},
        std::vector<std::string>{"--", "--summarize", kBase}}) {
    const RunResult run = nvbandwidth(args);
    EXPECT_EQ(run.exitCode, 2) << args[1] << nvbw::test::describe(run);
    EXPECT_EQ(run.out, "");
  }
  EXPECT_FALSE(fs::exists("--"));
  const RunResult run = fake({"-t", "--", "0"});
  EXPECT_EQ(run.exitCode, 2) << nvbw::test::describe(run);
}

// ---- 4. A run that cannot start still writes its files ----

void expectStartFailureFiles(const Folder& dir, const RunResult& run) {
  EXPECT_EQ(run.exitCode, 1) << nvbw::test::describe(run);
  ASSERT_TRUE(fs::exists(dir / "r.json")) << nvbw::test::describe(run);
  ASSERT_TRUE(fs::exists(dir / "m.prom"));
  ASSERT_TRUE(fs::exists(dir / "r.html"));
  const json doc = json::parse(readFile(dir / "r.json"));
  EXPECT_FALSE(doc["nvbandwidth"]["error"].get<std::string>().empty());
  const std::string prom = readFile(dir / "m.prom");
  EXPECT_NE(prom.find("\nnvbandwidth_run_error{"), std::string::npos) << prom;
  EXPECT_NE(prom.find("} 1\n", prom.find("\nnvbandwidth_run_error{")), std::string::npos) << prom;
  EXPECT_NE(readFile(dir / "r.html").find("<html"), std::string::npos);
}

TEST(StartFailure, ARunWithoutADriverWritesItsFilesWithTheError) {
  if (nvbw::test::gpuPresent()) GTEST_SKIP() << "this machine has a GPU";
  Folder dir("promises");
  const RunResult run = nvbandwidth({"-j", "-t", "0", "--output", dir / "r.json", "--metrics",
                                     dir / "m.prom", "--html", dir / "r.html"});
  expectStartFailureFiles(dir, run);
  EXPECT_EQ(readFile(dir / "r.json"), run.out);
}

TEST(StartFailure, ARunWhoseCopiesCannotBeSetUpWritesItsFilesWithTheError) {
  Folder dir("promises");
  const RunResult run = fake({"-t", "0", "--output", dir / "r.json", "--metrics", dir / "m.prom",
                              "--html", dir / "r.html"},
                             {{"NVBW_FAKE_EXECUTOR_FAIL", "no memory for the buffers"}});
  expectStartFailureFiles(dir, run);
  EXPECT_NE(readFile(dir / "r.json").find("no memory for the buffers"), std::string::npos);
}

// ---- 5. No JSON holds a number that is not finite ----

TEST(Finite, ReportsOfImpossiblySmallValuesAreUnreadableAndTheJsonStaysFinite) {
  Folder dir("promises");
  std::ofstream(dir / "a.json") << oneCellReport("node-a", "4.9e-324");
  std::ofstream(dir / "b.json") << oneCellReport("node-b", "4.9e-324");
  std::ofstream(dir / "c.json") << oneCellReport("node-c", "1e7");
  const RunResult run = nvbandwidth({"--summarize", dir.path(), "-j"});
  EXPECT_EQ(run.exitCode, 3) << nvbw::test::describe(run);
  EXPECT_EQ(run.out.find("e+9999"), std::string::npos) << run.out;
  const json doc = json::parse(run.out);
  expectFinite(doc);
  EXPECT_EQ(doc["nvbandwidth"]["summary"]["counts"]["unreadable"], 2);
  for (const char* name : {"a.json", "b.json"}) {
    const RunResult from = nvbandwidth({"--from", dir / name, "--output", dir / "o.json"});
    EXPECT_EQ(from.exitCode, 2) << nvbw::test::describe(from);
    EXPECT_NE(from.err.find("is not a bandwidth"), std::string::npos) << from.err;
  }
}

// ---- 6. A substituted value never names a folder ----

TEST(Substitution, DotsInAValueNeverNameAFolder) {
  Folder dir("promises");
  fs::create_directories(dir / "out/sub");
  for (const char* job : {"..", "."}) {
    const RunResult run =
        fake({"-t", "0", "-j", "--output", dir / "out/sub/%j/r.json"}, {{"SLURM_JOB_ID", job}});
    EXPECT_EQ(run.exitCode, 2) << job << nvbw::test::describe(run);  // no such folder
    EXPECT_FALSE(fs::exists(dir / "out/r.json"));
    EXPECT_FALSE(fs::exists(dir / "out/sub/r.json"));
    const RunResult file =
        fake({"-t", "0", "-j", "--output", dir / "out/%j.json"}, {{"SLURM_JOB_ID", job}});
    EXPECT_EQ(file.exitCode, 0) << job << nvbw::test::describe(file);
  }
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir / "out"))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  // Neither hidden (where --summarize would never look) nor a folder.
  EXPECT_EQ(names, (std::vector<std::string>{"_..json", "_.json", "sub"}));
}

}  // namespace test_fleet_promises_cli
