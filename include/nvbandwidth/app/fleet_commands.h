// The report files a command line names, and the commands that need no GPU: --compare BASELINE
// CURRENT, --from REPORT and --summarize REPORT... (their exit statuses: docs/options.md). Each
// throws WriteFailed (standard output) or Interrupted.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/app_context.h"
#include "app/options.h"
#include "app/output_path.h"
#include "fleet/comparison/comparison.h"
#include "fleet/expectations/expectations.h"
#include "model/report.h"
#include "model/report_files.h"

namespace nvbw {

// Every report the options name, read and checked, and every file they ask to write, checked,
// before anything runs.
struct CommandFiles {
  // --baseline (on the printing rank only), or the baseline reports of --compare, each reduced
  // as it is read; no report: none given.
  Baseline baseline;
  std::optional<Report> current;      // --compare: the current report
  std::optional<Report> from;         // --from
  std::optional<OutputFile> html;     // --html (in a run: on the printing rank only)
  std::optional<OutputFile> metrics;  // --metrics (in a run: on the printing rank only)
  std::optional<OutputFile> output;   // --output, %-substituted (likewise)
  ReportFormat outputFormat = ReportFormat::Text;
  std::optional<Expectations> expectations;  // --expect (read on every rank; the printer judges)
  std::optional<FoundReports> summarized;    // --summarize: the report files its paths hold
};

// Output targets first (none may be a file the command reads, nor another target), then the
// reports and the expectations file (docs/options.md, exit status 2). A run's --baseline and
// view files belong to the rank that prints (`printsReport`). Throws ReportFileError or
// ExpectationsError (usage errors) or Interrupted. `outputPath`: --output's name, %-substituted.
CommandFiles openCommandFiles(const Options& options, const StopRequest& stop, bool printsReport,
                              const std::string& outputPath);

// Writes one view's text to its file; on failure says why on stderr and gives 1, else 0.
int writeViewFile(AppContext& context, const OutputFile& file, const std::string& text);

// Writes the files of `report` a command line names, in order: --html, --metrics, then --output
// (its page, or the text `outputText` makes); 0, or 1 when one cannot be written (the reason
// said). A signal while they are made stops the writing: a stderr line names the files written
// and those not written, and Interrupted goes on to the caller.
int writeReportFiles(AppContext& context, const CommandFiles& files, const Report& report,
                     const StopRequest& stop, const std::function<std::string()>& outputText);

// --compare BASELINE... CURRENT, --from REPORT and --summarize REPORT... as docs/options.md
// describes them. `testcases`: the names --summarize shows (-t/-p resolved against the registry,
// matrix keys such as "..._read1" as given); empty: every testcase a report has.
int runCompareCommand(const Options& options, CommandFiles& files, AppContext& context);
int runFromCommand(const Options& options, CommandFiles& files, AppContext& context);
int runSummarizeCommand(const Options& options, const std::vector<std::string>& testcases,
                        const CommandFiles& files, AppContext& context);

}  // namespace nvbw
