// The HTML report: one self-contained XHTML-style page (every element closed, attributes quoted,
// so strict XML parsers read it) with the run's header, its environment, the comparison and sweep
// when the report has them, and one article per testcase entry with its heatmap.
#include "fleet/html/html_report.h"

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/format.h"
#include "fleet/html/html_markup.h"
#include "fleet/html/html_sections.h"

namespace nvbw {

namespace {

using namespace html;

std::optional<std::string> cudaVersionOrNone(const std::optional<std::uint64_t>& version) {
  return version && *version != 0 ? cudaVersionText(*version) : textIfAny(version);
}

// A value as a reader wants it: null is "unknown", booleans "yes"/"no", strings as they are,
// numbers as JSON writes them; arrays are joined with ", ".
std::string scalarText(const Json& value) {
  if (value.is_null()) return "unknown";
  if (value.is_boolean()) return shown(value.get<bool>());
  if (value.is_string()) return value.get_ref<const std::string&>();
  if (value.is_array()) {
    std::string joined;
    for (const Json& item : value) joined += (joined.empty() ? "" : ", ") + scalarText(item);
    return joined;
  }
  return compactJson(value);
}

// A byte count as "2.00 GiB".
std::string byteText(double bytes) {
  static const std::array<const char*, 5> units = {"B", "KiB", "MiB", "GiB", "TiB"};
  std::size_t unit = 0;
  while (bytes >= 1024.0 && unit + 1 < units.size()) bytes /= 1024.0, ++unit;
  return fixed(bytes, unit == 0 ? 0 : 2) + " " + units[unit];
}

std::string factRow(const std::string& name, const std::string& value) {
  return element("tr", "", textElement("th", "", name) + textElement("td", "", value));
}

// The keys a report of `--compare` alone lacks are left out rather than shown as unknown.
std::string versionTable(const Report& r) {
  std::string rows =
      factRow("Version", shown(r.version)) + factRow("Git version", shown(r.gitVersion));
  // The release of the build that wrote the report (none in upstream's or older builds').
  const std::pair<const char*, std::optional<std::string>> facts[] = {
      {"Release", textIfAny(r.release)},
      {"schema_version", textIfAny(r.schemaVersion)},
      {"CUDA Runtime Version", cudaVersionOrNone(r.cudaRuntimeVersion)},
      {"CUDA Driver Version", cudaVersionOrNone(r.cudaDriverVersion)},
      {"Driver Version", textIfAny(r.driverVersion)},
      {"MPI version", textIfAny(r.mpiVersion)},
      {"memory_sharing", textIfAny(r.memorySharing)}};
  for (const auto& [name, fact] : facts)
    if (fact) rows += factRow(name, *fact);
  return element("table", attr("class", "facts versions"), rows);
}

// Settings, timing and memory: flat records of scalars shown key by key.
std::string objectTable(const Json& members, const std::string& cls, const std::string& unitHint) {
  std::string rows;
  for (const auto& [key, value] : members.items()) {
    std::string text = scalarText(value);
    if (unitHint == "seconds" && value.is_number()) text = fixed(value.get<double>(), 3) + " s";
    if (unitHint == "bytes" && value.is_number())
      text = byteText(value.get<double>()) + " (" + text + " bytes)";
    rows += factRow(key, text);
  }
  return element("table", attr("class", "facts " + cls), rows);
}

// A column of the page's header or costs: `record`'s table under its title.
template <typename Record>
std::string recordColumn(const char* title, const Record& record, const std::string& cls,
                         const std::string& unitHint) {
  return element("div", "",
                 textElement("h3", "", title) + objectTable(membersOf(record), cls, unitHint));
}

std::string processTable(const std::vector<ProcessRecord>& processes) {
  std::string rows = headerRow({"rank", "host", "device", "GPU", "PCI", "UUID"});
  for (const ProcessRecord& p : processes) {
    std::string cells;
    for (const std::string& text : {shown(p.rank), shown(p.host), shown(p.device), shown(p.name),
                                    shown(p.pci), shown(p.uuid)})
      cells += textElement("td", "", text);
    rows += element("tr", "", cells);
  }
  return element("table", attr("class", "processes"), rows);
}

std::string problemLines(const Report& r) {
  std::string lines;
  const auto problem = [&lines](const std::string& text) {
    lines += textElement("p", attr("class", "run-error"), text);
  };
  if (r.logicalGpus)
    problem("Logical GPUs: the " + std::to_string(*r.logicalGpus) +
            " GPUs of this report are one physical GPU presented as several (NVBW_LOGICAL_GPUS, a "
            "testing aid); its device-to-device figures are copies within that GPU, not a "
            "multi-GPU machine's.");
  if (r.error) problem("Run error: " + *r.error);
  if (r.interrupted)
    problem("Interrupted by " + *r.interrupted +
            "; the testcases after the one it cut short did not run.");
  return lines;
}

std::string warningBlock(const Report& r) {
  std::vector<std::string> warnings = r.warnings.value_or(std::vector<std::string>{});
  if (!r.warnings && r.warning) warnings.push_back(*r.warning);  // upstream's one "warning"
  if (warnings.empty()) return "";
  return element("div", attr("class", "warnings"),
                 textElement("h3", "", "Warnings") +
                     itemList(warnings, attr("class", "warning-list")));
}

std::string headerSection(const Report& r) {
  std::string inner = textElement("h1", "", "nvbandwidth report") + problemLines(r);
  std::string columns = element("div", "", textElement("h3", "", "Versions") + versionTable(r));
  if (r.settings) columns += recordColumn("Settings", *r.settings, "settings", "");
  inner += element("div", attr("class", "columns"), columns);
  if (const auto devices = r.gpuDeviceList)
    inner +=
        textElement("h3", "", "GPU Device list") + itemList(*devices, attr("class", "gpu-list"));
  if (r.processes) inner += textElement("h3", "", "Processes") + processTable(*r.processes);
  return element("header", attr("class", "run"), inner + warningBlock(r));
}

std::string costSection(const Report& r) {
  if (!r.timing && !r.memory) return "";
  std::string columns;
  if (r.timing) columns += recordColumn("Time", *r.timing, "timing", "seconds");
  if (r.memory) columns += recordColumn("Memory", *r.memory, "memory", "bytes");
  return section(attr("class", "costs"), "Where the time and memory went",
                 element("div", attr("class", "columns"), columns));
}

std::string entryHeading(const ReportEntry& entry) {
  const std::string status = statusName(entry.status);
  std::string inner = textElement("span", attr("class", "entry-name"), entry.name);
  if (entry.bufferSizeMiB)
    inner += textElement("span", attr("class", "buffer-size"),
                         "buffer " + std::to_string(*entry.bufferSizeMiB) + " MiB");
  inner += textElement("span", attr("class", "status status-" + status), status);
  return element("h3", "", inner);
}

// What the entry says besides its matrix: its title, its testcase, why it did not pass.
std::string entryNotes(const ReportEntry& entry) {
  std::string notes;
  const auto note = [&notes](const char* cls, const std::string& text) {
    notes += textElement("p", attr("class", cls), text);
  };
  if (entry.description) note("description", *entry.description);
  if (entry.testcase) note("part-of", "A matrix of testcase " + *entry.testcase);
  if (entry.waiveReason) note("waive-reason", "Waived: " + *entry.waiveReason);
  if (entry.error) note("entry-error", "ERROR: " + *entry.error);
  if (entry.status == Status::Running)
    note("entry-error", "Still running when the run-level error stopped the run.");
  return notes;
}

std::string entryArticle(const ReportEntry& entry, const CellMarks& marks, std::size_t index,
                         const StopRequest& stop) {
  std::string inner = entryHeading(entry) + entryNotes(entry);
  if (entry.passedWithMatrix())
    inner += matrixFigure(entry, marks, index, stop);
  else if (entry.status == Status::Passed)
    inner += textElement("p", "", "Passed without a matrix.");
  return element("article",
                 attr("class", "entry") + attr("id", "entry-" + std::to_string(index)) +
                     attr("data-name", entry.name) + attr("data-status", statusName(entry.status)),
                 inner);
}

std::string testcaseSection(const Report& r, const StopRequest& stop) {
  const CellMarks marks = cellMarks(r, stop);
  std::string articles;
  std::size_t index = 0;
  for (const ReportEntry& entry : *r.testcases) {
    throwIfStopped(stop);
    articles += entryArticle(entry, marks, index++, stop);
  }
  if (index == 0) articles = textElement("p", "", "No testcase ran.");
  return section(attr("class", "testcases") + attr("id", "testcases"),
                 "Testcases (" + std::to_string(index) + " entries)",
                 element("div", attr("class", "entries"), articles));
}

std::string pageBody(const Report& r, const StopRequest& stop) {
  std::string body = headerSection(r) + environmentSection(r);
  if (r.comparison) body += comparisonSection(*r.comparison, stop);
  body += expectationsSection(r);
  if (r.sweep) body += sweepSection(*r.sweep);
  if (r.testcases) body += testcaseSection(r, stop);
  return body + costSection(r);
}

// src/fleet/html/report.css.
constexpr const char* kStyleSheet =
#include "fleet/html/report.css.inc"
    ;

}  // namespace

std::string renderHtmlReport(const Report& report, const StopRequest& stop) {
  if (!report.testcases && !report.comparison)  // of a run, or of `--compare` alone
    throw std::runtime_error("not an nvbandwidth report: no \"testcases\" array");
  const std::string title =
      "nvbandwidth " + shown(report.version) + " report (" + shown(report.gitVersion) + ")";
  return page(title, kStyleSheet, pageBody(report, stop));
}

}  // namespace nvbw
