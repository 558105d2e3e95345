#include "app/application.h"

#include <chrono>
#include <cstdlib>
#include <functional>
#include <ostream>
#include <sstream>

#include "app/confirmation_runs.h"
#include "app/expectation_checks.h"
#include "app/fleet_commands.h"
#include "app/selection.h"
#include "app/testcase_loop.h"
#include "core/escape.h"
#include "core/say_line.h"
#include "core/utc_time.h"
#include "core/version.h"
#include "facts/driver_version.h"
#include "facts/host_facts.h"
#include "fleet/comparison/comparison.h"
#include "model/report_writer.h"
#include "plans/pair_selection.h"
#include "plans/registry.h"
#include "plans/schedule.h"
#include "platform/huge_pages.h"
#include "platform/logical_gpus.h"
#include "report/listing.h"
#include "report/output.h"
#include "report/progress_display.h"
#include "report/report_builder.h"
#include "report/report_text.h"

namespace nvbw {

std::string smallBufferWarning() {
  return "NOTE: You have chosen a buffer size that is smaller than the default buffer size. It is "
         "suggested to use the default buffer size (" +
         std::to_string(kDefaultBufferSizeMiB) + " MiB) to achieve maximal peak bandwidth.";
}

std::string nvmlMissingNote(const std::string& problem) {
  return "NOTE: NVML is not available (" + problem +
         "): NVLink peaks and most of the GPU environment are unknown.";
}

std::string hostTestcasesWaivedNote(const std::string& problem) {
  return "NOTE: " + problem + ": host testcases are waived.";
}

SystemFacts buildSystemFacts() {
  SystemFacts info;
  info.version = kVersion;
  info.gitVersion = kGitVersion;
  info.release = kRelease;
  info.cudaRuntimeVersion = kBuildCudaVersion;
  info.hostname = hostName();
  return info;
}

namespace {

std::vector<std::string> keysOf(const std::vector<TestcaseDef>& registry) {
  std::vector<std::string> keys;
  for (const auto& def : registry) keys.push_back(def.key);
  return keys;
}

// What the executor measures with, from the options and the page size -H chose.
RunSettings runSettings(const Options& o, std::size_t hugePageBytes) {
  RunSettings s;
  s.samples = o.testSamples;
  s.loopCount = o.loopCount;
  s.statistic = o.useMean ? Statistic::Mean : Statistic::Median;
  s.verify = !o.skipVerification;
  s.cpuAffinity = !o.disableAffinity;
  s.hugePageBytes = hugePageBytes;
  s.sweep = !o.sweep.empty();
  return s;
}

// What -H means on this machine: the page size to allocate with and, when there are no huge
// pages, why the host-memory testcases are waived.
struct HostMemoryChoice {
  std::size_t hugePageBytes = 0;
  std::optional<std::string> problem;
  std::optional<std::string> note;
};

HostMemoryChoice hostMemoryChoice(const Options& o) {
  HostMemoryChoice choice;
  if (!o.useHugePages) return choice;
  const HugePageInfo info = readHugePageInfo();
  choice.problem = hugePageProblem(info);
  if (!choice.problem) {
    choice.hugePageBytes = static_cast<std::size_t>(info.pageBytes);
    choice.note = hugePageNote(info);
  }
  return choice;
}

// The usage problem `check` finds (a UsageError), agreed by every process; its one line is
// printed. A usage error is exit 2 whatever becomes of that line (stderr may not be writable).
template <typename Check> bool refusedUsage(AppContext& ctx, Check check) {
  std::optional<std::string> problem;
  try {
    check();
  } catch (const UsageError& e) {
    problem = e.what();
  }
  if (!(problem = agreedUsageProblem(ctx, problem))) return false;
  refuseUsage(ctx, *problem);
  return true;
}

// The part of a run after option handling: start-up, header, testcases, report.
class RunCommand {
 public:
  RunCommand(const Options& options, AppContext& ctx, CommandFiles& files)
      : options_(options), ctx_(ctx), files_(files) {
    const OutputSettings settings{options.verbose, options.perfFormatter, options.compat};
    // The text streams as the Report grows: each testcase's entries print once appended.
    std::vector<std::unique_ptr<ReportView>> views;
    if (!options.json) views.push_back(makeTextView(ctx.out, ctx.err, settings));
    // --output as text: the report as printed, its end-of-run lines (stderr's) included.
    if (copiesText()) views.push_back(makeTextView(outputCopy_, outputCopy_, settings));
    if (ctx.errIsTerminal && !options.noProgress)
      progress_ = std::make_unique<ProgressDisplay>(ctx.err);
    // Output that fails mid-run stops the run: measuring on for a report nobody gets is wasted.
    views_ = std::make_unique<FanView>(
        std::move(views), [this] { clearProgress(); },
        [this] { checkWritable(ctx_.out, "output"); });
    report_ = std::make_unique<ReportBuilder>(settings, views_.get());
  }

