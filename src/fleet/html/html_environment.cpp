// The machine the run measured: host CPU and NUMA nodes, and per GPU clocks, power, temperature,
// modes and the PCIe link, at the start of the run and at its end. What the tool could not learn
// (null in the JSON) reads "unknown"; nothing is guessed.
#include <string>
#include <vector>

#include "fleet/html/html_markup.h"
#include "fleet/html/html_sections.h"
#include "model/report_keys.h"

namespace nvbw::html {

namespace {

using nlohmann::json;

// "a / b unit", each side "unknown" when null.
std::string pair(const json& now, const json& most, const std::string& unit) {
  return scalarText(now) + " / " + scalarText(most) + unit;
}

std::string withUnit(const json& value, const std::string& unit) {
  return value.is_null() ? "unknown" : scalarText(value) + unit;
}

std::string pcieText(const json& pcie) {
  if (!pcie.is_object()) return "unknown";
  const std::string current = scalarText(member(pcie, keys::kCurrent));
  const std::string most = scalarText(member(pcie, keys::kMax));
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

std::vector<std::string> gpuCells(const json& gpu) {
  return {scalarText(member(gpu, "device")),
          pair(member(gpu, "sm_clock_mhz"), member(gpu, "sm_clock_max_mhz"), ""),
          pair(member(gpu, "memory_clock_mhz"), member(gpu, "memory_clock_max_mhz"), ""),
          scalarText(member(gpu, "clocks_locked")),
          pair(member(gpu, "power_draw_w"), member(gpu, "power_limit_w"), ""),
          withUnit(member(gpu, "temperature_c"), " \u00B0C"),
          scalarText(member(gpu, "ecc_enabled")),
          scalarText(member(gpu, "persistence_mode")),
          scalarText(member(gpu, "mig_enabled")),
          scalarText(member(gpu, "compute_mode")),
          withUnit(member(gpu, "throttle_seconds"), " s"),
          pcieText(member(gpu, "pcie")),
          scalarText(member(gpu, "numa_node")),
          scalarText(member(gpu, "host_buffer_cpus"))};
}

std::string gpuTable(const json& gpus) {
  if (!gpus.is_array() || gpus.empty()) return textElement("p", "", "No GPU facts.");
  std::string head;
  for (const std::string& title : gpuColumns()) head += textElement("th", "", title);
  std::string rows;
  for (const json& gpu : gpus) {
    std::string cells;
    for (const std::string& text : gpuCells(gpu))
      cells += textElement("td", text == "unknown" ? attr("class", "unknown") : "", text);
    rows += element("tr", "", cells);
  }
  return element("table", attr("class", "gpus"),
                 element("thead", "", element("tr", "", head)) + element("tbody", "", rows));
}

std::string hostLines(const json& snapshot) {
  const json& host = member(snapshot, "host");
  std::string lines = textElement("p", attr("class", "host"),
                                  "Host CPU: " + scalarText(member(host, "cpu_model")) +
                                      "; NUMA nodes: " + scalarText(member(host, "numa_nodes")));
  const json& problem = member(snapshot, "nvml_problem");
  if (!problem.is_null())
    lines += textElement("p", attr("class", "nvml-problem"), "NVML: " + scalarText(problem));
  return lines;
}

std::string snapshot(const json& environment, const std::string& title, const std::string& cls) {
  return element(
      "div", attr("class", cls),
      textElement("h3", "", title) + hostLines(environment) +
          element("div", attr("class", "table-scroll"), gpuTable(member(environment, "gpus"))));
}

}  // namespace

std::string environmentSection(const json& run) {
  const json& start = member(run, keys::kEnvironment);
  const json& end = member(run, keys::kEnvironmentAtEnd);
  if (!start.is_object() && !end.is_object()) return "";
  std::string inner = textElement("h2", "", "Environment");
  if (start.is_object()) inner += snapshot(start, "At the start of the run", "environment-start");
  if (end.is_object()) inner += snapshot(end, "At the end of the run", "environment-end");
  return element("section", attr("class", "environment") + attr("id", "environment"), inner);
}

}  // namespace nvbw::html
