// Fixtures of the output tests (text, JSON, and the device-to-device pipeline): the machines
// (a fixed one with N H200s, upstream's reference VM), matrices from flat cell lists, passed
// testcases, the titles they use, and the 1-GPU run of the goldens. Messages and warnings come
// from the program's own functions, so the goldens cannot drift from what it prints.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/application.h"
#include "app/testcase_loop.h"
#include "engine/results.h"
#include "plans/pattern.h"
#include "plans/plan.h"
#include "platform/system_facts.h"
#include "report/output.h"
#include "report/report_builder.h"
#include "report/report_text.h"

namespace nvbw::test {

// A run reported as text alone, as the application prints it without -j: the Report built from
// the steps, the text view printing what each step appended, and the end of the text at finish().
class TextRun final : public ReportBuilder {
 public:
  TextRun(std::ostream& out, std::ostream& err, OutputSettings settings)
      : TextRun(makeTextView(out, err, settings), settings) {}
  void finish(const RunEnd& end) override {
    ReportBuilder::finish(end);
    view_->finish(end);
  }

 private:
  TextRun(std::unique_ptr<ReportView> view, OutputSettings settings)
      : ReportBuilder(settings, view.get()), view_(std::move(view)) {}
  std::unique_ptr<ReportView> view_;
};

inline std::unique_ptr<Output> textOutput(std::ostream& out, std::ostream& err,
                                          OutputSettings settings = {}) {
  return std::make_unique<TextRun>(out, err, settings);
}

// v0.8 on "gpu-node-01" with `gpus` H200s on PCI buses 0x19, 0x29, ...
inline SystemFacts systemWith(int gpus) {
  SystemFacts info;
  info.version = "v0.8";
  info.gitVersion = "v0.8-3-gabc1234";
  info.release = "1.2.3";  // pinned, as the git version is: not the build's release
  info.cudaRuntimeVersion = 12080;
  info.cudaDriverVersion = 13000;
  info.driverVersion = "580.159.04";
  info.hostname = "gpu-node-01";
  for (int i = 0; i < gpus; ++i)
    info.devices.push_back({"NVIDIA H200", 0, static_cast<unsigned>(0x19 + 0x10 * i), 0,
                            "GPU-00000000-0000-0000-0000-00000000000" + std::to_string(i)});
  return info;
}

// The machine of the upstream reference runs under tests/golden/upstream: one H200 in a VM.
inline SystemFacts referenceMachine() {
  SystemFacts info;
  info.version = "v0.8";
  info.gitVersion = "";
  info.release = "1.2.3";
  info.cudaRuntimeVersion = 13000;
  info.cudaDriverVersion = 13000;
  info.driverVersion = "580.159.04";
  info.hostname = "vm";
  info.devices.push_back({"NVIDIA H200", 0, 0, 6});
  return info;
}

inline RunHeader headerOf(SystemFacts system, std::vector<std::string> warnings = {}) {
  RunHeader h;
  h.system = std::move(system);
  h.settings = settingsRecord(Options{});
  h.warnings = std::move(warnings);
  return h;
}

// The header of a run whose GPUs could not be opened.
inline RunHeader failedStartHeader(SystemFacts system, std::vector<std::string> warnings = {}) {
  RunHeader h = headerOf(std::move(system), std::move(warnings));
  h.gpusOpened = false;
  return h;
}

// A cell with these samples (reporting their median).
inline CellResult cellOf(std::vector<double> samples) {
  return CellResult(std::move(samples), Statistic::Median);
}

// A rows x cols matrix whose cells are `values` in row-major order (nullopt: N/A), one sample each.
inline MatrixResult matrix(const std::string& key, const std::string& title, std::size_t rows,
                           std::size_t cols, const std::vector<std::optional<double>>& values,
                           Unit unit = Unit::GBps) {
  MatrixResult m({key, title, unit, rows, cols});
  for (std::size_t i = 0; i < values.size(); ++i)
    if (values[i]) m.cells[i] = cellOf({*values[i]});
  return m;
}

inline TestcaseResult passed(const std::string& key, std::vector<MatrixResult> matrices,
                             std::vector<MeasurementRecord> measurements = {}) {
  return {key, Status::Passed, "", std::move(matrices), std::move(measurements)};
}

inline TestcaseResult waivedResult(const std::string& key, const std::string& reason) {
  return {key, Status::Waived, reason, {}, {}};
}

inline TestcaseResult failedResult(const std::string& key, const std::string& message) {
  return {key, Status::Error, message, {}, {}};
}

inline TestcaseResult passed1x1(const std::string& key, const std::string& title, double value,
                                Unit unit = Unit::GBps) {
  return passed(key, {matrix(key, title, 1, 1, {value}, unit)});
}

// One measurement's -v record with a single series.
inline MeasurementRecord record(const std::string& label, std::vector<double> samples,
                                Unit unit = Unit::GBps) {
  return MeasurementRecord{{SampleSeries{label, unit, std::move(samples)}}};
}

inline const std::string kH2dTitle = "memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)";
inline const std::string kLatencyTitle = "memory latency SM CPU(row) <-> GPU(column) (ns)";
inline const std::string kD2dReadTitle = "memcpy CE GPU(row) -> GPU(column) bandwidth (GB/s)";
inline const std::string kD2dLatencyTitle =
    "Device to Device Latency SM GPU(row) <-> GPU(column) (ns)";
inline const std::string kNoPeers = "needs two GPUs with peer access; this system has 1 GPU";
inline constexpr std::nullopt_t NA = std::nullopt;

// What the program says when a 512 MiB device_local_copy finds 12 corrupted words.
inline std::string localCopyMismatch() {
  return testcaseFailure(
      "device_local_copy",
      mismatchMessage("the destination of Device 0 -> Device 0", 0, 12, (512u << 20) / 4, 1024));
}

// The 1-GPU run of the text and JSON goldens, up to but not including finish(): header, a passed
// bandwidth testcase (`h2d` GB/s), a waived one, an unresolved -t token, a passed latency
// testcase (`latency` ns) and a failure.
inline void oneGpuRun(Output& o, double h2d, double latency) {
  o.header(headerOf(systemWith(1)));
  o.testcaseStarted("host_to_device_memcpy_ce");
  o.testcaseFinished(passed1x1("host_to_device_memcpy_ce", kH2dTitle, h2d));
  o.testcaseFinished(waivedResult("device_to_device_memcpy_read_ce", kNoPeers));
  o.testcaseFinished(failedResult("foo", "Testcase foo not found!"));
  o.testcaseStarted("host_device_latency_sm");
  o.testcaseFinished(
      passed1x1("host_device_latency_sm", kLatencyTitle, latency, Unit::Nanoseconds));
  o.testcaseStarted("device_local_copy");
  o.testcaseFinished(failedResult("device_local_copy", localCopyMismatch()));
}

}  // namespace nvbw::test
