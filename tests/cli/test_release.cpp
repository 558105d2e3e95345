// The project's release (CMakeLists.txt's project(VERSION)) on the real binary and the
// fake-platform build: on --version's Release line, in every JSON document as "release" beside
// upstream's "version" and "git_version" (unchanged), and nowhere in the text of a run or of -l,
// whose first lines clients read.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "core/version.h"
#include "run_binary.h"
#include "temp_file.h"

namespace test_release {

using nlohmann::json;
using nvbw::test::RunResult;
using nvbw::test::RunSpec;
using Args = std::vector<std::string>;

RunResult run(const std::string& binary, const Args& args) {
  RunSpec spec(binary, args);
  spec.env.emplace_back("NVBW_FAKE_GPUS", "2");
  spec.unsetEnv.push_back("NVBANDWIDTH_COMPAT");
  spec.killAfter = std::chrono::seconds(60);
  return nvbw::test::runProgram(spec);
}

RunResult real(const Args& args) { return run(NVBW_BINARY, args); }
RunResult fake(const Args& args) { return run(NVBW_FAKE_BINARY, args); }

json rootOf(const RunResult& r) { return json::parse(r.out).at("nvbandwidth"); }

TEST(Release, IsSemanticVersioning) {
  EXPECT_TRUE(std::regex_match(std::string(nvbw::kRelease), std::regex(R"(\d+\.\d+\.\d+)")))
      << nvbw::kRelease;
}

TEST(Release, VersionPrintsItAfterTheGitVersion) {
  const RunResult r = real({"--version"});
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_EQ(r.out, std::string("nvbandwidth Version: v0.8\nBuilt from Git version: ") +
                       nvbw::kGitVersion + "\nRelease: " + nvbw::kRelease +
                       "\nInterface: v0.8\n\n");
}

TEST(Release, EveryJsonDocumentNamesIt) {
  // Without a GPU the real program's report is that of a run that could not start; it still
  // names the build.
  const json failed = rootOf(real({"-j", "-t", "0"}));
  EXPECT_EQ(failed.at("release"), std::string(nvbw::kRelease));
  EXPECT_EQ(failed.at("version"), "v0.8");
  EXPECT_EQ(failed.at("git_version"), std::string(nvbw::kGitVersion));
  EXPECT_EQ(rootOf(real({"-j", "-l"})).at("release"), std::string(nvbw::kRelease));
  // The fake platform's machine is the fixtures', its release the build's.
  const RunResult report = fake({"-j", "-t", "0"});
  ASSERT_EQ(report.exitCode, 0) << report.err;
  EXPECT_EQ(rootOf(report).at("release"), std::string(nvbw::kRelease));

  nvbw::test::TempFile saved("release_report.json", report.out);
  const RunResult compared = real({"--compare", saved.path(), saved.path(), "-j"});
  EXPECT_EQ(compared.exitCode, 0) << compared.err;
  EXPECT_EQ(rootOf(compared).at("release"), std::string(nvbw::kRelease));
  EXPECT_EQ(rootOf(real({"--summarize", saved.path(), "-j"})).at("release"),
            std::string(nvbw::kRelease));
}

TEST(Release, TextOfARunAndOfTheListingDoesNotShowIt) {
  for (const Args& args : {Args{"-t", "0"}, Args{"-l"}, Args{"-h"}}) {
    const RunResult r = fake(args);
    EXPECT_EQ(r.out.rfind("nvbandwidth Version: v0.8\nBuilt from Git version: ", 0), 0u);
    EXPECT_EQ(r.out.find("Release"), std::string::npos) << r.out;
  }
}

}  // namespace test_release
