// The report reader (report_reader.h): the text read as a document within the report's limits,
// then each member of the run object checked and made typed, the entries last.
#include "model/report_reader.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "model/entry_reader.h"
#include "model/record_fields.h"
#include "model/report_keys.h"

namespace nvbw {

namespace {

using namespace model;

// ---- The sections around the testcases ----

// Flat objects of scalars (and arrays of scalars): settings.
void flatObject(const Json& value, const Path& where) {
  for (const auto& [key, item] : object(value, where).items()) {
    const Path at(where, "." + key.substr(0, 64));
    if (item.is_object()) wrongType(item, at, "a value or a list of values");
    if (item.is_array())
      eachElement(item, at, [](const Json& v, const Path& vat) {
        if (v.is_array() || v.is_object()) wrongType(v, vat, "a value");
      });
  }
}

void numberObject(const Json& value, const Path& where) {
  for (const auto& [key, item] : object(value, where).items())
    number(item, Path(where, "." + key.substr(0, 64)), kNonNegative);
}

void environment(const Json& value, const Path& where) {
  object(value, where);
  optional(value, keys::kGpus, where, [](const Json& gpus, const Path& at) {
    eachElement(gpus, at, [](const Json& g, const Path& gat) { object(g, gat); });
  });
  optional(value, keys::kHost, where, [](const Json& v, const Path& at) { object(v, at); });
}

void sweep(const Json& value, const Path& where) {
  object(value, where);
  const Json* sizes = findMember(value, keys::kSizesMiB);
  if (!sizes) reject(where, "has no \"sizes_MiB\"");
  const std::size_t count = eachElement(*sizes, Path(where, keys::kSizesMiB),
                                        [](const Json& v, const Path& at) { integer(v, at, 1); });
  if (count > kMaxSweepSizes)
    reject(Path(where, keys::kSizesMiB),
           "has " + std::to_string(count) + " sizes; at most " + std::to_string(kMaxSweepSizes));
  optional(value, keys::kSeries, where, [count](const Json& series, const Path& at) {
    eachElement(series, at, [count](const Json& s, const Path& sat) {
      object(s, sat);
      const std::string& name = requiredString(s, keys::kName, sat);
      optionalString(s, keys::kTestcase, sat);
      const ValueRange& range = model::entryRange(s, name, sat);
      const Json* sums = findMember(s, keys::kSums);
      if (!sums) reject(sat, "has no \"sums\"");
      const std::size_t n =
          eachElement(*sums, Path(sat, keys::kSums), [&range](const Json& v, const Path& vat) {
            if (!v.is_null()) number(v, vat, range);
          });
      if (n != count)
        reject(Path(sat, keys::kSums),
               "has " + std::to_string(n) + " values for " + std::to_string(count) + " sizes");
      optional(s, keys::kSizeReaching90, sat, [](const Json& v, const Path& vat) {
        if (!v.is_null()) integer(v, vat, 1);
      });
    });
  });
}

void comparisonCell(const Json& cell, const Path& where) {
  object(cell, where);
  requiredString(cell, keys::kName, where);
  for (const char* key : {keys::kVerdict, keys::kBasis}) optionalString(cell, key, where);
  const ValueRange& range =
      findMember(cell, keys::kUnit) ? model::entryRange(cell, "", where) : kBandwidthRange;
  for (const char* key : {keys::kRow, keys::kCol})
    optional(cell, key, where, [](const Json& v, const Path& at) { integer(v, at, 0); });
  for (const char* key : {keys::kBaseline, keys::kCurrent})
    optional(cell, key, where, [&range](const Json& v, const Path& at) { number(v, at, range); });
  for (const char* key :
       {keys::kChangePercent, keys::kSeparationPercent, keys::kConfirmedChangePercent})
    optional(cell, key, where, [](const Json& v, const Path& at) {
      if (!v.is_null()) number(v, at, kAnyFinite);
    });
  optional(cell, keys::kConfirmedMedian, where,
           [&range](const Json& v, const Path& at) { number(v, at, range); });
  optional(cell, keys::kConfirmations, where, [&range](const Json& v, const Path& at) {
    eachElement(v, at, [&range](const Json& e, const Path& eat) { number(e, eat, range); });
  });
  for (const char* key :
       {keys::kBandPercent, keys::kRunToRunPercent, keys::kHealthySpreadPercent,
        keys::kUnstableLimitPercent, keys::kSpreadPercent, keys::kConfirmedSpreadPercent})
    optional(cell, key, where, [](const Json& v, const Path& at) { number(v, at, kNonNegative); });
  optional(cell, keys::kConfirmationSpreads, where, [](const Json& v, const Path& at) {
    eachElement(v, at, [](const Json& e, const Path& eat) {
      if (!e.is_null()) number(e, eat, kNonNegative);
    });
  });
}

void comparison(const Json& value, const Path& where) {
  object(value, where);
  optional(value, keys::kCells, where,
           [](const Json& cells, const Path& at) { eachElement(cells, at, comparisonCell); });
  for (const char* key : {keys::kOnlyInBaseline, keys::kOnlyInCurrent, keys::kNotes})
    optional(value, key, where, [](const Json& v, const Path& at) { stringArray(v, at); });
  for (const char* key : {keys::kTolerancePercent, keys::kRunToRunFloorPercent})
    optional(value, key, where, [](const Json& v, const Path& at) { number(v, at, kNonNegative); });
  optional(value, keys::kSummary, where,
           [](const Json& v, const Path& at) { numberObject(v, at); });
}

// ---- The run object ----

// The run's string facts (upstream's first), each a string where it is present.
struct StringFact {
  const char* key;
  std::optional<std::string> Report::*member;
  bool checked;  // a wrong type refuses the report (else it is read past)
};

const std::vector<StringFact>& stringFacts() {
  static const std::vector<StringFact> facts = {
      {keys::kVersion, &Report::version, true},
      {keys::kGitVersion, &Report::gitVersion, true},
      {keys::kDriverVersion, &Report::driverVersion, true},
      {keys::kWarning, &Report::warning, true},
      {keys::kError, &Report::error, true},
      {keys::kInterrupted, &Report::interrupted, true},
      {keys::kSchemaVersion, &Report::schemaVersion, true},
      {keys::kMpiVersion, &Report::mpiVersion, true},
      {keys::kMemorySharing, &Report::memorySharing, true},
      {keys::kHostname, &Report::hostname, true},
      {keys::kStartedAt, &Report::startedAt, true},
      {keys::kRelease, &Report::release, false},
      {keys::kErrorDetail, &Report::errorDetail, false}};
  return facts;
}

// What the summary reads of a run object; the rest of it is only checked to be JSON.
bool summaryReads(const std::string& key) {
  for (const char* k : {keys::kHostname, keys::kGpuDeviceList, keys::kProcesses,
                        keys::kSchemaVersion, keys::kError, keys::kLogicalGpus, keys::kInterrupted,
                        keys::kTestcases, keys::kComparison, keys::kExpectations})
    if (key == k) return true;
  return false;
}

// What the summary leaves out of an entry: each cell's samples and statistics, links, outliers,
// link peaks, cells above their peak.
bool summarySkips(const std::string& key) {
  for (const char* k :
       {keys::kCells, keys::kLinks, keys::kOutliers, keys::kLinkPeaks, keys::kAbovePeak})
    if (key == k) return true;
  return false;
}

// The members the summary keeps (ReadScope::Matrices): the run object's it reads, and of its
// entries what it shows. Depths: the run object's members at 2, an entry's at 4.
class SummaryFilter {
 public:
  bool operator()(std::size_t depth, const std::string& key) {
    if (depth == 2) {
      entries_ = key == keys::kTestcases || key == keys::kConfirmations;
      return summaryReads(key);
    }
    return !(depth == 4 && entries_ && summarySkips(key));
  }

