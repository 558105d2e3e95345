#include "report/listing.h"

#include <sstream>

#include "core/version.h"
#include "model/report_writer.h"

namespace nvbw {

std::string versionBlock(const std::string& version, const std::string& gitVersion) {
  return "nvbandwidth Version: " + version + "\nBuilt from Git version: " + gitVersion + "\n\n";
}

std::string versionText(const std::string& version, const std::string& gitVersion,
                        const std::string& release, CompatMode interface) {
  return "nvbandwidth Version: " + version + "\nBuilt from Git version: " + gitVersion +
         "\nRelease: " + release + "\nInterface: " + compatModeName(interface) + "\n\n";
}

std::string listingText(const std::vector<TestcaseDef>& registry) {
  std::string text = "Index, Name:\n\tDescription\n=======================\n";
  for (std::size_t i = 0; i < registry.size(); ++i) {
    if (registry[i].blankLineBefore) text += "\n";
    text += std::to_string(registry[i].index) + ", " + registry[i].key + ":\n";
    std::istringstream lines(registry[i].description);
    for (std::string line; std::getline(lines, line);) text += "\t" + line + "\n";
    text += "\n";
  }
  return text;
}

std::string listingJson(const std::vector<TestcaseDef>& registry, const Report& versions) {
  std::vector<ListingRecord> testcases;
  for (const TestcaseDef& t : registry) testcases.push_back({t.index, t.key, t.description});
  return listingJson(versions, testcases) + "\n";
}

Report versionsReport() {
  Report versions;
  versions.version = kVersion;
  versions.gitVersion = kGitVersion;
  versions.release = kRelease;
  return versions;
}

}  // namespace nvbw
