#include "report/listing.h"

#include <nlohmann/json.hpp>
#include <sstream>

#include "core/json_style.h"
#include "core/version.h"
#include "fleet/report_keys.h"

namespace nvbw {

std::string versionBlock(const std::string& version, const std::string& gitVersion) {
  return "nvbandwidth Version: " + version + "\nBuilt from Git version: " + gitVersion + "\n\n";
}

std::string versionText(const std::string& version, const std::string& gitVersion,
                        const std::string& release, CompatMode interface) {
  return "nvbandwidth Version: " + version + "\nBuilt from Git version: " + gitVersion +
         "\nRelease: " + release + "\nInterface: " + compatModeName(interface) + "\n\n";
}

nlohmann::json versionObject() {
  return {{keys::kVersion, kVersion}, {keys::kGitVersion, kGitVersion}, {keys::kRelease, kRelease}};
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

std::string listingJson(const std::vector<TestcaseDef>& registry, const std::string& version,
                        const std::string& gitVersion, const std::string& release) {
  nlohmann::json testcases = nlohmann::json::array();
  for (std::size_t i = 0; i < registry.size(); ++i)
    testcases.push_back({{"index", registry[i].index},
                         {"name", registry[i].key},
                         {"description", registry[i].description}});
  const nlohmann::json doc = {{keys::kRoot,
                               {{keys::kVersion, version},
                                {keys::kGitVersion, gitVersion},
                                {keys::kRelease, release},
                                {keys::kTestcases, testcases}}}};
  return styledJson(doc) + "\n";
}

}  // namespace nvbw
