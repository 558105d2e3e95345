// nvbw_summarize: the fleet summary as a command of its own, from before --summarize was an option
// of nvbandwidth; tools/bench_summarize.sh uses it only with a build whose nvbandwidth lacks it.
//   nvbw_summarize [-j] [--html FILE] [-t TESTCASE]... REPORT...
// Prints the text (or with -j the JSON document) on stdout; exit 0, or 3 when a node is flagged
// or a report unreadable.
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "core/version.h"
#include "fleet/summary/fleet_summary.h"
#include "model/report_writer.h"

int main(int argc, char** argv) {
  bool json = false;
  std::string html;
  nvbw::SummaryOptions options;
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "-j") {
      json = true;
    } else if (arg == "--html" && i + 1 < argc) {
      html = argv[++i];
    } else if (arg == "-t" && i + 1 < argc) {
      options.testcases.push_back(argv[++i]);
    } else {
      paths.push_back(arg);
    }
  }
  if (paths.empty()) {
    std::cerr << "usage: nvbw_summarize [-j] [--html FILE] [-t TESTCASE]... REPORT...\n";
    return 2;
  }
  const nvbw::FleetSummary summary =
      nvbw::summarizeReports(nvbw::findReports(paths, {}), options, {});
  if (json) {
    // The nodes are written one at a time, as --compare -j streams its cells.
    nvbw::Report versions;
    versions.version = nvbw::kVersion;
    versions.gitVersion = nvbw::kGitVersion;
    versions.release = nvbw::kRelease;
    nvbw::writeSummaryJson(std::cout, versions, summary);
    std::cout << "\n";
  } else {
    std::cout << nvbw::fleetSummaryText(summary);
  }
  if (!html.empty()) std::ofstream(html, std::ios::binary) << nvbw::fleetSummaryHtml(summary);
  std::cout.flush();
  return nvbw::fleetSummaryExitStatus(summary);
}
