// Text output: upstream v0.8's console layout, with decisions #3 (waive reasons) and #8
// (MIN/MAX/AVG over present cells only).
#include <iomanip>
#include <locale>
#include <ostream>
#include <sstream>

#include "nvbandwidth/output.h"

namespace nvbw {

std::string versionBlock(const std::string& version, const std::string& gitVersion) {
  return "nvbandwidth Version: " + version + "\nBuilt from Git version: " + gitVersion + "\n\n";
}

namespace {

// Upstream switches std::cout to fixed/2 for good; every number it prints after the first matrix
// has two decimals. We format into local strings instead so no caller's stream state changes.
std::string fixed2(double value) {
  std::ostringstream s;
  s.imbue(std::locale::classic());  // a global locale must not add digit grouping
  s << std::fixed << std::setprecision(2) << value;
  return s.str();
}

std::string rightAligned(const std::string& text, int width) {
  std::ostringstream s;
  s << std::setw(width) << text;
  return s.str();
}

constexpr int kLabelWidth = 2;  // upstream: max(2, longest row label); our rows are unlabeled
constexpr int kCellWidth = 10;

std::string formatMatrix(const MatrixResult& m) {
  std::string text(kLabelWidth, ' ');
  for (std::size_t col = 0; col < m.spec.cols; ++col)
    text += rightAligned(std::to_string(col), kCellWidth);
  text += '\n';
  for (std::size_t row = 0; row < m.spec.rows; ++row) {
    text += rightAligned(std::to_string(row), kLabelWidth);
    for (std::size_t col = 0; col < m.spec.cols; ++col) {
      const auto& cell = m.at(row, col);
      text += rightAligned(cell ? fixed2(cell->value) : "N/A", kCellWidth);
    }
    text += '\n';
  }
  return text;
}

const char* unitSuffix(Unit unit) { return unit == Unit::Nanoseconds ? "ns" : "GB/s"; }

std::string sumLine(const MatrixResult& m, bool perfFormatter) {
  const std::string sum = fixed2(m.sum());
  if (!perfFormatter) return "SUM " + m.spec.key + " " + sum + "\n";
  // Perf dashboards read the sign as "higher is better" (+) or "lower is better" (-).
  const char* sign = m.spec.unit == Unit::Nanoseconds ? "-" : "+";
  return "&&&& PERF " + m.spec.key + " " + sum + " " + sign + unitSuffix(m.spec.unit) + "\n";
}

std::string verboseSummary(const MatrixResult& m) {
  const auto lo = m.min();
  const auto hi = m.max();
  const auto avg = m.average();
  if (!lo || !hi || !avg) return "";  // no present cell: nothing meaningful to print
  return "MIN " + m.spec.key + " " + fixed2(*lo) + "\nMAX " + m.spec.key + " " + fixed2(*hi) +
         "\nAVG " + m.spec.key + " " + fixed2(*avg) + "\n";
}

// Start-up failed before any driver fact was known: only the version block and warnings are
// meaningful.
bool startupFailed(const SystemInfo& info) {
  return info.devices.empty() && info.cudaDriverVersion == 0 && info.driverVersion.empty();
}

class TextOutput : public Output {
 public:
  TextOutput(std::ostream& out, std::ostream& err, OutputSettings settings)
      : out_(out), err_(err), settings_(settings) {}

  void header(const SystemInfo& info, const std::vector<std::string>& warnings) override {
    std::string text = versionBlock(info.version, info.gitVersion);
    for (const auto& w : warnings) text += w + "\n";
    if (!startupFailed(info)) text += systemBlock(info);
    out_ << text << std::flush;
  }

  void testcaseStarted(const std::string& key) override {
    out_ << "Running " << key << ".\n" << std::flush;
  }

  void sample(const SampleEvent& e) override {
    if (!settings_.verbose) return;
    out_ << "\tSample " << e.sampleIndex << ": " << e.label << ": " << fixed2(e.value) << " "
         << unitSuffix(e.unit) << "\n"
         << std::flush;  // samples are progress: show them as they arrive
  }

  void testcaseFinished(const TestcaseResult& result) override {
    switch (result.status) {
    case Status::Passed:
      for (const auto& m : result.matrices) out_ << formatResult(m);
      break;
    case Status::Waived:
      out_ << "Waived: " << result.name << ": " << result.message << "\n";
      break;
    case Status::Error:
      out_ << "ERROR: " << result.message << "\n";
      break;
    }
    out_ << std::flush;
  }

  void globalError(const std::string& message) override {
    err_ << "ERROR: " << message << "\n" << std::flush;
    failed_ = true;
  }

  // The trailer qualifies results; a run that could not start has none to qualify.
  void finish() override {
    if (failed_) return;
    out_ << "NOTE: The reported results may not reflect the full capabilities of the platform.\n"
            "Performance can vary with software drivers, hardware clocks, and system topology.\n\n"
         << std::flush;
  }

 private:
  bool failed_ = false;
  static std::string systemBlock(const SystemInfo& info) {
    std::string text = "CUDA Runtime Version: " + std::to_string(info.cudaRuntimeVersion) +
                       "\nCUDA Driver Version: " + std::to_string(info.cudaDriverVersion) +
                       "\nDriver Version: " + info.driverVersion + "\n\n" + info.hostname + "\n";
    for (std::size_t i = 0; i < info.devices.size(); ++i)
      text += "Device " + std::to_string(i) + ": " + info.devices[i].name + " (" +
              formatBdf(info.devices[i]) + ")\n";
    return text + "\n";
  }

  std::string formatResult(const MatrixResult& m) const {
    std::string text =
        m.spec.title + "\n" + formatMatrix(m) + "\n" + sumLine(m, settings_.perfFormatter);
    if (settings_.verbose) text += verboseSummary(m);
    return text + "\n";
  }

  std::ostream& out_;
  std::ostream& err_;
  OutputSettings settings_;
};

}  // namespace

std::unique_ptr<Output> makeTextOutput(std::ostream& out, std::ostream& err,
                                       OutputSettings settings) {
  return std::make_unique<TextOutput>(out, err, settings);
}

std::string listingText(const std::vector<TestcaseDef>& registry) {
  std::string text = "Index, Name:\n\tDescription\n=======================\n";
  for (std::size_t i = 0; i < registry.size(); ++i) {
    text += std::to_string(i) + ", " + registry[i].key + ":\n";
    std::istringstream lines(registry[i].description);
    for (std::string line; std::getline(lines, line);) text += "\t" + line + "\n";
    text += "\n";
  }
  return text;
}

}  // namespace nvbw
