// Text output: upstream v0.8's console layout (or v0.10's header and COEFFICIENT_OF_VARIATION
// lines under --compat v0.10), with docs/compatibility.md #c3 (waive reasons) and #c8 (MIN/MAX/AVG
// over present cells only). From the first `Running` line on, stdout carries upstream's lines
// only and every line of ours goes to stderr (toPerson, stdout flushed first) as it belongs; the
// header's warnings stay on stdout: docs/compatibility.md#additions says which lines and why.

#include <ostream>

#include "core/error.h"
#include "core/format.h"
#include "core/say_line.h"
#include "report/listing.h"
#include "report/report_text.h"
#include "report/sweep.h"
#include "report/text_format.h"

namespace nvbw {
namespace {

constexpr const char* kConfidentialComputingNotice =
    "Detected platform using encrypted bounce buffers for CPU<->GPU traffic.";

// Upstream's multinode listing: "Process <rank> (<host>): device <d>: <name> (<bdf>)", ranks
// padded to the width of the largest; then how the processes share memory (ours).
std::string processBlock(const SystemFacts& info) {
  const int width = static_cast<int>(std::to_string(info.processes.size() - 1).size());
  std::string text;
  for (std::size_t rank = 0; rank < info.processes.size(); ++rank) {
    const ProcessInfo& p = info.processes[rank];
    text += "Process " + rightAligned(std::to_string(rank), width) + " (" + p.host + "): device " +
            std::to_string(p.device) + ": " + p.gpu.name + " (" + formatBdf(p.gpu) + ")\n";
  }
  return text + "Memory shared between processes through: " + info.memorySharingDescription + "\n";
}

// v0.8's header: the versions as integers, then the host and its devices. v0.10's: the versions
// as "13.2 (13020)", the driver API one under its v0.10 name, no host or device lines.
// Multi-process runs print the process lines instead (v0.10's are not known).
std::string systemBlock(const SystemFacts& info, CompatMode compat) {
  const bool v010 = compat == CompatMode::V0_10;
  const auto version = [v010](int v) { return v010 ? cudaVersionText(v) : std::to_string(v); };
  std::string text = "CUDA Runtime Version: " + version(info.cudaRuntimeVersion) +
                     (v010 ? "\nCUDA Driver Version (API): " : "\nCUDA Driver Version: ") +
                     version(info.cudaDriverVersion) + "\nDriver Version: " + info.driverVersion +
                     "\n\n";
  if (!info.processes.empty()) return text + processBlock(info) + "\n";
  if (v010) return text;
  text += info.hostname + "\n";
  for (std::size_t i = 0; i < info.devices.size(); ++i)
    text += "Device " + std::to_string(i) + ": " + info.devices[i].name + " (" +
            formatBdf(info.devices[i]) + ")\n";
  return text + "\n";
}

class TextView : public ReportView {
 public:
  TextView(std::ostream& out, std::ostream& err, const OutputSettings& settings)
      : out_(out), err_(err), settings_(settings) {}

  void header(const RunHeader& header) override {
    sweep_ = header.settings.sweepMiB.has_value();
    // Upstream v0.10's notice, verbatim, before anything else (no known client reads stdout
    // before the first Running line; Google's CI for a confidential VM asserts it).
    std::string text = header.system.confidentialComputing
                           ? std::string(kConfidentialComputingNotice) + "\n\n"
                           : std::string();
    text += versionBlock(header.system.version, header.system.gitVersion);
    if (!header.system.mpiVersion.empty())
      text += "MPI version: " + header.system.mpiVersion + "\n";
    for (const auto& w : header.warnings) text += w + "\n";
    if (header.gpusOpened) text += systemBlock(header.system, settings_.compat);
    out_ << text << std::flush;
    for (const std::string& note : header.notes) toPerson(note + "\n");
  }

  void testcaseStarted(const std::string& key) override {
    // A sweep runs a testcase once per size: scrapers still see one "Running" line for it.
    if (sweep_ && key == lastStarted_) return;
    lastStarted_ = key;
    out_ << "Running " << key << ".\n" << std::flush;
  }

