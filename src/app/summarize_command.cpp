#include <ostream>
#include <sstream>
#include <utility>

#include "app/fleet_commands.h"
#include "fleet/summary/fleet_summary.h"
#include "model/report_writer.h"
#include "report/listing.h"

namespace nvbw {
namespace {

void writeSummaryDocument(std::ostream& out, const FleetSummary& summary) {
  writeSummaryJson(out, versionsReport(), summary);
  out << "\n";
}

std::string renderSummary(const FleetSummary& summary, ReportFormat format) {
  if (format == ReportFormat::Html) return fleetSummaryHtml(summary);
  if (format == ReportFormat::Text) return fleetSummaryText(summary);
  std::ostringstream text;
  writeSummaryDocument(text, summary);
  return text.str();
}

}  // namespace

int runSummarizeCommand(const Options& options, const std::vector<std::string>& testcases,
                        const CommandFiles& files, AppContext& ctx) {
  SummaryOptions selection;
  selection.testcases = testcases;
  FleetSummary summary;
  try {
    summary = summarizeReports(*files.summarized, selection, ctx.stopRequested);
  } catch (const UsageError& e) {  // reports of logical GPUs beside real ones
    return refuseUsage(ctx, e.what());
  }
  throwIfStopped(ctx.stopRequested);
  if (options.json)
    writeSummaryDocument(ctx.out, summary);
  else
    ctx.out << fleetSummaryText(summary);
  checkWritable(ctx.out, "output");
  int written = kExitOk;
  for (const auto& [file, format] :
       {std::pair(&files.html, ReportFormat::Html), std::pair(&files.output, files.outputFormat)}) {
    if (!*file) continue;
    const std::string text = renderSummary(summary, format);
    throwIfStopped(ctx.stopRequested);
    const int status = writeViewFile(ctx, **file, text);
    if (written == kExitOk) written = status;
  }
  throwIfStopped(ctx.stopRequested);  // a signal during the last write still ends with 128+N
  return written != kExitOk ? written : fleetSummaryExitStatus(summary);
}

}  // namespace nvbw
