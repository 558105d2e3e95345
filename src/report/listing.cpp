#include "report/listing.h"

#include <nlohmann/json.hpp>
#include <sstream>

#include "core/json_style.h"

namespace nvbw {

std::string versionBlock(const std::string& version, const std::string& gitVersion) {
  return "nvbandwidth Version: " + version + "\nBuilt from Git version: " + gitVersion + "\n\n";
}

std::string versionText(const std::string& version, const std::string& gitVersion,
                        CompatMode interface) {
  return "nvbandwidth Version: " + version + "\nBuilt from Git version: " + gitVersion +
         "\nInterface: " + compatModeName(interface) + "\n\n";
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
                        const std::string& gitVersion) {
  nlohmann::json testcases = nlohmann::json::array();
  for (std::size_t i = 0; i < registry.size(); ++i)
    testcases.push_back({{"index", registry[i].index},
                         {"name", registry[i].key},
                         {"description", registry[i].description}});
  const nlohmann::json doc = {
      {"nvbandwidth",
       {{"version", version}, {"git_version", gitVersion}, {"testcases", testcases}}}};
  return styledJson(doc) + "\n";
}

}  // namespace nvbw