  void testcaseFinished(const std::vector<const ReportEntry*>& entries) override {
    if (entries.empty()) return;
    const ReportEntry& first = *entries.front();
    for (const ReportEntry* e : entries)
      for (const std::string& line : abovePeakWarnings(*e)) toPerson(line + "\n");
    if (first.bufferSizeMiB) {
      // The sizes of a sweep print as one table (sweepFinished); errors print as they happen.
      if (first.status == Status::Error)
        toPerson(errorLines(first.error.value_or("") + " (buffer size " +
                                std::to_string(*first.bufferSizeMiB) + " MiB)",
                            first.errorDetail.value_or("")));
      return;
    }
    if (first.status == Status::Passed) printMatrices(entries);
    const std::string line = statusLine(first, settings_.compat);
    out_ << line;
    // v0.10's line has the reason; v0.8's, upstream's, has none: it goes to stderr.
    if (first.status == Status::Waived && settings_.compat != CompatMode::V0_10)
      toPerson("NOTE: " + first.name + " waived: " + first.waiveReason.value_or("") + "\n");
    if (first.status == Status::Error && line.empty())
      toPerson(errorLines(first.error.value_or(""), first.errorDetail.value_or("")));
    out_ << std::flush;
  }

  void sweepFinished(const SweepEntries& entries,
                     const std::vector<std::uint64_t>& sizesMiB) override {
    out_ << sweepText(entries, sizesMiB, settings_.verbose);
    toPerson(sweepNotes(entries, sizesMiB));
    out_ << std::flush;
  }

  void globalError(const std::string& message, const std::string& detail) override {
    toPerson(errorLines(message, detail));
    failed_ = true;
  }

  // Run warnings and the interruption line go to stderr. The trailer qualifies results: a run
  // that could not start has none, and an interrupted one ends with its line instead.
  void finish(const RunEnd& end) override {
    out_ << std::flush;
    for (const std::string& line : end.warnings) sayLine(err_, line);
    if (end.interruptedBy) {
      sayLine(err_, "Interrupted by " + std::string(signalName(*end.interruptedBy)) + ": " +
                        std::to_string(end.finished) + " of " + std::to_string(end.selected) +
                        " selected testcases reported above; the rest did not run.");
      return;
    }
    err_ << std::flush;
    if (failed_) return;
    out_ << kTrailer << std::flush;
  }

 private:
  // Each matrix as --from prints it from a saved run, each followed by its notes (stderr).
  void printMatrices(const std::vector<const ReportEntry*>& entries) {
    if (settings_.verbose) out_ << sampleLines(entries.front()->measurements);
    const std::string key = testcaseOf(*entries.front());
    for (const ReportEntry* e : entries) {
      if (!e->passedWithMatrix()) continue;
      out_ << entryText(*e, settings_, e == entries.back() ? &key : nullptr);
      toPerson(noisyCellsNote(*e) + outlierNotes(*e));
    }
  }

  // Lines of ours, in order with stdout's (see the top of this file).
  void toPerson(const std::string& text) {
    if (text.empty()) return;
    out_ << std::flush;
    err_ << text << std::flush;
  }

  // The error's line, and with -v the failing call as the source writes it, and where.
  std::string errorLines(const std::string& message, const std::string& detail) const {
    const bool detailed = settings_.verbose && !detail.empty();
    return "ERROR: " + message + "\n" + (detailed ? "Detail: " + detail + "\n" : "");
  }

  std::ostream& out_;
  std::ostream& err_;
  OutputSettings settings_;
  bool failed_ = false;
  bool sweep_ = false;
  std::string lastStarted_;
};

}  // namespace

std::unique_ptr<ReportView> makeTextView(std::ostream& out, std::ostream& err,
                                         const OutputSettings& settings) {
  return std::make_unique<TextView>(out, err, settings);
}

}  // namespace nvbw