  int execute(const std::vector<TestcaseDef>& registry, const std::vector<Selection>& selection);

 private:
  RunHeader header() const {
    RunHeader h;
    h.system = buildSystemFacts();
    h.settings = settingsRecord(options_);
    h.startedAt = isoUtcSeconds(std::chrono::system_clock::now());
    if (options_.bufferSizeMiB < kDefaultBufferSizeMiB) h.warnings.push_back(smallBufferWarning());
    return h;
  }
  int startupFailed(RunHeader h, const std::string& why, const std::string& detail);
  int stoppedBeforeTestcases(const std::string& error, const std::string& detail);
  int finish(const LoopSummary& summary, const PlanExecutor& executor, std::size_t selected,
             const Platform& platform, const EnvironmentSnapshot& atStart);
  void judgeAgainstBaseline(Report& report, int& status);
  void confirm(ComparisonSection& compared, Report& report, int& status);
  bool failsExpectations(Report& report);
  int writeViewFiles(const Report& report, bool interrupted);
  ProgressSink progressSink() {
    if (!progress_) return ctx_.progress;
    return [this](const ProgressEvent& e) {
      progress_->show(e);
      if (ctx_.progress) ctx_.progress(e);
    };
  }

  // Text of ours that a judgment of the finished run adds (its comparison, its checks): stderr,
  // after stdout so far, and the --output text copy.
  void tellPerson(const std::string& text) {
    if (text.empty()) return;
    clearProgress();
    ctx_.out << std::flush;
    if (!options_.json) ctx_.err << text << std::flush;
    if (copiesText()) outputCopy_ << text;
  }
  void clearProgress() {
    if (progress_) progress_->clear();
  }
  bool copiesText() const { return files_.output && files_.outputFormat == ReportFormat::Text; }
  // Ends what is printed (the text's trailer, or -j's whole document) and the --output text copy.
  void printEnd(const RunEnd& end) {
    views_->finish(end);
    if (options_.json) {
      writeReportJson(ctx_.out, report_->report());
      ctx_.out << "\n";
    }
    checkWritable(ctx_.out, "output");
  }

