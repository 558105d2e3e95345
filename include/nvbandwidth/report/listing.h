// The -l listing and the version block (text and JSON); they need no GPU.
#pragma once

#include <string>
#include <vector>

#include "core/compat_mode.h"
#include "model/report.h"
#include "plans/registry.h"

namespace nvbw {

// "nvbandwidth Version: v0.8\nBuilt from Git version: <git>\n\n"
std::string versionBlock(const std::string& version, const std::string& gitVersion);
// --version: the version block with "Release: <release>" and "Interface: <v0.8|v0.10>" before
// its empty line.
std::string versionText(const std::string& version, const std::string& gitVersion,
                        const std::string& release, CompatMode interface);
// The "version", "git_version" and "release" of this build as a Report: the top of every document
// the tool writes that is not a run's report (the listing, --compare, --from, --summarize).
Report versionsReport();

// -l in text: header line and every entry as upstream prints it (an empty line before the entries
// that ask for one: v0.10's index 42).
std::string listingText(const std::vector<TestcaseDef>& registry);
// -j -l: {"nvbandwidth": {<the facts of `versions`>, "testcases":
// [{"index","name","description"}...]}}
std::string listingJson(const std::vector<TestcaseDef>& registry, const Report& versions);

}  // namespace nvbw
