// JSON output: upstream v0.8's document (json_style.h layout) with decisions #1 (CUDA Driver
// Version), #3 (waive_reason), #4 (error text in ERROR entries) and #9 (one entry per matrix).
#include <locale>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "nvbandwidth/json_style.h"
#include "nvbandwidth/output.h"
#include "nvbandwidth/version.h"

namespace nvbw {

namespace {

using nlohmann::json;

// Cells are strings in iostream's default format (6 significant digits), as upstream wrote them.
std::string defaultFormatted(double value) {
  std::ostringstream s;
  s.imbue(std::locale::classic());  // a global locale must not add digit grouping
  s << value;
  return s.str();
}

json matrixCells(const MatrixResult& m) {
  json rows = json::array();
  for (std::size_t row = 0; row < m.spec.rows; ++row) {
    json cells = json::array();
    for (std::size_t col = 0; col < m.spec.cols; ++col) {
      const auto& cell = m.at(row, col);
      cells.push_back(cell ? defaultFormatted(cell->value) : "N/A");
    }
    rows.push_back(std::move(cells));
  }
  return rows;
}

json matrixEntry(const MatrixResult& m, bool verbose) {
  json entry = {{"name", m.spec.key},
                {"status", statusName(Status::Passed)},
                {"bandwidth_description", m.spec.title},
                {"bandwidth_matrix", matrixCells(m)},
                {"sum", m.sum()},
                {"unit", m.spec.unit == Unit::Nanoseconds ? "ns" : "GB/s"}};
  if (verbose) {
    // Over present cells only (decisions #8); absent when there is none rather than a fake value.
    if (const auto lo = m.min()) entry["min"] = *lo;
    if (const auto hi = m.max()) entry["max"] = *hi;
    if (const auto avg = m.average()) entry["average"] = *avg;
  }
  return entry;
}

bool startupFailed(const SystemInfo& info) {
  return info.devices.empty() && info.cudaDriverVersion == 0 && info.driverVersion.empty();
}

class JsonOutput : public Output {
 public:
  JsonOutput(std::ostream& out, OutputSettings settings) : out_(out), settings_(settings) {}

  void header(const SystemInfo& info, const std::vector<std::string>& warnings) override {
    root_["version"] = info.version;
    root_["git_version"] = info.gitVersion;
    if (!warnings.empty()) {
      root_["warning"] = warnings.back();  // upstream's key: each warning replaced the last
      root_["warnings"] = warnings;
    }
    if (startupFailed(info)) return;
    root_["CUDA Runtime Version"] = info.cudaRuntimeVersion;
    root_["CUDA Driver Version"] = info.cudaDriverVersion;
    root_["Driver Version"] = info.driverVersion;
    json devices = json::array();
    for (std::size_t i = 0; i < info.devices.size(); ++i)
      devices.push_back(std::to_string(i) + ": " + info.devices[i].name + " (" +
                        formatBdf(info.devices[i]) + "): (" + info.hostname + ")");
    root_["GPU Device list"] = std::move(devices);
  }

  void testcaseStarted(const std::string& key) override { running_ = key; }

  void sample(const SampleEvent&) override {}  // samples are a console aid only

  void testcaseFinished(const TestcaseResult& result) override {
    running_.clear();
    switch (result.status) {
    case Status::Passed:
      addPassed(result);
      break;
    case Status::Waived:
      addEntry({{"name", result.name},
                {"status", statusName(Status::Waived)},
                {"waive_reason", result.message}});
      break;
    case Status::Error:
      addEntry({{"name", result.name},
                {"status", statusName(Status::Error)},
                {"error", result.message}});
      break;
    }
  }

  void globalError(const std::string& message) override {
    root_["error"] = message;
    hasError_ = true;
  }

  void finish() override {
    if (!root_.contains("version")) root_["version"] = kVersion;
    if (!root_.contains("git_version")) root_["git_version"] = kGitVersion;
    // A testcase cut short by a run-level error stays "Running", as upstream left it.
    if (!running_.empty()) addEntry({{"name", running_}, {"status", "Running"}});
    if (!root_.contains("testcases") && !hasError_) root_["testcases"] = json::array();
    out_ << styledJson(json{{"nvbandwidth", root_}}) << "\n" << std::flush;
  }

 private:
  void addEntry(json entry) {
    if (!root_.contains("testcases")) root_["testcases"] = json::array();
    root_["testcases"].push_back(std::move(entry));
  }

  void addPassed(const TestcaseResult& result) {
    if (result.matrices.empty()) {
      addEntry({{"name", result.name}, {"status", statusName(Status::Passed)}});
      return;
    }
    for (const auto& m : result.matrices) {
      json entry = matrixEntry(m, settings_.verbose);
      // Entries of multi-matrix testcases are named like their SUM lines (decisions #9); this
      // lets a script still find them by the key it passed to -t.
      if (m.spec.key != result.name) entry["testcase"] = result.name;
      addEntry(std::move(entry));
    }
  }

  std::ostream& out_;
  OutputSettings settings_;
  json root_ = json::object();
  std::string running_;
  bool hasError_ = false;
};

}  // namespace

std::unique_ptr<Output> makeJsonOutput(std::ostream& out, OutputSettings settings) {
  return std::make_unique<JsonOutput>(out, settings);
}

std::string listingJson(const std::vector<TestcaseDef>& registry, const std::string& version,
                        const std::string& gitVersion) {
  json testcases = json::array();
  for (std::size_t i = 0; i < registry.size(); ++i)
    testcases.push_back(
        {{"index", i}, {"name", registry[i].key}, {"description", registry[i].description}});
  const json doc = {
      {"nvbandwidth",
       {{"version", version}, {"git_version", gitVersion}, {"testcases", testcases}}}};
  return styledJson(doc) + "\n";
}

}  // namespace nvbw
