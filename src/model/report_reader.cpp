// The report reader (report_files.h: readReportText): the text read as a document within the
// report's limits, then the run object checked and made typed by its table (record_fields.h), the
// entries last.
#include <algorithm>
#include <initializer_list>
#include <vector>

#include "model/record_fields.h"
#include "model/report_files.h"

namespace nvbw {

namespace {

using namespace model;

bool oneOf(const std::string& key, std::initializer_list<const char*> names) {
  return std::any_of(names.begin(), names.end(), [&key](const char* k) { return key == k; });
}

// The members the summary keeps (ReadScope::Matrices): of the run object those it reads (the rest
// is only checked to be JSON), of its entries all but each cell's samples and statistics, links,
// outliers, link peaks and cells above their peak. Depths: the run object's members at 2, an
// entry's at 4.
class SummaryFilter {
 public:
  bool operator()(std::size_t depth, const std::string& key) {
    if (depth == 2) {
      entries_ = key == "testcases" || key == "confirmations";
      return oneOf(key, {"hostname", "GPU Device list", "processes", "schema_version", "error",
                         "logical_gpus", "interrupted", "testcases", "comparison", "expectations"});
    }
    return !(depth == 4 && entries_ &&
             oneOf(key, {"cells", "links", "outliers", "link_peaks", "above_peak"}));
  }

 private:
  bool entries_ = false;  // within the run object's testcases or confirmations
};

std::vector<ReportEntry> readEntries(const Json& list, const Path& where, const Report& report,
                                     const ReadOptions& options, const StopRequest& stop) {
  // The report's GPUs: the longer of "GPU Device list" and "processes".
  const std::size_t gpus = std::max(report.gpuDeviceList ? report.gpuDeviceList->size() : 0,
                                    report.processes ? report.processes->size() : 0);
  const EntryReading reading{options.scope, gpus, &stop};
  std::vector<ReportEntry> entries;
  eachElement(list, where, [&](const Json& entry, const Path& at) {
    throwIfStopped(stop);
    entries.push_back(readEntry(entry, at, reading));
  });
  return entries;
}

Report readDocument(const Json& document, const ReadOptions& options, const StopRequest& stop) {
  const Path where("the document");
  if (!document.is_object()) wrongType(document, where, "an object (an nvbandwidth -j report is)");
  const Json* run = findMember(document, "nvbandwidth");
  if (!run) reject(where, "has no \"nvbandwidth\" object (not an nvbandwidth -j report)");
  const Path runWhere("nvbandwidth");
  Report report;
  readFields(object(*run, runWhere), report, runWhere);
  if (report.operations && !report.operations->is_object()) report.operations.reset();
  if (report.sweep && report.sweep->series)
    for (SweepSeriesRecord& s : *report.sweep->series) s.unit = unitOfEntry(s.unitText, s.name);
  // The entries last: their matrices are checked against the report's GPUs.
  if (const Json* entries = findMember(*run, "testcases"))
    report.testcases = readEntries(*entries, Path(runWhere, "testcases"), report, options, stop);
  if (const Json* entries = findMember(*run, "confirmations"))
    report.confirmations =
        readEntries(*entries, Path(runWhere, "confirmations"), report, options, stop);
  if (!report.testcases && !(options.kind == ReportKind::RunOrComparison && report.comparison))
    reject(runWhere, "has no \"testcases\" (an nvbandwidth -j report has)");
  return report;
}

}  // namespace

Report readReportText(const std::string& text, const ReadOptions& options,
                      const StopRequest& stop) {
  const MemberFilter keep =
      options.scope == ReadScope::Matrices ? MemberFilter(SummaryFilter()) : MemberFilter();
  const Json document = parseJson(
      text, kMaxReportDepth, kReportMemoryFactor * text.size() + kReportMemoryBase, stop, keep);
  return readDocument(document, options, stop);
}

}  // namespace nvbw
