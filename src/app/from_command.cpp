#include <ostream>

#include "app/expectation_checks.h"
#include "app/fleet_commands.h"
#include "core/exit_status.h"
#include "model/report_writer.h"
#include "report/listing.h"
#include "report/report_text.h"

namespace nvbw {
namespace {

// --from alone: the saved run printed again, its text from the first `Running` line in the
// interface it was printed in (--compat v0.10 asks for v0.10's), or with -j its document.
void printSavedRun(const Options& options, const Report& report, AppContext& ctx) {
  if (options.json) {
    ctx.out << reportJson(report) << "\n";
  } else {
    const bool v010 = report.settings && report.settings->interface == "v0.10";
    ctx.out << savedRunText(report, {false, false, v010 ? CompatMode::V0_10 : options.compat});
  }
  checkWritable(ctx.out, "output");
}

void printChecks(const Options& options, const std::vector<ExpectationSection>& results,
                 AppContext& ctx) {
  if (options.json) {
    Report checks = versionsReport();
    checks.expectations = results;
    ctx.out << reportJson(checks) << "\n";
  } else {
    for (std::size_t i = 0; i < results.size(); ++i)
      ctx.out << (i ? "\n" : "") << expectationText(results[i]);
  }
  checkWritable(ctx.out, "output");
}

}  // namespace

int runFromCommand(const Options& options, CommandFiles& files, AppContext& ctx) {
  if (!files.html && !files.metrics && !files.output && !options.judgesExpectations()) {
    printSavedRun(options, *files.from, ctx);
    return kExitOk;
  }
  // --output as JSON, as -j writes it (or its page).
  const int status = writeReportFiles(ctx, files, *files.from, ctx.stopRequested, [&] {
    const std::string text = reportJson(*files.from) + "\n";
    throwIfStopped(ctx.stopRequested);
    return text;
  });
  if (!options.judgesExpectations()) return status;
  throwIfStopped(ctx.stopRequested);
  const std::vector<ExpectationSection> results =
      judgeExpectations(options, files.expectations, *files.from, ctx.stopRequested);
  printChecks(options, results, ctx);
  if (status == kExitOk && anyExpectationFailed(results)) return kExitSlower;
  return status;
}

}  // namespace nvbw
