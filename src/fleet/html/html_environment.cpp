// The machine the run measured: host CPU and NUMA nodes, and per GPU clocks, power, temperature,
// modes and the PCIe link, at the start of the run and at its end. What the tool could not learn
// (null in the report) reads "unknown"; nothing is guessed.
#include <optional>
#include <string>
#include <vector>

#include "fleet/html/html_markup.h"
#include "fleet/html/html_sections.h"
#include "model/report_keys.h"

namespace nvbw::html {

namespace {

// "a / b", each side "unknown" when null.
std::string pair(const std::string& now, const std::string& most) { return now + " / " + most; }

std::string withUnit(const std::optional<std::string>& value, const std::string& unit) {
  return value ? *value + unit : "unknown";
}

std::string pcieText(const std::optional<PcieRecord>& pcie) {
  if (!pcie) return "unknown";
  const std::string current = shown(pcie->current, pcie->extras, keys::kCurrent);
  const std::string most = shown(pcie->max, pcie->extras, keys::kMax);
  return current == most ? current : current + " (max " + most + ")";
}

const std::vector<std::string>& gpuColumns() {
  static const std::vector<std::string> columns = {"GPU",
                                                   "SM clock MHz (now / max)",
                                                   "memory clock MHz (now / max)",
                                                   "clocks locked",
                                                   "power W (draw / limit)",
                                                   "temperature",
                                                   "ECC",
                                                   "persistence",
                                                   "MIG",
                                                   "compute mode",
                                                   "throttled",
                                                   "PCIe link",
                                                   "NUMA node",
                                                   "host buffer CPUs"};
  return columns;
}

std::vector<std::string> gpuCells(const GpuStateRecord& gpu) {
  const Json& x = gpu.extras;
  return {shown(gpu.device, x, keys::kDevice),
          pair(shown(gpu.smClockMHz, x, keys::kSmClockMhz),
               shown(gpu.smClockMaxMHz, x, keys::kSmClockMaxMhz)),
          pair(shown(gpu.memoryClockMHz, x, keys::kMemoryClockMhz),
               shown(gpu.memoryClockMaxMHz, x, keys::kMemoryClockMaxMhz)),
          shown(gpu.clocksLocked, x, keys::kClocksLocked),
          pair(shown(gpu.powerDrawW, x, keys::kPowerDrawW),
               shown(gpu.powerLimitW, x, keys::kPowerLimitW)),
          withUnit(textIfAny(gpu.temperatureC, x, keys::kTemperatureC), " \u00B0C"),
          shown(gpu.eccEnabled, x, keys::kEccEnabled),
          shown(gpu.persistenceMode, x, keys::kPersistenceMode),
          shown(gpu.migEnabled, x, keys::kMigEnabled),
          shown(gpu.computeMode, x, keys::kComputeMode),
          withUnit(textIfAny(gpu.throttleSeconds, x, keys::kThrottleSeconds), " s"),
          pcieText(gpu.pcie),
          shown(gpu.numaNode, x, keys::kNumaNode),
          shown(gpu.hostBufferCpus, x, keys::kHostBufferCpus)};
}

std::string gpuTable(const std::optional<std::vector<GpuStateRecord>>& gpus) {
  if (!gpus || gpus->empty()) return textElement("p", "", "No GPU facts.");
  std::string head;
  for (const std::string& title : gpuColumns()) head += textElement("th", "", title);
  std::string rows;
  for (const GpuStateRecord& gpu : *gpus) {
    std::string cells;
    for (const std::string& text : gpuCells(gpu))
      cells += textElement("td", text == "unknown" ? attr("class", "unknown") : "", text);
    rows += element("tr", "", cells);
  }
  return element("table", attr("class", "gpus"),
                 element("thead", "", element("tr", "", head)) + element("tbody", "", rows));
}

std::string hostLines(const EnvironmentRecord& snapshot) {
  std::string lines = textElement(
      "p", attr("class", "host"),
      "Host CPU: " + shown(snapshot.cpuModel, snapshot.hostExtras, keys::kCpuModel) +
          "; NUMA nodes: " + shown(snapshot.numaNodes, snapshot.hostExtras, keys::kNumaNodes));
  if (const auto problem = textIfAny(snapshot.nvmlProblem, snapshot.extras, keys::kNvmlProblem))
    lines += textElement("p", attr("class", "nvml-problem"), "NVML: " + *problem);
  return lines;
}

std::string snapshot(const EnvironmentRecord& environment, const std::string& title,
                     const std::string& cls) {
  return element("div", attr("class", cls),
                 textElement("h3", "", title) + hostLines(environment) +
                     element("div", attr("class", "table-scroll"), gpuTable(environment.gpus)));
}

}  // namespace

std::string environmentSection(const Report& report) {
  if (!report.environment && !report.environmentAtEnd) return "";
  std::string inner = textElement("h2", "", "Environment");
  if (report.environment)
    inner += snapshot(*report.environment, "At the start of the run", "environment-start");
  if (report.environmentAtEnd)
    inner += snapshot(*report.environmentAtEnd, "At the end of the run", "environment-end");
  return element("section", attr("class", "environment") + attr("id", "environment"), inner);
}

}  // namespace nvbw::html