 private:
  bool entries_ = false;  // within the run object's testcases or confirmations
};

class DocumentReader {
 public:
  DocumentReader(const ReadOptions& options, const StopRequest& stop)
      : options_(options), stop_(stop) {}

  Report read(const Json& document) {
    const Path where("the document");
    if (!document.is_object())
      reject(where, std::string("is ") + document.type_name() +
                        ", not an object (an nvbandwidth -j report is)");
    const Json* run = findMember(document, keys::kRoot);
    if (!run) reject(where, "has no \"nvbandwidth\" object (not an nvbandwidth -j report)");
    if (!run->is_object()) reject(run_, std::string("is ") + run->type_name() + ", not an object");
    // The entries last: their matrices are checked against the report's GPUs.
    for (const auto& [key, value] : run->items())
      if (key != keys::kTestcases && key != keys::kConfirmations) member(key, value);
    if (const Json* entries = findMember(*run, keys::kTestcases))
      report_.testcases = readEntries(*entries, Path(run_, keys::kTestcases));
    if (const Json* entries = findMember(*run, keys::kConfirmations))
      report_.confirmations = readEntries(*entries, Path(run_, keys::kConfirmations));
    if (!report_.testcases && !(options_.kind == ReportKind::RunOrComparison && report_.comparison))
      reject(run_, "has no \"testcases\" (an nvbandwidth -j report has)");
    return std::move(report_);
  }

