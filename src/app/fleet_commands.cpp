#include "app/fleet_commands.h"

#include <ostream>

#include "app/expectation_checks.h"
#include "core/json_style.h"
#include "core/version.h"
#include "fleet/comparison/comparison.h"
#include "fleet/html/html_report.h"
#include "fleet/report_keys.h"

namespace nvbw {
namespace {

// The HTML file, or the reason it could not be written on stderr (exit 1).
int writeHtml(AppContext& ctx, const OutputFile& file, const nlohmann::json& doc) {
  const std::string page = renderHtmlReport(doc);
  throwIfStopped(ctx.stopRequested);
  try {
    file.write(page);
    return kExitOk;
  } catch (const FileWriteError& e) {
    ctx.err << "nvbandwidth: " << e.what() << std::endl;
    return kExitFailure;
  }
}

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

std::vector<NamedFile> inputsOf(const Options& o) {
  std::vector<NamedFile> inputs;
  for (const std::string& path : o.compare) inputs.push_back({"--compare", path});
  if (!o.baseline.empty()) inputs.push_back({"--baseline", o.baseline});
  if (!o.from.empty()) inputs.push_back({"--from", o.from});
  if (!o.expect.empty()) inputs.push_back({"--expect", o.expect});
  return inputs;
}

// The report --from names: a run's report when it is to be judged (a comparison document has no
// cells to hold to a floor), else either.
ReportKind fromKind(const Options& o) {
  return o.judgesExpectations() ? ReportKind::Run : ReportKind::RunOrComparison;
}

}  // namespace

CommandFiles openCommandFiles(const Options& options, const StopRequest& stop, bool printsReport) {
  CommandFiles files;
  const std::vector<NamedFile> inputs = inputsOf(options);
  // A run's page is the printing rank's; --compare and --from run alike on every rank.
  const bool run = options.compare.empty() && options.from.empty();
  if (!options.html.empty() && (printsReport || !run))
    files.html.emplace(NamedFile{"--html", options.html}, inputs);
  for (const NamedFile& input : inputs) {
    if (input.option == "--compare")
      files.compared.push_back(readReport(input, ReportKind::Run, stop));
    else if (input.option == "--from")
      files.from = readReport(input, fromKind(options), stop);
    else if (input.option == "--expect")
      files.expectations = readExpectations(input, stop);  // every rank: a bad file stops all
    else if (printsReport)
      files.baseline = readReport(input, ReportKind::Run, stop);
  }
  return files;
}

int runCompareCommand(const Options& options, CommandFiles& files, AppContext& ctx) {
  nlohmann::json& current = files.compared.at(1);
  const Comparison c = compareReports(files.compared.at(0), current, options.tolerancePercent);
  const std::vector<ExpectationResult> checks =
      judgeExpectations(options, files.expectations, current);
  // The documents are done with (the page needs the current one): their memory goes first.
  files.compared.at(0) = nlohmann::json();
  if (!files.html) current = nlohmann::json();
  throwIfStopped(ctx.stopRequested);
  if (options.json)
    writeComparisonDocument(ctx.out, c, checks);
  else
    ctx.out << comparisonText(c) << expectationsText(checks);
  ctx.out.flush();
  checkWritable(ctx.out, "output");
  if (files.html) {
    current["nvbandwidth"]["comparison"] = comparisonJson(c);
    if (const int status = writeHtml(ctx, *files.html, current)) return status;
  }
  return c.anySlower() || anyExpectationFailed(checks) ? kExitSlower : kExitOk;
}

int runRenderCommand(CommandFiles& files, AppContext& ctx) {
  return writeHtml(ctx, *files.html, *files.from);
}

}  // namespace nvbw
