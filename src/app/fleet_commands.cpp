#include "app/fleet_commands.h"

#include <algorithm>
#include <filesystem>
#include <ostream>
#include <sstream>
#include <system_error>

#include "app/expectation_checks.h"
#include "core/json_style.h"
#include "core/version.h"
#include "fleet/comparison/comparison.h"
#include "fleet/html/html_report.h"
#include "fleet/metrics/metrics.h"
#include "fleet/report_keys.h"
#include "fleet/summary/fleet_summary.h"

namespace nvbw {
namespace {

// The HTML file, or the reason it could not be written on stderr (exit 1).
int writeHtml(AppContext& ctx, const OutputFile& file, const nlohmann::json& doc) {
  const std::string page = renderHtmlReport(doc);
  throwIfStopped(ctx.stopRequested);
  return writeViewFile(ctx, file, page);
}

// --output of a saved report: its JSON as -j writes it, or its page.
int writeSavedReport(AppContext& ctx, const CommandFiles& files, const nlohmann::json& doc) {
  if (files.outputFormat == ReportFormat::Html) return writeHtml(ctx, *files.output, doc);
  return writeViewFile(ctx, *files.output, styledJson(doc) + "\n");
}

// The worse of two statuses of written files (0 or 1).
int worse(int a, int b) { return a != kExitOk ? a : b; }

// {"nvbandwidth": {"version", "git_version", "comparison"}}, its cells streamed one at a time: a
// comparison of hundreds of thousands of cells never exists as one document.
void writeComparisonDocument(std::ostream& out, const Comparison& c,
                             const std::vector<ExpectationResult>& checks) {
  nlohmann::json doc = {{"nvbandwidth",
                         {{"version", kVersion},
                          {"git_version", kGitVersion},
                          {"comparison", comparisonJson(c, false)}}}};
  if (!checks.empty()) doc["nvbandwidth"][keys::kExpectations] = expectationsSection(checks);
  std::size_t next = 0;
  const StreamedArray cells{&doc["nvbandwidth"]["comparison"]["cells"],
                            [&c, &next](nlohmann::json& cell) {
                              if (next == c.cells.size()) return false;
                              cell = comparisonCellJson(c.cells[next++]);
                              return true;
                            }};
  writeStyledJson(out, doc, &cells);
  out << "\n";
}

// The checks after the comparison, each after an empty line.
std::string expectationsText(const std::vector<ExpectationResult>& checks) {
  std::string text;
  for (const ExpectationResult& r : checks) text += "\n" + expectationText(r);
  return text;
}

// --output of --compare: what it prints (the table, or the document with -j or a .json name),
// or with a .html name the page --html writes.
int writeComparisonOutput(AppContext& ctx, const CommandFiles& files, const Comparison& c,
                          const std::vector<ExpectationResult>& checks,
                          const nlohmann::json& current) {
  if (files.outputFormat == ReportFormat::Html) return writeHtml(ctx, *files.output, current);
  std::ostringstream text;
  if (files.outputFormat == ReportFormat::Json)
    writeComparisonDocument(text, c, checks);
  else
    text << comparisonText(c) << expectationsText(checks);
  return writeViewFile(ctx, *files.output, text.str());
}

bool sameFile(const std::string& a, const std::string& b) {
  std::error_code ec;
  return !b.empty() && std::filesystem::equivalent(a, b, ec);
}

// A baseline named on the command line: a report, or a directory standing for the reports under
// it (a usage error when it has none or cannot be listed). `current` (--compare's current report)
// is left out of a directory: the run under judgment is never part of its own baseline.
void addBaselineReports(const std::string& option, const std::string& path,
                        const std::string& current, std::vector<NamedFile>& inputs) {
  std::error_code ec;
  if (path == "-" || !std::filesystem::is_directory(path, ec)) {
    inputs.push_back({option, path});
    return;
  }
  std::vector<UnreadableReport> unreadable;
  const std::vector<std::string> found = reportFilesUnder(path, unreadable);
  const std::string label = NamedFile{option, path}.label();
  if (!unreadable.empty()) throw ReportFileError(label + ": " + unreadable.front().reason);
  std::size_t added = 0;
  for (const std::string& file : found)
    if (!sameFile(file, current)) {
      inputs.push_back({option, file});
      ++added;
    }
  if (added == 0) throw ReportFileError(label + ": a directory without *.json reports");
}

std::vector<NamedFile> inputsOf(const Options& o) {
  std::vector<NamedFile> inputs;
  const std::string current = o.compare.empty() ? std::string() : o.compare.back();
  for (std::size_t i = 0; i + 1 < o.compare.size(); ++i)
    addBaselineReports("--compare", o.compare[i], current, inputs);
  if (!o.compare.empty()) inputs.push_back({"--compare", current});
  for (const std::string& path : o.baseline) addBaselineReports("--baseline", path, "", inputs);
  if (!o.from.empty()) inputs.push_back({"--from", o.from});
  if (!o.expect.empty()) inputs.push_back({"--expect", o.expect});
  for (const std::string& path : o.summarize) inputs.push_back({"--summarize", path});
  return inputs;
}

// The report --from names: a run's report when it is to be judged (a comparison document has no
// cells to hold to a floor), else either.
ReportKind fromKind(const Options& o) {
  return o.judgesExpectations() ? ReportKind::Run : ReportKind::RunOrComparison;
}

// --metrics and --output, checked like --html. A saved report has no text rendering (that needs
// the run's results), so --from writes JSON or HTML only.
void openViewTargets(const Options& options, const std::vector<NamedFile>& inputs, bool owned,
                     const std::string& outputPath, CommandFiles& files) {
  if (!owned) return;
  if (!options.metrics.empty())
    files.metrics.emplace(NamedFile{"--metrics", options.metrics}, inputs);
  if (outputPath.empty()) return;
  const NamedFile target{"--output", outputPath};
  files.outputFormat = reportFormatFor(outputPath, options.json);
  if (!options.from.empty() && files.outputFormat == ReportFormat::Text)
    throw ReportFileError(target.label() +
                          ": a saved report is written as JSON (.json or -j) or HTML (.html)");
  files.output.emplace(target, inputs);
}

// Reads one baseline report into the baseline, its document let go at once. The first is
// "baseline" in the comparison's notes and errors, the others are named by their file.
void addToBaseline(Baseline& baseline, const NamedFile& input, const StopRequest& stop) {
  const nlohmann::json doc = readReport(input, ReportKind::Run, stop);
  const std::string label = baseline.reports() == 0 ? "baseline" : "baseline " + input.label();
  try {
    baseline.add(doc, label);
  } catch (const std::runtime_error& e) {
    throw ReportFileError(input.label() + ": " + e.what());
  }
}

}  // namespace

int writeViewFile(AppContext& ctx, const OutputFile& file, const std::string& text) {
  try {
    file.write(text);
    return kExitOk;
  } catch (const FileWriteError& e) {
    ctx.err << "nvbandwidth: " << e.what() << std::endl;
    return kExitFailure;
  }
}

int writeMetricsFile(AppContext& ctx, const OutputFile& file, const nlohmann::json& doc) {
  std::string text;
  try {
    text = metricsText(doc);
  } catch (const MetricsTooLarge& e) {
    ctx.err << "nvbandwidth: " << file.target().label() << ": " << e.what() << std::endl;
    return kExitFailure;
  }
  throwIfStopped(ctx.stopRequested);
  return writeViewFile(ctx, file, text);
}

CommandFiles openCommandFiles(const Options& options, const StopRequest& stop, bool printsReport,
                              const std::string& outputPath) {
  CommandFiles files;
  const std::vector<NamedFile> inputs = inputsOf(options);
  // A run's page is the printing rank's; --compare and --from run alike on every rank.
  const bool run = options.compare.empty() && options.from.empty() && options.summarize.empty();
  if (!options.html.empty() && (printsReport || !run))
    files.html.emplace(NamedFile{"--html", options.html}, inputs);
  openViewTargets(options, inputs, printsReport || !run, outputPath, files);
  // --summarize's reports are read by the summary itself, one at a time (fleet_summary.h).
  std::size_t compared = 0;
  const std::size_t comparedInputs = static_cast<std::size_t>(std::count_if(
      inputs.begin(), inputs.end(), [](const NamedFile& f) { return f.option == "--compare"; }));
  for (const NamedFile& input : inputs) {
    const bool current = input.option == "--compare" && ++compared == comparedInputs;
    if (current)
      files.current = readReport(input, ReportKind::Run, stop);
    else if (input.option == "--compare" || (input.option == "--baseline" && printsReport))
      addToBaseline(files.baseline, input, stop);
    else if (input.option == "--from")
      files.from = readReport(input, fromKind(options), stop);
    else if (input.option == "--expect")
      files.expectations = readExpectations(input, stop);  // every rank: a bad file stops all
  }
  return files;
}

int runCompareCommand(const Options& options, CommandFiles& files, AppContext& ctx) {
  nlohmann::json& current = files.current.value();
  const Comparison c = compareWithBaseline(files.baseline, current, options.tolerancePercent);
  const std::vector<ExpectationResult> checks =
      judgeExpectations(options, files.expectations, current);
  // The documents are done with (the page needs the current one): their memory goes first.
  files.baseline = Baseline();
  const bool pageNeeded =
      files.html || files.metrics || (files.output && files.outputFormat == ReportFormat::Html);
  if (!pageNeeded) current = nlohmann::json();
  throwIfStopped(ctx.stopRequested);
  if (options.json)
    writeComparisonDocument(ctx.out, c, checks);
  else
    ctx.out << comparisonText(c) << expectationsText(checks);
  ctx.out.flush();
  checkWritable(ctx.out, "output");
  if (pageNeeded) current["nvbandwidth"]["comparison"] = comparisonJson(c);
  int written = kExitOk;
  if (files.html) written = writeHtml(ctx, *files.html, current);
  if (files.metrics) written = worse(written, writeMetricsFile(ctx, *files.metrics, current));
  if (files.output) written = worse(written, writeComparisonOutput(ctx, files, c, checks, current));
  if (written != kExitOk) return written;
  return c.anyFailing() || anyExpectationFailed(checks) ? kExitSlower : kExitOk;
}

int runRenderCommand(CommandFiles& files, AppContext& ctx) {
  int written = kExitOk;
  if (files.html) written = writeHtml(ctx, *files.html, *files.from);
  if (files.metrics) written = worse(written, writeMetricsFile(ctx, *files.metrics, *files.from));
  if (files.output) written = worse(written, writeSavedReport(ctx, files, *files.from));
  return written;
}

}  // namespace nvbw
