// The man page's rendering (packaging/man/man_page.cpp): roff escapes, the option and testcase
// paragraphs, and a template whose markers are missing or unknown.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "man_page.h"

namespace nvbw {
namespace test_man_page {

using man::optionsSection;
using man::renderManPage;
using man::roffText;
using man::testcasesSection;

TEST(ManPage, RoffTextEscapesBackslashesHyphensAndLeadingControlCharacters) {
  EXPECT_EQ(roffText("--from a\\b"), "\\-\\-from a\\eb");
  EXPECT_EQ(roffText(".json: JSON"), "\\&.json: JSON");
  EXPECT_EQ(roffText("'quoted' and\n.next"), "\\&'quoted' and\n\\&.next");
  EXPECT_EQ(roffText("plain"), "plain");
}

TEST(ManPage, OptionsNameBothSpellingsTheArgumentAndTheDefault) {
  const std::vector<HelpEntry> entries = {
      {"b", "bufferSize", true, "512", "Memcpy buffer size in MiB"},
      {"", "no-progress", false, "", "No progress line"}};
  EXPECT_EQ(optionsSection(entries), ".TP\n\\fB\\-b\\fR, \\fB\\-\\-bufferSize\\fR \\fIarg\\fR\n"
                                     "Memcpy buffer size in MiB (default: 512)\n"
                                     ".TP\n\\fB\\-\\-no\\-progress\\fR\nNo progress line\n");
}

TEST(ManPage, EveryOptionOfHelpIsOnThePage) {
  const std::string section = optionsSection(helpEntries());
  for (const HelpEntry& e : helpEntries())
    EXPECT_NE(section.find("\\fB" + roffText("--" + e.longName) + "\\fR"), std::string::npos)
        << e.longName;
  EXPECT_NE(section.find("\\fB\\-t\\fR, \\fB\\-\\-testcase\\fR \\fIarg\\fR"), std::string::npos);
}

TEST(ManPage, TestcasesAreIndexNameAndOneLineOfDescription) {
  TestcaseDef t;
  t.key = "host_to_device_memcpy_ce";
  t.index = 0;
  t.description = "First line.\nSecond line.";
  EXPECT_EQ(testcasesSection({t}),
            ".TP\n\\fB0\\fR, \\fBhost_to_device_memcpy_ce\\fR\nFirst line. Second line.\n");
}

TEST(ManPage, TemplateMarkersAreReplacedAndCheckedFor) {
  const man::PageFacts facts{"nvbandwidth-mpi", "1.2.3", "2026-12-01", "/usr/share/nvbandwidth",
                             "/usr/share/doc/x"};
  const std::string page = renderManPage(
      ".TH @TITLE@ 1 \"@DATE@\" \"nvbandwidth @RELEASE@\"\n@PROGRAM@ @DATADIR@ @DOCDIR@\n"
      "@OPTIONS@\n@TESTCASES@\n",
      facts, {}, {});
  EXPECT_EQ(page, ".TH NVBANDWIDTH\\-MPI 1 \"2026-12-01\" \"nvbandwidth 1.2.3\"\n"
                  "nvbandwidth\\-mpi /usr/share/nvbandwidth /usr/share/doc/x\n");
  EXPECT_THROW(renderManPage("no markers\n", facts, {}, {}), std::runtime_error);
  EXPECT_THROW(renderManPage("\n@OPTIONS@\n@TESTCASES@\n@AUTHOR@\n", facts, {}, {}),
               std::runtime_error);
}

}  // namespace test_man_page
}  // namespace nvbw
