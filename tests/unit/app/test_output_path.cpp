// --output's %-substitutions, its job id and the format its name asks for.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "app/output_path.h"
#include "core/error.h"

namespace test_output_path {

using namespace nvbw;

TEST(OutputPath, SubstitutesHostRankJobAndPercent) {
  const OutputPathFields fields{"gpu-node-07", 3, "4242"};
  EXPECT_EQ(expandOutputPath("reports/%h.json", fields), "reports/gpu-node-07.json");
  EXPECT_EQ(expandOutputPath("r/%j/%h-%r.txt", fields), "r/4242/gpu-node-07-3.txt");
  EXPECT_EQ(expandOutputPath("100%%-%h", fields), "100%-gpu-node-07");
  EXPECT_EQ(expandOutputPath("plain.json", fields), "plain.json");
  EXPECT_EQ(expandOutputPath("%%h", fields), "%h");
}

TEST(OutputPath, ASubstitutedValueNeverAddsAFolderOrALineBreak) {
  const OutputPathFields fields{"a/../b", 0, "slurm/1\n2"};
  EXPECT_EQ(expandOutputPath("%h.json", fields), "a_.._b.json");
  EXPECT_EQ(expandOutputPath("%j", fields), "slurm_1_2");
  EXPECT_EQ(expandOutputPath("x%h", OutputPathFields{"", 0, ""}), "x_");
}

// "." and ".." would name a folder ("out/%j/r.json" with a job id of ".." is out/r.json), and a
// leading dot would hide the file from --summarize: a value's leading dot becomes '_'.
TEST(OutputPath, ASubstitutedValueNeverNamesAFolderOrHidesTheFile) {
  for (const char* value : {".", "..", "...", ".hidden"}) {
    const std::string part = expandOutputPath("%h", OutputPathFields{value, 0, value});
    EXPECT_EQ(part[0], '_') << value;
    EXPECT_EQ(part.substr(1), std::string(value).substr(1));
    EXPECT_EQ(expandOutputPath("out/%j/r.json", OutputPathFields{"h", 0, value}),
              "out/" + part + "/r.json");
  }
  EXPECT_EQ(expandOutputPath("%h%j", OutputPathFields{".", 0, "."}), "__");
  EXPECT_EQ(expandOutputPath("%j", OutputPathFields{"h", 0, "1.5"}), "1.5");
  EXPECT_EQ(expandOutputPath(".%h", OutputPathFields{"x", 0, ""}), ".x");  // the pattern's own
}

TEST(OutputPath, UnknownOrLonePercentIsAUsageError) {
  EXPECT_NO_THROW(checkOutputPattern("reports/%h-%r-%j-%%.json"));
  EXPECT_THROW(checkOutputPattern("reports/%H.json"), UsageError);
  EXPECT_THROW(checkOutputPattern("reports/%d.json"), UsageError);
  EXPECT_THROW(checkOutputPattern("report%"), UsageError);
  EXPECT_THROW(checkOutputPattern("%%%"), UsageError);
}

TEST(OutputPath, JobIdPrefersSlurmThenOpenMpiThenPmix) {
  std::map<std::string, std::string> env;
  auto lookup = [&env](const char* name) -> const char* {
    const auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  };
  EXPECT_EQ(jobIdFrom(lookup), "nojob");
  env["PMIX_NAMESPACE"] = "slurm.pmix.99.0";
  EXPECT_EQ(jobIdFrom(lookup), "slurm.pmix.99.0");
  env["OMPI_MCA_orte_ess_jobid"] = "12345";
  EXPECT_EQ(jobIdFrom(lookup), "12345");
  env["SLURM_JOB_ID"] = "";  // set but empty: as if unset
  EXPECT_EQ(jobIdFrom(lookup), "12345");
  env["SLURM_JOB_ID"] = "777";
  EXPECT_EQ(jobIdFrom(lookup), "777");
}

TEST(OutputPath, FormatFollowsTheNameThenTheJsonOption) {
  EXPECT_EQ(reportFormatFor("r.json", false), ReportFormat::Json);
  EXPECT_EQ(reportFormatFor("r.html", false), ReportFormat::Html);
  EXPECT_EQ(reportFormatFor("r.html", true), ReportFormat::Html);
  EXPECT_EQ(reportFormatFor("r.txt", false), ReportFormat::Text);
  EXPECT_EQ(reportFormatFor("r.txt", true), ReportFormat::Json);
  EXPECT_EQ(reportFormatFor("report", false), ReportFormat::Text);
}

}  // namespace test_output_path
