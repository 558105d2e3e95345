// The man page nvbandwidth(1), as roff: the hand-written page (packaging/man/nvbandwidth.1.in)
// with the options put in from the description --help prints (app/options.h) and the testcases
// from the registry -l prints, so that the page can never list an option or a testcase the
// program does not have.
#pragma once

#include <string>
#include <vector>

#include "app/options.h"
#include "plans/registry.h"

namespace nvbw::man {

// What the page names besides its options and testcases.
struct PageFacts {
  std::string program;  // "nvbandwidth" or "nvbandwidth-mpi"
  std::string release;  // "1.0.0"
  std::string date;     // "2026-12-01": the commit's, so that two builds of it make the same page
  std::string dataDir;  // where the schema and the expectations are installed
  std::string docDir;   // where the README, docs/ and the changelog are installed
};

// `text` as roff text: backslashes and hyphens escaped (a hyphen prints as the ASCII '-' that
// a reader can copy into a shell), and a line that would start with a control character made
// literal.
std::string roffText(const std::string& text);

// One .TP paragraph per option: "-b, --bufferSize arg", its text and its default.
std::string optionsSection(const std::vector<HelpEntry>& entries);

// One .TP paragraph per testcase: "<index>, <name>" and its description.
std::string testcasesSection(const std::vector<TestcaseDef>& registry);

// The template with @PROGRAM@, @TITLE@ (the program in capitals), @RELEASE@, @DATE@, @DATADIR@
// and @DOCDIR@ replaced, and the lines @OPTIONS@ and @TESTCASES@ replaced by the sections. Throws
// std::runtime_error when a marker is missing or an unknown @NAME@ is left.
std::string renderManPage(const std::string& pageTemplate, const PageFacts& facts,
                          const std::vector<HelpEntry>& options,
                          const std::vector<TestcaseDef>& registry);

}  // namespace nvbw::man
