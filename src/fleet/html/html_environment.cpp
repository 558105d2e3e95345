// The machine the run measured: host CPU and NUMA nodes, and per GPU clocks, power, temperature,
// modes and the PCIe link, at the start of the run and at its end. What the tool could not learn
// (null in the report) reads "unknown"; nothing is guessed.
#include "fleet/html/html_markup.h"
#include "fleet/html/html_sections.h"

namespace nvbw::html {

namespace {

std::string withUnit(const std::optional<std::string>& value, const std::string& unit) {
  return value ? *value + unit : "unknown";
}

std::string pcieText(const std::optional<PcieRecord>& pcie) {
  if (!pcie) return "unknown";
  const std::string current = shown(pcie->current);
  const std::string most = shown(pcie->max);
  return current == most ? current : current + " (max " + most + ")";
}

std::vector<std::string> gpuCells(const GpuStateRecord& gpu) {
  return {shown(gpu.device),
          shown(gpu.smClockMHz) + " / " + shown(gpu.smClockMaxMHz),
          shown(gpu.memoryClockMHz) + " / " + shown(gpu.memoryClockMaxMHz),
          shown(gpu.clocksLocked),
          shown(gpu.powerDrawW) + " / " + shown(gpu.powerLimitW),
          withUnit(textIfAny(gpu.temperatureC), " \u00B0C"),
          shown(gpu.eccEnabled),
          shown(gpu.persistenceMode),
          shown(gpu.migEnabled),
          shown(gpu.computeMode),
          withUnit(textIfAny(gpu.throttleSeconds), " s"),
          pcieText(gpu.pcie),
          shown(gpu.numaNode),
          shown(gpu.hostBufferCpus)};
}

std::string gpuTable(const std::optional<std::vector<GpuStateRecord>>& gpus) {
  if (!gpus || gpus->empty()) return textElement("p", "", "No GPU facts.");
  std::string rows;
  for (const GpuStateRecord& gpu : *gpus) {
    std::string cells;
    for (const std::string& text : gpuCells(gpu))
      cells += textElement("td", text == "unknown" ? attr("class", "unknown") : "", text);
    rows += element("tr", "", cells);
  }
  return table(
      attr("class", "gpus"),
      headerRow({"GPU", "SM clock MHz (now / max)", "memory clock MHz (now / max)", "clocks locked",
                 "power W (draw / limit)", "temperature", "ECC", "persistence", "MIG",
                 "compute mode", "throttled", "PCIe link", "NUMA node", "host buffer CPUs"}),
      rows);
}

std::string hostLines(const EnvironmentRecord& snapshot) {
  std::string lines = textElement("p", attr("class", "host"),
                                  "Host CPU: " + shown(snapshot.host.cpuModel) +
                                      "; NUMA nodes: " + shown(snapshot.host.numaNodes));
  if (const auto problem = textIfAny(snapshot.nvmlProblem))
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
  std::string inner;
  if (report.environment)
    inner += snapshot(*report.environment, "At the start of the run", "environment-start");
  if (report.environmentAtEnd)
    inner += snapshot(*report.environmentAtEnd, "At the end of the run", "environment-end");
  return section(attr("class", "environment") + attr("id", "environment"), "Environment", inner);
}

}  // namespace nvbw::html
