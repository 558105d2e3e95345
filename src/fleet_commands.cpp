#include "nvbandwidth/fleet_commands.h"

#include <ostream>

#include "nvbandwidth/comparison.h"
#include "nvbandwidth/html_report.h"
#include "nvbandwidth/json_style.h"
#include "nvbandwidth/report_files.h"
#include "nvbandwidth/version.h"

namespace nvbw {
namespace {

int usageError(AppContext& ctx, const std::string& message) {
  ctx.err << usageErrorLine(message) << std::flush;
  return kExitUsage;
}

// The HTML file, or the reason it could not be written on stderr (exit 1).
int writeHtml(AppContext& ctx, const std::string& path, const nlohmann::json& doc) {
  try {
    writeTextFile(path, renderHtmlReport(doc));
    return kExitOk;
  } catch (const std::exception& e) {
    ctx.err << "nvbandwidth: " << e.what() << std::endl;
    return kExitFailure;
  }
}

nlohmann::json comparisonDocument(const Comparison& c) {
  return {
      {"nvbandwidth",
       {{"version", kVersion}, {"git_version", kGitVersion}, {"comparison", comparisonJson(c)}}}};
}

}  // namespace

int runCompareCommand(const Options& options, AppContext& ctx) {
  nlohmann::json current;
  Comparison c;
  try {
    const nlohmann::json baseline = readReportFile(options.compare.at(0));
    current = readReportFile(options.compare.at(1));
    c = compareReports(baseline, current, options.tolerancePercent);
  } catch (const std::exception& e) {
    return usageError(ctx, std::string("--compare: ") + e.what());
  }
  if (options.json)
    ctx.out << styledJson(comparisonDocument(c)) << "\n";
  else
    ctx.out << comparisonText(c);
  ctx.out.flush();
  if (!options.html.empty()) {
    current["nvbandwidth"]["comparison"] = comparisonJson(c);
    if (const int status = writeHtml(ctx, options.html, current)) return status;
  }
  return c.anySlower() ? kExitSlower : kExitOk;
}

int runRenderCommand(const Options& options, AppContext& ctx) {
  nlohmann::json report;
  try {
    report = readReportFile(options.from);
  } catch (const std::exception& e) {
    return usageError(ctx, std::string("--from: ") + e.what());
  }
  return writeHtml(ctx, options.html, report);
}

}  // namespace nvbw
