#include "app/fleet_commands.h"

#include <algorithm>
#include <filesystem>
#include <ostream>
#include <sstream>
#include <system_error>
#include <utility>

#include "app/expectation_checks.h"
#include "core/say_line.h"
#include "core/text.h"
#include "fleet/comparison/comparison.h"
#include "fleet/html/html_report.h"
#include "fleet/metrics/metrics.h"
#include "model/report_writer.h"
#include "report/listing.h"

namespace nvbw {
namespace {

// The comparison and the checks after it: the table, each check after an empty line; or as JSON,
// {"nvbandwidth": {"version", "git_version", "release", "comparison"}}, its cells streamed one at a
// time: a comparison of hundreds of thousands of cells never exists as one document (the
// document holds `c` without its cells, which are lent to it and given back).
void writeComparison(std::ostream& out, bool json, ComparisonSection& c,
                     const std::vector<ExpectationSection>& checks) {
  if (!json) {
    out << comparisonText(c);
    for (const ExpectationSection& r : checks) out << "\n" << expectationText(r);
    return;
  }
  Report document = versionsReport();
  std::vector<ComparedCellRecord> all = std::exchange(*c.cells, {});
  document.comparison = c;
  c.cells = std::move(all);
  if (!checks.empty()) document.expectations = checks;
  writeReportJson(out, document, &*c.cells);
  out << "\n";
}

// A baseline named on the command line: a report, or a directory standing for the reports under
// it, found as --summarize finds them (a usage error when it has none, or when a folder under it
// cannot be listed: a baseline is never judged on part of itself). `current` (--compare's current
// report) is left out of a directory: the run under judgment is never part of its own baseline.
void addBaselineReports(const std::string& option, const std::string& path,
                        const std::string& current, const StopRequest& stop,
                        std::vector<NamedFile>& inputs) {
  std::error_code ec;
  if (path == "-" || !std::filesystem::is_directory(path, ec)) {
    inputs.push_back({option, path});
    return;
  }
  const FoundReports found = findReports({path}, stop);
  const std::string label = NamedFile{option, path}.label();
  if (!found.unreadable.empty())
    throw ReportFileError(label + ": " + found.unreadable.front().path + " " +
                          found.unreadable.front().reason);
  std::size_t added = 0;
  for (const std::string& file : found.files)
    if (current.empty() || !std::filesystem::equivalent(file, current, ec)) {
      inputs.push_back({option, file});
      ++added;
    }
  if (added == 0) throw ReportFileError(label + ": a directory without *.json reports");
}

std::vector<NamedFile> inputsOf(const Options& o, const StopRequest& stop) {
  std::vector<NamedFile> inputs;
  const std::string current = o.compare.empty() ? std::string() : o.compare.back();
  for (std::size_t i = 0; i + 1 < o.compare.size(); ++i)
    addBaselineReports("--compare", o.compare[i], current, stop, inputs);
  if (!o.compare.empty()) inputs.push_back({"--compare", current});
  for (const std::string& path : o.baseline)
    addBaselineReports("--baseline", path, "", stop, inputs);
  if (!o.from.empty()) inputs.push_back({"--from", o.from});
  if (!o.expect.empty()) inputs.push_back({"--expect", o.expect});
  for (const std::string& path : o.summarize) inputs.push_back({"--summarize", path});
  return inputs;
}

// Throws ReportFileError when a file this command writes is one of --summarize's reports (found
// in its folders, after its targets were checked).
void refuseWritingOnto(const CommandFiles& files, const std::vector<std::string>& summarized) {
  for (const std::optional<OutputFile>* t : {&files.html, &files.metrics, &files.output})
    if (*t)
      for (const std::string& file : summarized) (*t)->refuseIfReads({"--summarize", file});
}

// No two targets may name one file: the later write would silently replace the earlier one.
void refuseSharedTargets(const CommandFiles& files) {
  std::vector<const OutputFile*> targets;
  for (const std::optional<OutputFile>* t : {&files.html, &files.metrics, &files.output})
    if (*t) targets.push_back(&**t);
  for (std::size_t i = 0; i < targets.size(); ++i)
    for (std::size_t j = i + 1; j < targets.size(); ++j)
      if (targets[j]->sameFileAs(*targets[i]))
        throw ReportFileError(targets[j]->target().label() + ": is also " +
                              targets[i]->target().label() + ": one file cannot hold both");
}

// Reads one baseline report into the baseline, its document let go at once. The first is
// "baseline" in the comparison's notes and errors, the others are named by their file.
void addToBaseline(Baseline& baseline, const NamedFile& input, const StopRequest& stop) {
  const Report report = readReport(input, ReadOptions{}, stop);
  const std::string label = baseline.reports() == 0 ? "baseline" : "baseline " + input.label();
  baseline.add(report, label, stop);
}

template <typename Text> int writeText(AppContext& ctx, const OutputFile& file, const Text& text) {
  try {
    file.write(text);
    return kExitOk;
  } catch (const FileWriteError& e) {
    sayLine(ctx.err, std::string("nvbandwidth: ") + e.what());
    return kExitFailure;
  }
}

// The HTML page of a report to `file`; 0, or 1 (the reason on stderr) when it cannot be written.
int writeHtmlFile(AppContext& ctx, const OutputFile& file, const Report& report,
                  const StopRequest& stop) {
  const std::string page = renderHtmlReport(report, stop);
  throwIfStopped(stop);
  return writeText(ctx, file, page);
}

// The Prometheus metrics of a report (fleet/metrics/metrics.h) to `file`; 0, or 1 (the reason on
// stderr) when it cannot be written or would be too large.
int writeMetricsFile(AppContext& ctx, const OutputFile& file, const Report& report,
                     const StopRequest& stop) {
  std::vector<std::string> pieces;
  try {
    pieces = metricsPieces(report, stop);
  } catch (const MetricsTooLarge& e) {
    sayLine(ctx.err, "nvbandwidth: " + file.target().label() + ": " + e.what());
    return kExitFailure;
  }
  throwIfStopped(stop);
  return writeText(ctx, file, pieces);
}

// One file a command writes: its target, and what writes it.
struct FileWrite {
  const OutputFile* file;
  std::function<int()> write;
};

int writeFiles(AppContext& ctx, const std::vector<FileWrite>& files, const StopRequest& stop) {
  int status = kExitOk;
  std::vector<std::string> written, notWritten;
  std::optional<Interrupted> stopped;
  for (const FileWrite& f : files) {
    const std::string name = f.file->target().label();
    if (stopped) {
      notWritten.push_back(name);
      continue;
    }
    try {
      const int wrote = f.write();
      if (status == kExitOk) status = wrote;
      written.push_back(name);
      throwIfStopped(stop);  // a signal while it was written: the next ones are not
    } catch (const Interrupted& e) {
      stopped.emplace(e);
      if (written.empty() || written.back() != name) notWritten.push_back(name);
    }
  }
  if (!stopped) return status;
  auto list = [](const std::vector<std::string>& names) {
    return names.empty() ? std::string("none") : joined(names, ", ");
  };
  sayLine(ctx.err, "NOTE: stopped by " + signalName(stopped->signal()) +
                       " while the files were written: written: " + list(written) +
                       "; not written (they keep what they held): " + list(notWritten) + ".");
  throw *stopped;
}

}  // namespace

int writeViewFile(AppContext& ctx, const OutputFile& file, const std::string& text) {
  return writeText(ctx, file, text);
}

CommandFiles openCommandFiles(const Options& options, const StopRequest& stop, bool printsReport,
                              const std::string& outputPath) {
  CommandFiles files;
  const std::vector<NamedFile> inputs = inputsOf(options, stop);
  // A run's files are the printing rank's; the commands that read saved reports run alike on
  // every rank.
  const bool run = options.compare.empty() && options.from.empty() && options.summarize.empty();
  if (printsReport || !run) {
    if (!options.html.empty()) files.html.emplace(NamedFile{"--html", options.html}, inputs);
    if (!options.metrics.empty())
      files.metrics.emplace(NamedFile{"--metrics", options.metrics}, inputs);
    if (!outputPath.empty()) {
      const NamedFile target{"--output", outputPath};
      files.outputFormat = reportFormatFor(outputPath, options.json);
      if (!options.from.empty() && files.outputFormat == ReportFormat::Text)
        throw ReportFileError(target.label() +
                              ": a saved report is written as JSON (.json or -j) or HTML (.html)");
      files.output.emplace(target, inputs);
    }
  }
  refuseSharedTargets(files);
  // --summarize's reports are read by the summary itself, one at a time (fleet_summary.h); the
  // files its folders hold are known now, before anything is written.
  if (!options.summarize.empty()) {
    files.summarized = findReports(options.summarize, stop);
    refuseWritingOnto(files, files.summarized->files);
  }
  // --from's report: a run's when it is to be judged (a comparison has no cells to hold to a
  // floor), else either.
  const ReportKind fromKind =
      options.judgesExpectations() ? ReportKind::Run : ReportKind::RunOrComparison;
  std::size_t compared = 0;
  const std::size_t comparedInputs = static_cast<std::size_t>(std::count_if(
      inputs.begin(), inputs.end(), [](const NamedFile& f) { return f.option == "--compare"; }));
  for (const NamedFile& input : inputs) {
    const bool current = input.option == "--compare" && ++compared == comparedInputs;
    if (current)
      files.current = readReport(input, ReadOptions{}, stop);
    else if (input.option == "--compare" || (input.option == "--baseline" && printsReport))
      addToBaseline(files.baseline, input, stop);
    else if (input.option == "--from")
      files.from = readReport(input, ReadOptions{fromKind}, stop);
    else if (input.option == "--expect")
      files.expectations =
          readExpectations(input, expectationKeys(), stop);  // a bad file stops all
  }
  return files;
}

int writeReportFiles(AppContext& ctx, const CommandFiles& files, const Report& report,
                     const StopRequest& stop, const std::function<std::string()>& outputText) {
  std::vector<FileWrite> writes;
  if (files.html)
    writes.push_back({&*files.html, [&] { return writeHtmlFile(ctx, *files.html, report, stop); }});
  if (files.metrics)
    writes.push_back(
        {&*files.metrics, [&] { return writeMetricsFile(ctx, *files.metrics, report, stop); }});
  if (files.output)
    writes.push_back({&*files.output, [&] {
                        if (files.outputFormat == ReportFormat::Html)
                          return writeHtmlFile(ctx, *files.output, report, stop);
                        return writeViewFile(ctx, *files.output, outputText());
                      }});
  return writeFiles(ctx, writes, stop);
}

int runCompareCommand(const Options& options, CommandFiles& files, AppContext& ctx) {
  if (const auto problem =
          files.baseline.logicalGpusProblem("the current report", files.current->logicalGpus))
    return refuseUsage(ctx, *problem);
  // The page and the metrics show the current report with its verdicts.
  ComparisonSection& c = files.current->comparison.emplace(compareWithBaseline(
      files.baseline, *files.current, options.tolerancePercent, ctx.stopRequested));
  const std::vector<ExpectationSection> checks =
      judgeExpectations(options, files.expectations, *files.current, ctx.stopRequested);
  // What the views need is the current Report: the baseline's memory goes first.
  files.baseline = Baseline();
  throwIfStopped(ctx.stopRequested);
  writeComparison(ctx.out, options.json, c, checks);
  checkWritable(ctx.out, "output");
  // --output as printed (the table, or the document with -j or a .json name).
  const int written = writeReportFiles(ctx, files, *files.current, ctx.stopRequested, [&] {
    std::ostringstream text;
    writeComparison(text, files.outputFormat == ReportFormat::Json, c, checks);
    throwIfStopped(ctx.stopRequested);
    return text.str();
  });
  if (written != kExitOk) return written;
  if (c.differentMachines) return kExitUsage;  // shown side by side, never judged
  return anyFailing(c) || anyExpectationFailed(checks) ? kExitSlower : kExitOk;
}

}  // namespace nvbw
