#include "app/from_command.h"

#include <ostream>
#include <utility>

#include "app/expectation_checks.h"
#include "core/exit_status.h"
#include "model/report_writer.h"
#include "report/listing.h"

namespace nvbw {
namespace {

void printChecks(const Options& options, const std::vector<ExpectationResult>& results,
                 AppContext& ctx) {
  if (options.json) {
    Report checks = versionsReport();
    checks.expectations = expectationsSection(results);
    ctx.out << reportJson(checks) << "\n";
  } else {
    for (std::size_t i = 0; i < results.size(); ++i)
      ctx.out << (i ? "\n" : "") << expectationText(results[i]);
  }
  ctx.out.flush();
  checkWritable(ctx.out, "output");
}

}  // namespace

int runFromCommand(const Options& options, CommandFiles& files, AppContext& ctx) {
  int status = files.html || files.metrics || files.output ? runRenderCommand(files, ctx) : kExitOk;
  if (!options.judgesExpectations()) return status;
  throwIfStopped(ctx.stopRequested);
  const std::vector<ExpectationResult> results =
      judgeExpectations(options, files.expectations, *files.from, ctx.stopRequested);
  printChecks(options, results, ctx);
  if (status == kExitOk && anyExpectationFailed(results)) return kExitSlower;
  return status;
}

}  // namespace nvbw