  const Options& options_;
  AppContext& ctx_;
  CommandFiles& files_;
  std::ostringstream outputCopy_;  // --output's text
  std::unique_ptr<ProgressDisplay> progress_;
  std::unique_ptr<FanView> views_;
  std::unique_ptr<ReportBuilder> report_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  // Measures suspect testcases again with the run's loop request and executor (set while they
  // exist: from the start of the testcase loop to the end of the report).
  std::function<ConfirmationRuns(const std::vector<SuspectRecord>&)> confirmationRunner_;
};

int RunCommand::startupFailed(RunHeader h, const std::string& why, const std::string& detail) {
  h.gpusOpened = false;
  h.system.driverVersion = readDriverVersion();  // the kernel driver may be there without GPUs
  report_->header(h);
  return stoppedBeforeTestcases("cannot start: " + why, detail);
}

// The report ends with the error, and --output, --html and --metrics are written all the same:
// a nightly job's files must say that the run failed, not keep the last healthy ones in place.
int RunCommand::stoppedBeforeTestcases(const std::string& error, const std::string& detail) {
  report_->globalError(error, detail);
  report_->finish(RunEnd{});
  printEnd(RunEnd{});
  writeViewFiles(report_->report(), false);
  return kExitFailure;
}

// The header's notes of how the run will go: the schedule's, that the GPUs are logical, -H's.
void addRunNotes(RunHeader& h, const ScheduleChoice& schedule, const HostMemoryChoice& host) {
  h.notes = schedule.notes;
  if (h.system.logicalGpus > 0)
    h.notes.insert(h.notes.begin(), logicalGpusNote(h.system.logicalGpus, h.system.devices.at(0)));
  if (host.note) h.warnings.push_back(*host.note);
  if (host.problem) h.warnings.push_back(hostTestcasesWaivedNote(*host.problem));
}

// The header's facts about the opened machine: system, environment and the notes they call for.
void addMachineFacts(RunHeader& h, const Platform& platform) {
  h.system = platform.systemFacts();
  h.environment = platform.environment();
  for (std::string& line : environmentWarnings(*h.environment))
    h.warnings.push_back(std::move(line));
  if (h.environment->nvmlProblem)
    h.warnings.push_back(nvmlMissingNote(*h.environment->nvmlProblem));
  if (std::string note = peerAccessNote(platform.topology()); !note.empty())
    h.warnings.push_back(std::move(note));
}

int RunCommand::execute(const std::vector<TestcaseDef>& registry,
                        const std::vector<Selection>& selection) {
  RunHeader h = header();
  std::unique_ptr<Platform> platform;
  PairRule pairs;
  try {
    platform = ctx_.platform(platformStart(options_, registry, selection, readOnlineNumaNodes()));
    addMachineFacts(h, *platform);
    // -d: host buffers are not bound to any GPU's CPUs, whatever sysfs says is local.
    if (options_.disableAffinity)
      for (GpuEnvironment& gpu : h.environment->gpus) gpu.hostBufferCpus.reset();
  } catch (const std::exception& e) {
    return startupFailed(h, e.what(), errorDetail(e));
  }
  // What the options ask of the opened machine that it cannot give: a --pair GPU it does not
  // have, a --baseline of logical GPUs against real ones or the other way round.
  if (refusedUsage(ctx_, [&] {
        pairs = resolvePairRule(options_.pair, options_.targetNumPairs, h.system);
        const int logical = h.system.logicalGpus;
        if (const auto problem = files_.baseline.logicalGpusProblem(
                "this run", logical ? std::optional<std::uint64_t>(logical) : std::nullopt))
          throw UsageError(*problem);
      }))
    return kExitUsage;
  for (std::string& note : pairRuleNotes(pairs, !h.system.processes.empty()))
    h.warnings.push_back(std::move(note));
  SingleProcess alone;
  const ScheduleChoice schedule =
      chooseSchedule(options_.schedule, platform->topology(), ctx_.comm ? *ctx_.comm : alone);
  const HostMemoryChoice host = hostMemoryChoice(options_);
  addRunNotes(h, schedule, host);
  report_->header(h);
  checkWritable(ctx_.out, "output");

  ExecHooks hooks;
  hooks.stopRequested = ctx_.stopRequested;
  hooks.note = [this](const std::string& line) { sayLine(ctx_.err, line); };
  std::unique_ptr<PlanExecutor> executor;
  try {
    executor = platform->makePlanExecutor(runSettings(options_, host.hugePageBytes), hooks);
  } catch (const std::exception& e) {
    return stoppedBeforeTestcases(e.what(), errorDetail(e));
  }
  const LoopRequest request{registry,
                            selection,
                            platform->topology(),
                            static_cast<std::size_t>(options_.bufferBytes()),
                            pairs,
                            host.problem,
                            h.settings.sweepMiB.value_or(std::vector<std::uint64_t>{}),
                            schedule.rule};
  const LoopControl control{ctx_.comm, ctx_.stopRequested, progressSink()};
  const LoopSummary summary = runTestcaseLoop(request, *executor, *report_, control);
  confirmationRunner_ = [&](const std::vector<SuspectRecord>& suspects) {
    return runConfirmations(request, h, suspects, options_.confirmRuns, *executor, control);
  };
  return finish(summary, *executor, selection.size(), *platform, *h.environment);
}

// The end of the run: the Report compared with the baseline and judged, the end of the report
// printed and the view files written. Errors and interruption keep their status; otherwise
// SLOWER and UNSTABLE cells give 3.
int RunCommand::finish(const LoopSummary& summary, const PlanExecutor& executor,
                       std::size_t selected, const Platform& platform,
                       const EnvironmentSnapshot& atStart) {
  RunEnd end;
  end.environment = platform.environment();
  end.warnings = runWarnings(atStart, *end.environment);
  end.interruptedBy = summary.interruptedBy;
  end.finished = summary.finished;
  end.selected = selected;
  end.timing = RunEnd::Timing{
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(),
      executor.phaseTimes(), executor.memoryStats(), executor.operationCounts()};
  if (summary.processesLost)
    report_->globalError(summary.processesLost->message, summary.processesLost->detail);
  int status = summary.errors > 0 || summary.processesLost ? kExitFailure : kExitOk;
  if (summary.interruptedBy) status = kExitInterruptedBase + *summary.interruptedBy;
  report_->finish(end);
  Report& report = report_->report();
  bool belowExpectations = false;
  try {
    judgeAgainstBaseline(report, status);
    belowExpectations = failsExpectations(report);
  } catch (const Interrupted& e) {
    // The report is printed all the same, without the verdicts that were not reached.
    clearProgress();
    sayLine(ctx_.err, std::string("NOTE: stopped by ") + signalName(e.signal()) +
                          " while the run was judged: what was not judged is not in the report.");
    status = kExitInterruptedBase + e.signal();
  }
  printEnd(end);
  if (writeViewFiles(report, status >= kExitInterruptedBase) != kExitOk && status == kExitOk)
    status = kExitFailure;
  const std::optional<ComparisonSection>& compared = report.comparison;
  if (status == kExitOk && compared && compared->differentMachines) return kExitUsage;
  if (status == kExitOk && ((compared && anyFailing(*compared)) || belowExpectations))
    return kExitSlower;
  return status;
}

// --baseline: the run compared with it, suspect cells confirmed (--confirm N), the comparison
// printed and added to `report`. A confirmation run that fails or is interrupted sets `status`.
void RunCommand::judgeAgainstBaseline(Report& report, int& status) {
  if (files_.baseline.reports() == 0) return;
  ComparisonSection compared =
      compareWithBaseline(files_.baseline, report, options_.tolerancePercent, ctx_.stopRequested);
  if (options_.confirmRuns > 0 && status < kExitInterruptedBase) confirm(compared, report, status);
  tellPerson(comparisonText(compared) + "\n");
  report.comparison = std::move(compared);
}

// Measures the testcases of the suspect cells again and re-judges those cells. Only a run of one
// process confirms: the other ranks of a multi-process run hold no baseline and could not take
// part in the measurements.
void RunCommand::confirm(ComparisonSection& compared, Report& report, int& status) {
  const std::vector<SuspectRecord> suspects = suspectTestcases(compared);
  if (ctx_.comm && ctx_.comm->size() > 1) {
    if (!suspects.empty())
      compared.notes->push_back("suspect cells are not measured again in a multi-process run: "
                                "judged as saved reports are");
    return;
  }
  ConfirmationRuns runs;
  if (!suspects.empty()) {
    clearProgress();
    std::ostringstream note;
    note << "NOTE: " << suspectCells(compared)
         << " cells slower than the baseline or unstable: measuring " << suspects.size()
         << " testcase" << (suspects.size() == 1 ? "" : "s") << " " << options_.confirmRuns
         << " more time" << (options_.confirmRuns == 1 ? "" : "s")
         << " before judging them (--confirm).";
    sayLine(ctx_.err, note.str());
    runs = confirmationRunner_(suspects);
  }
  clearProgress();
  runs.summary.runs = options_.confirmRuns;
  applyConfirmations(compared, runs.entries, runs.summary);
  if (!runs.entries.empty()) report.confirmations = std::move(runs.entries);
  if (runs.interruptedBy) {
    compared.notes->push_back("the confirmation runs were stopped by " +
                              signalName(*runs.interruptedBy));
    status = kExitInterruptedBase + *runs.interruptedBy;
  } else if (runs.errors > 0) {
    compared.notes->push_back(std::to_string(runs.errors) + " confirmation run" +
                              (runs.errors == 1 ? "" : "s") + " failed (in \"confirmations\")");
    if (status == kExitOk) status = kExitFailure;
  }
}

// --expect, --min-percent-of-peak: the run judged, printed and added to `report`; true when a
// check failed.
bool RunCommand::failsExpectations(Report& report) {
  if (!options_.judgesExpectations()) return false;
  std::vector<ExpectationSection> results =
      judgeExpectations(options_, files_.expectations, report, ctx_.stopRequested);
  std::string text;
  for (const ExpectationSection& result : results) text += expectationText(result) + "\n";
  tellPerson(text);
  const bool failed = anyExpectationFailed(results);
  report.expectations = std::move(results);
  return failed;
}

// --html, --metrics and --output; 1 when one of them cannot be written (each is still tried).
// `interrupted`: the run was stopped by a signal, and its files say so: they are made whole (a
// second signal ends the process), else a signal while they are made ends the command.
int RunCommand::writeViewFiles(const Report& report, bool interrupted) {
  const StopRequest stop = interrupted ? StopRequest() : ctx_.stopRequested;
  return writeReportFiles(ctx_, files_, report, stop, [&] {
    return copiesText() ? outputCopy_.str() : reportJson(report) + "\n";
  });
}

int helpOrListing(const Options& options, const std::vector<TestcaseDef>& registry,
                  std::ostream& out) {
  if (options.help)
    out << versionBlock(kVersion, kGitVersion) << helpText() << '\n';
  else if (options.version)
    out << versionText(kVersion, kGitVersion, kRelease, options.compat);
  else if (options.json)
    out << listingJson(registry, versionsReport());
  else
    out << versionBlock(kVersion, kGitVersion) << listingText(registry);
  checkWritable(out, "output");
  return kExitOk;
}

// The testcases --summarize shows: -t/-p resolved (indices named by their keys), or every one.
// A name may also be one matrix of a testcase with several ("..._read1"); a token that names no
// testcase or matrix this tool knows (any build) is a usage error, since it would show nothing.
std::vector<std::string> summaryColumns(const Options& options,
                                        const std::vector<Selection>& selection,
                                        const std::vector<TestcaseDef>& registry) {
  std::vector<std::string> names;
  if (options.testcases.empty() && options.testcasePrefixes.empty()) return names;
  const ExpectationKeys known = expectationKeys();
  for (const Selection& s : selection) {
    if (s.index)
      names.push_back(registry.at(*s.index).key);
    else if (known.count(s.token))
      names.push_back(s.token);
    else
      throw UsageError("-t " + quotedArgument(s.token) + ": " + s.error +
                       " (nvbandwidth --list names the testcases; one matrix of a bidirectional "
                       "testcase is <testcase>_read1, _read2, _write1, _write2 or _total)");
  }
  return names;
}

// --output's name with %h, %r and %j substituted (empty without --output).
std::string outputPathOf(const Options& options, const AppContext& ctx) {
  if (options.output.empty()) return std::string();
  const OutputPathFields fields{hostName(), ctx.comm ? ctx.comm->rank() : 0,
                                jobIdFrom([](const char* name) { return std::getenv(name); })};
  return expandOutputPath(options.output, fields);
}

// The command's files, read and checked before anything runs; nullopt (after the one usage-error
// line, on the printing rank) when one cannot be used. Every rank learns of a problem found on
// the printing rank, so that all of them stop alike.
std::optional<CommandFiles> openFiles(const Options& options, AppContext& ctx) {
  const bool prints = !ctx.comm || ctx.comm->rank() == 0;
  std::optional<CommandFiles> files;
  std::optional<std::string> problem;
  try {
    files = openCommandFiles(options, ctx.stopRequested, prints, outputPathOf(options, ctx));
  } catch (const UsageError& e) {  // ReportFileError, ExpectationsError
    problem = e.what();
  }
  if (ctx.comm && ctx.comm->size() > 1) problem = agreeOnProblem(*ctx.comm, problem);
  if (!problem) return files;
  if (prints) refuseUsage(ctx, *problem);
  return std::nullopt;
}

// A signal while the files the command reads were read: nothing ran. With -j the printing rank
// still prints one document, which says so; in text a line on stderr does.
int stoppedBeforeTheRun(const Options& options, AppContext& ctx, int signal) {
  const bool prints = !ctx.comm || ctx.comm->rank() == 0;
  const std::string what = "stopped by " + signalName(signal) +
                           " while the files the command reads were read: nothing was measured";
  if (prints && options.json) {
    Report document = versionsReport();
    document.error = what;
    document.interrupted = signalName(signal);
    // A run's document keeps the keys strict readers (DCGM's) require of one.
    if (options.summarize.empty() && options.compare.empty()) {
      document.cudaRuntimeVersion = static_cast<std::uint64_t>(kBuildCudaVersion);
      document.driverVersion = readDriverVersion();
      document.schemaVersion = kJsonSchemaVersion;
      document.testcases.emplace();
    }
    ctx.out << reportJson(document) << "\n" << std::flush;
  } else if (prints) {
    sayLine(ctx.err, "NOTE: " + what + ".");
  }
  return kExitInterruptedBase + signal;
}

// The command a valid command line asks for, with its files open.
int runCommand(const Options& options, AppContext& ctx, const std::vector<TestcaseDef>& registry,
               const std::vector<Selection>& selection, const std::vector<std::string>& columns) {
  std::optional<CommandFiles> files;
  try {
    files = openFiles(options, ctx);
  } catch (const Interrupted& e) {
    return stoppedBeforeTheRun(options, ctx, e.signal());
  }
  if (!files) return kExitUsage;
  if (!options.summarize.empty()) return runSummarizeCommand(options, columns, *files, ctx);
  if (!options.compare.empty()) return runCompareCommand(options, *files, ctx);
  if (!options.from.empty()) return runFromCommand(options, *files, ctx);
  RunCommand run(options, ctx, *files);
  return run.execute(registry, selection);
}

int runApplication(const Options& options, AppContext& ctx) {
  try {
    const std::vector<TestcaseDef> registry = makeRegistry(ctx.scope, options.compat);
    // -h and -l need neither a GPU nor a driver, and work in JSON mode too; -l and --version
    // refuse what they cannot honour, as every other mode does.
    if (!options.help && (options.version || options.list) &&
        refusedUsage(ctx, [&] { validateInformationOptions(options); }))
      return kExitUsage;
    if (options.help || options.version || options.list)
      return helpOrListing(options, registry, ctx.out);
    std::vector<Selection> selection;
    std::vector<std::string> columns;
    if (refusedUsage(ctx, [&] {
          validateOptions(options);
          selection = selectTestcases(options, keysOf(registry), indicesOf(registry));
          if (!options.summarize.empty()) columns = summaryColumns(options, selection, registry);
        }))
      return kExitUsage;
    const int status = runCommand(options, ctx, registry, selection, columns);
    checkWritable(ctx.err, "error");
    return status;
  } catch (const WriteFailed& e) {
    sayLine(ctx.err, std::string("nvbandwidth: ") + e.what());
    return kExitFailure;
  } catch (const Interrupted& e) {
    // Before anything was printed (a report file was being read) or instead of printing it.
    return kExitInterruptedBase + e.signal();
  } catch (const std::exception& e) {
    // Last resort: never let an exception terminate the process.
    sayLine(ctx.err, std::string("ERROR: ") + e.what());
    return kExitFailure;
  }
}

}  // namespace

int runCommandLine(const std::vector<std::string>& args, AppContext& context) {
  const char* variable = std::getenv(kCompatVariable);
  const std::optional<std::string> compat =
      variable ? std::optional<std::string>(variable) : std::nullopt;
  Options options;
  if (refusedUsage(context, [&] {
        // Every process takes the same path: one that stopped here would leave the others waiting.
        if (context.comm && context.comm->size() > 1)
          if (std::optional<std::string> differs =
                  differentCommandLines(*context.comm, args, compat))
            throw UsageError(*differs);
        options = parseOptions(args, compat);
      }))
    return kExitUsage;
  return runApplication(options, context);
}

}  // namespace nvbw
