// The HTML report: one self-contained XHTML-style page (every element closed, attributes quoted,
// so strict XML parsers read it) with the run's header, its environment, the comparison and sweep
// when the document has them, and one article per testcase entry with its heatmap.
#include "fleet/html/html_report.h"

#include <stdexcept>
#include <string>

#include "fleet/html/html_markup.h"
#include "fleet/html/html_sections.h"
#include "model/report_keys.h"

namespace nvbw {

namespace {

using nlohmann::json;
using namespace html;

// The run object, once it is known to be a report (of a run, or of `--compare` alone) rather
// than a listing or anything else.
const json& runOf(const json& document) {
  const json& run = member(document, keys::kRoot);
  if (!run.is_object())
    throw std::runtime_error("not an nvbandwidth report: no \"nvbandwidth\" object");
  const json& testcases = member(run, keys::kTestcases);
  if (!testcases.is_array() && !member(run, keys::kComparison).is_object())
    throw std::runtime_error("not an nvbandwidth report: no \"testcases\" array");
  if (testcases.is_array())
    for (const json& entry : testcases)
      if (!member(entry, keys::kName).is_string() || !member(entry, keys::kStatus).is_string())
        throw std::runtime_error(
            "not an nvbandwidth report: a testcase entry without name and status (a listing?)");
  return run;
}

// 13000 -> "13.0 (13000)": the integer is 1000 * major + 10 * minor.
std::string cudaVersionText(const json& version) {
  if (!version.is_number_integer() || version.get<long>() <= 0) return scalarText(version);
  const long v = version.get<long>();
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10) + " (" + std::to_string(v) +
         ")";
}

std::string factRow(const std::string& name, const std::string& value) {
  return element("tr", "", textElement("th", "", name) + textElement("td", "", value));
}

// The keys a report of `--compare` alone lacks are left out rather than shown as unknown.
std::string versionTable(const json& run) {
  std::string rows = factRow("Version", scalarText(member(run, keys::kVersion))) +
                     factRow("Git version", scalarText(member(run, keys::kGitVersion)));
  // The release of the build that wrote the report (none in upstream's or older builds').
  if (run.contains(keys::kRelease)) rows += factRow("Release", scalarText(run.at(keys::kRelease)));
  for (const char* key : {keys::kSchemaVersion, keys::kCudaRuntimeVersion, keys::kCudaDriverVersion,
                          keys::kDriverVersion, keys::kMpiVersion, keys::kMemorySharing}) {
    if (!run.contains(key)) continue;
    const bool cuda = std::string(key).rfind("CUDA", 0) == 0;
    rows += factRow(key, cuda ? cudaVersionText(run.at(key)) : scalarText(run.at(key)));
  }
  return element("table", attr("class", "facts versions"), rows);
}

// Settings, timing and memory: flat objects of scalars shown key by key.
std::string objectTable(const json& object, const std::string& cls, const std::string& unitHint) {
  std::string rows;
  for (const auto& [key, value] : object.items()) {
    std::string text = scalarText(value);
    if (unitHint == "seconds" && value.is_number()) text = fixed(value.get<double>(), 3) + " s";
    if (unitHint == "bytes" && value.is_number())
      text = byteText(value.get<double>()) + " (" + text + " bytes)";
    rows += factRow(key, text);
  }
  return element("table", attr("class", "facts " + cls), rows);
}

std::string stringList(const json& items, const std::string& cls) {
  std::string list;
  for (const json& item : items) list += textElement("li", "", scalarText(item));
  return element("ul", attr("class", cls), list);
}

std::string processTable(const json& processes) {
  std::string rows = element("tr", "",
                             textElement("th", "", "rank") + textElement("th", "", "host") +
                                 textElement("th", "", "device") + textElement("th", "", "GPU") +
                                 textElement("th", "", "PCI") + textElement("th", "", "UUID"));
  for (const json& p : processes) {
    std::string cells;
    for (const char* key : {"rank", "host", "device", "name", "pci", "uuid"})
      cells += textElement("td", "", scalarText(member(p, key)));
    rows += element("tr", "", cells);
  }
  return element("table", attr("class", "processes"), rows);
}

std::string problemLines(const json& run) {
  std::string lines;
  if (run.contains(keys::kError))
    lines += textElement("p", attr("class", "run-error"),
                         "Run error: " + scalarText(run.at(keys::kError)));
  if (run.contains(keys::kInterrupted))
    lines += textElement("p", attr("class", "run-error"),
                         "Interrupted by " + scalarText(run.at(keys::kInterrupted)) +
                             "; the testcases after the one it cut short did not run.");
  return lines;
}

std::string warningBlock(const json& run) {
  json warnings = member(run, keys::kWarnings);
  if (!warnings.is_array() && run.contains(keys::kWarning))
    warnings = json::array({run.at(keys::kWarning)});
  if (!warnings.is_array() || warnings.empty()) return "";
  return element("div", attr("class", "warnings"),
                 textElement("h3", "", "Warnings") + stringList(warnings, "warning-list"));
}

std::string headerSection(const json& run) {
  std::string inner = textElement("h1", "", "nvbandwidth report") + problemLines(run);
  std::string columns = element("div", "", textElement("h3", "", "Versions") + versionTable(run));
  if (member(run, keys::kSettings).is_object())
    columns += element("div", "",
                       textElement("h3", "", "Settings") +
                           objectTable(run.at(keys::kSettings), "settings", ""));
  inner += element("div", attr("class", "columns"), columns);
  const json& devices = member(run, keys::kGpuDeviceList);
  if (devices.is_array())
    inner += textElement("h3", "", "GPU Device list") + stringList(devices, "gpu-list");
  if (member(run, keys::kProcesses).is_array())
    inner += textElement("h3", "", "Processes") + processTable(run.at(keys::kProcesses));
  return element("header", attr("class", "run"), inner + warningBlock(run));
}

std::string costSection(const json& run) {
  const json& timing = member(run, keys::kTiming);
  const json& memory = member(run, keys::kMemory);
  if (!timing.is_object() && !memory.is_object()) return "";
  std::string inner = textElement("h2", "", "Where the time and memory went");
  std::string columns;
  if (timing.is_object())
    columns += element("div", "",
                       textElement("h3", "", "Time") + objectTable(timing, "timing", "seconds"));
  if (memory.is_object())
    columns += element("div", "",
                       textElement("h3", "", "Memory") + objectTable(memory, "memory", "bytes"));
  return element("section", attr("class", "costs"),
                 inner + element("div", attr("class", "columns"), columns));
}

std::string entryHeading(const json& entry) {
  const std::string status = scalarText(member(entry, keys::kStatus));
  std::string inner =
      textElement("span", attr("class", "entry-name"), scalarText(member(entry, keys::kName)));
  if (member(entry, keys::kBufferSizeMiB).is_number())
    inner += textElement("span", attr("class", "buffer-size"),
                         "buffer " + scalarText(entry.at(keys::kBufferSizeMiB)) + " MiB");
  inner += textElement("span", attr("class", "status status-" + status), status);
  return element("h3", "", inner);
}

// What the entry says besides its matrix: its title, its testcase, why it did not pass.
std::string entryNotes(const json& entry) {
  std::string notes;
  if (entry.contains(keys::kBandwidthDescription))
    notes += textElement("p", attr("class", "description"),
                         scalarText(entry.at(keys::kBandwidthDescription)));
  if (entry.contains(keys::kTestcase))
    notes += textElement("p", attr("class", "part-of"),
                         "A matrix of testcase " + scalarText(entry.at(keys::kTestcase)));
  if (entry.contains(keys::kWaiveReason))
    notes += textElement("p", attr("class", "waive-reason"),
                         "Waived: " + scalarText(entry.at(keys::kWaiveReason)));
  if (entry.contains(keys::kError))
    notes += textElement("p", attr("class", "entry-error"),
                         "ERROR: " + scalarText(entry.at(keys::kError)));
  if (scalarText(member(entry, keys::kStatus)) == "Running")
    notes += textElement("p", attr("class", "entry-error"),
                         "Still running when the run-level error stopped the run.");
  return notes;
}

std::string entryArticle(const json& entry, const CellMarks& marks, std::size_t index,
                         const StopRequest& stop) {
  std::string inner = entryHeading(entry) + entryNotes(entry);
  const bool hasMatrix = entry.contains(keys::kValues) || entry.contains(keys::kBandwidthMatrix);
  if (entry.at(keys::kStatus) == "Passed" && hasMatrix)
    inner += matrixFigure(entry, marks, index, stop);
  else if (entry.at(keys::kStatus) == "Passed")
    inner += textElement("p", "", "Passed without a matrix.");
  return element("article",
                 attr("class", "entry") + attr("id", "entry-" + std::to_string(index)) +
                     attr("data-name", scalarText(entry.at(keys::kName))) +
                     attr("data-status", scalarText(entry.at(keys::kStatus))),
                 inner);
}

std::string testcaseSection(const json& run, const StopRequest& stop) {
  const CellMarks marks = cellMarks(run, stop);
  std::string articles;
  std::size_t index = 0;
  for (const json& entry : run.at(keys::kTestcases)) {
    throwIfStopped(stop);
    articles += entryArticle(entry, marks, index++, stop);
  }
  if (index == 0) articles = textElement("p", "", "No testcase ran.");
  return element("section", attr("class", "testcases") + attr("id", "testcases"),
                 textElement("h2", "", "Testcases (" + std::to_string(index) + " entries)") +
                     element("div", attr("class", "entries"), articles));
}

std::string pageBody(const json& run, const StopRequest& stop) {
  std::string body = headerSection(run) + environmentSection(run);
  if (member(run, keys::kComparison).is_object())
    body += comparisonSection(run.at(keys::kComparison), stop);
  body += expectationsSection(run);
  if (member(run, keys::kSweep).is_object()) body += sweepSection(run.at(keys::kSweep));
  if (member(run, keys::kTestcases).is_array()) body += testcaseSection(run, stop);
  return body + costSection(run);
}

std::string pageTitle(const json& run) {
  return "nvbandwidth " + scalarText(member(run, keys::kVersion)) + " report (" +
         scalarText(member(run, keys::kGitVersion)) + ")";
}

}  // namespace

std::string renderHtmlReport(const json& document, const StopRequest& stop) {
  const json& run = runOf(document);
  try {
    // No xmlns: the page is parsed as HTML by browsers and must name nothing on the network.
    return "<!DOCTYPE html>\n" +
           element("html", attr("lang", "en"),
                   element("head", "",
                           emptyElement("meta", attr("charset", "utf-8")) +
                               textElement("title", "", pageTitle(run)) +
                               element("style", "", reportStyleSheet())) +
                       element("body", "", pageBody(run, stop))) +
           "\n";
  } catch (const json::exception& e) {
    // A key of the wrong type: the document is not a report this view understands.
    throw std::runtime_error(std::string("not an nvbandwidth report: ") + e.what());
  }
}

}  // namespace nvbw