 private:
  // The run object's member `key` other than the entries.
  void member(const std::string& key, const Json& v) {
    const Path at(run_, "." + key);
    for (const StringFact& f : stringFacts())
      if (key == f.key) {
        if (f.checked) string(v, at);
        if (v.is_string()) report_.*f.member = v.get<std::string>();
        return;
      }
    if (key == keys::kCudaRuntimeVersion || key == keys::kCudaDriverVersion) {
      integer(v, at, 0);
      (key == keys::kCudaRuntimeVersion ? report_.cudaRuntimeVersion : report_.cudaDriverVersion) =
          v.get<std::uint64_t>();
    } else if (key == keys::kConfidentialComputing) {
      if (!v.is_boolean()) wrongType(v, at, "true or false");
      report_.confidentialComputing = v.get<bool>();
    } else if (key == keys::kLogicalGpus) {
      integer(v, at, 0);
      report_.logicalGpus = v.get<std::uint64_t>();
    } else if (key == keys::kWarnings) {
      stringArray(v, at);
      take(v, report_.warnings);
    } else if (key == keys::kGpuDeviceList) {
      countGpus(v, at, [](const Json& e, const Path& eat) { string(e, eat); });
      take(v, report_.gpuDeviceList);
    } else if (key == keys::kProcesses) {
      countGpus(v, at, [](const Json& e, const Path& eat) { object(e, eat); });
      report_.processes = recordsOf(v, processFields());
    } else {
      section(key, v, at);
    }
  }

  void section(const std::string& key, const Json& v, const Path& at) {
    if (key == keys::kSettings) {
      flatObject(v, at);
      report_.settings = recordOf(v, settingsFields());
    } else if (key == keys::kTiming) {
      numberObject(v, at);
      report_.timing = recordOf(v, timingFields());
    } else if (key == keys::kMemory) {
      numberObject(v, at);
      report_.memory = recordOf(v, memoryFields());
    } else if (key == keys::kEnvironment || key == keys::kEnvironmentAtEnd) {
      environment(v, at);
      (key == keys::kEnvironment ? report_.environment : report_.environmentAtEnd) =
          recordOf(v, environmentFields());
    } else if (key == keys::kSweep) {
      sweep(v, at);
      report_.sweep = recordOf(v, sweepFields());
    } else if (key == keys::kComparison) {
      comparison(v, at);
      report_.comparison = recordOf(v, comparisonFields());
    } else if (key == keys::kExpectations) {
      // Not part of what a report must be: read past where it is not a list of checks.
      report_.expectations = recordsOf(v, expectationFields());
    } else if (key == keys::kOperations && v.is_object()) {
      report_.operations = v;
    } else if (key == keys::kNotes) {
      take(v, report_.notes);
    }
  }

  template <typename Check> void countGpus(const Json& v, const Path& at, Check check) {
    const std::size_t n = eachElement(v, at, check);
    if (n > kMaxReportGpus)
      reject(at, "lists " + std::to_string(n) + " GPUs; at most " + std::to_string(kMaxReportGpus));
  }

  std::vector<ReportEntry> readEntries(const Json& list, const Path& where) {
    if (!list.is_array()) reject(where, std::string("is ") + list.type_name() + ", not an array");
    const EntryReading reading{options_.scope, report_.gpuCount(), &stop_};
    std::vector<ReportEntry> entries;
    for (std::size_t i = 0; i < list.size(); ++i) {
      throwIfStopped(stop_);
      entries.push_back(readEntry(list[i], Path(where, i), reading));
    }
    return entries;
  }

  const ReadOptions options_;
  const StopRequest& stop_;
  const Path run_{keys::kRoot};
  Report report_;
};

}  // namespace

Report readReportText(const std::string& text, const ReadOptions& options,
                      const StopRequest& stop) {
  const MemberFilter keep =
      options.scope == ReadScope::Matrices ? MemberFilter(SummaryFilter()) : MemberFilter();
  const Json document = parseJson(text, kMaxReportDepth, documentBudget(text.size()), stop, keep);
  return DocumentReader(options, stop).read(document);
}

}  // namespace nvbw
