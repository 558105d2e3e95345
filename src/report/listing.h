// The -l listing and the version block (text and JSON); they need no GPU.
#pragma once

#include <string>
#include <vector>

#include "plans/registry.h"

namespace nvbw {

// "nvbandwidth Version: v0.8\nBuilt from Git version: <git>\n\n"
std::string versionBlock(const std::string& version, const std::string& gitVersion);

// -l in text: header line and every entry as upstream prints it.
std::string listingText(const std::vector<TestcaseDef>& registry);
// -j -l: {"nvbandwidth": {"version":..., "testcases": [{"index","name","description"}...]}}
std::string listingJson(const std::vector<TestcaseDef>& registry, const std::string& version,
                        const std::string& gitVersion);

}  // namespace nvbw
