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
#include "model/report_folders.h"

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
// reports (--summarize's folders walked, and none of the files they hold a target) and the
// expectations file. A directory given to --baseline or as a baseline of --compare stands for the
// *.json reports under it, found as --summarize finds them (and none of them a target either). A
// run's --baseline and --html belong to the rank that prints
// (`printsReport`). Throws ReportFileError or ExpectationsError (usage errors) or Interrupted.
// `outputPath`: --output's name with its %-substitutions made.
CommandFiles openCommandFiles(const Options& options, const StopRequest& stop, bool printsReport,
                              const std::string& outputPath = std::string());

// Writes one view's text to its file; on failure says why on stderr and gives 1, else 0.
int writeViewFile(AppContext& context, const OutputFile& file, const std::string& text);

// The HTML page of a report to `file`; 0, or 1 (the reason on stderr) when it cannot be written.
// Throws Interrupted when `stop` reports a signal.
int writeHtmlFile(AppContext& context, const OutputFile& file, const Report& report,
                  const StopRequest& stop);

// Writes the files of `report` a command line names, in order: --html, --metrics, then --output
// (its page, or the text `outputText` makes); 0, or 1 when one cannot be written (the reason
// said). A signal (Interrupted,
// or `stop` after a file) while they are made stops the writing: a stderr line names the files
// written and those not written (which keep what they held), and Interrupted goes on to the caller.
int writeReportFiles(AppContext& context, const CommandFiles& files, const Report& report,
                     const StopRequest& stop, const std::function<std::string()>& outputText);

// Compares saved reports (the baseline reports, then the current one): the table of the cells
// that are not SAME and the summary (JSON with -j: {"nvbandwidth": {"version", "git_version",
// "release", "comparison"}}); with --html also the current report with its verdicts as HTML; with
// --expect or --min-percent-of-peak the current report judged too (after the comparison; JSON:
// "expectations" beside "comparison").
int runCompareCommand(const Options& options, CommandFiles& files, AppContext& context);

// --from REPORT alone prints the saved run again; with --html, --metrics or --output it writes
// them, then prints the checks of --expect and --min-percent-of-peak (text: each check's lines
// and summary; -j: {"nvbandwidth": {"version", "git_version", "release", "expectations"}}).
int runFromCommand(const Options& options, CommandFiles& files, AppContext& context);

// --summarize: many nodes' saved reports as one table (fleet/summary/fleet_summary.h), printed as
// text or JSON (-j), and written as a page (--html FILE, --output x.html) or to --output in the
// format its name asks for. `testcases`: the names to show (-t/-p resolved against the registry,
// matrix keys such as "..._read1" as given); empty: every testcase a report has.
// `files.summarized`: the reports found (else the paths are walked here).
int runSummarizeCommand(const Options& options, const std::vector<std::string>& testcases,
                        const CommandFiles& files, AppContext& context);

}  // namespace nvbw
