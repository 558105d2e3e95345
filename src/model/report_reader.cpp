// The report reader (report_reader.h): the document scanned once, each member of the run object
// (each entry of its testcases) read as a value, checked and made typed before the next is read.
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
using Kind = JsonScanner::Kind;

// ---- The sections around the testcases ----

// Flat objects of scalars (and arrays of scalars): settings.
void flatObject(const Value& value, const Path& where) {
  for (const auto& [key, item] : object(value, where).members()) {
    const Path at(where, "." + key.substr(0, 64));
    if (item.isObject()) wrongType(item, at, "a value or a list of values");
    if (item.isArray())
      eachElement(item, at, [](const Value& v, const Path& vat) {
        if (v.isArray() || v.isObject()) wrongType(v, vat, "a value");
      });
  }
}

void numberObject(const Value& value, const Path& where) {
  for (const auto& [key, item] : object(value, where).members())
    number(item, Path(where, "." + key.substr(0, 64)), kNonNegative);
}

void environment(const Value& value, const Path& where) {
  object(value, where);
  optional(value, keys::kGpus, where, [](const Value& gpus, const Path& at) {
    eachElement(gpus, at, [](const Value& g, const Path& gat) { object(g, gat); });
  });
  optional(value, keys::kHost, where, [](const Value& v, const Path& at) { object(v, at); });
}

void sweep(const Value& value, const Path& where) {
  object(value, where);
  const Value* sizes = value.find(keys::kSizesMiB);
  if (!sizes) reject(where, "has no \"sizes_MiB\"");
  const std::size_t count = eachElement(*sizes, Path(where, keys::kSizesMiB),
                                        [](const Value& v, const Path& at) { integer(v, at, 1); });
  if (count > kMaxSweepSizes)
    reject(Path(where, keys::kSizesMiB),
           "has " + std::to_string(count) + " sizes; at most " + std::to_string(kMaxSweepSizes));
  optional(value, keys::kSeries, where, [count](const Value& series, const Path& at) {
    eachElement(series, at, [count](const Value& s, const Path& sat) {
      object(s, sat);
      const std::string& name = requiredString(s, keys::kName, sat);
      optionalString(s, keys::kTestcase, sat);
      const ValueRange& range = model::entryRange(s, name, sat);
      const Value* sums = s.find(keys::kSums);
      if (!sums) reject(sat, "has no \"sums\"");
      const std::size_t n =
          eachElement(*sums, Path(sat, keys::kSums), [&range](const Value& v, const Path& vat) {
            if (!v.isNull()) number(v, vat, range);
          });
      if (n != count)
        reject(Path(sat, keys::kSums),
               "has " + std::to_string(n) + " values for " + std::to_string(count) + " sizes");
      optional(s, keys::kSizeReaching90, sat, [](const Value& v, const Path& vat) {
        if (!v.isNull()) integer(v, vat, 1);
      });
    });
  });
}

void comparisonCell(const Value& cell, const Path& where) {
  object(cell, where);
  requiredString(cell, keys::kName, where);
  for (const char* key : {keys::kVerdict, keys::kBasis}) optionalString(cell, key, where);
  const ValueRange& range =
      cell.find(keys::kUnit) ? model::entryRange(cell, "", where) : kBandwidthRange;
  for (const char* key : {keys::kRow, keys::kCol})
    optional(cell, key, where, [](const Value& v, const Path& at) { integer(v, at, 0); });
  for (const char* key : {keys::kBaseline, keys::kCurrent})
    optional(cell, key, where, [&range](const Value& v, const Path& at) { number(v, at, range); });
  for (const char* key :
       {keys::kChangePercent, keys::kSeparationPercent, keys::kConfirmedChangePercent})
    optional(cell, key, where, [](const Value& v, const Path& at) {
      if (!v.isNull()) number(v, at, kAnyFinite);
    });
  optional(cell, keys::kConfirmedMedian, where,
           [&range](const Value& v, const Path& at) { number(v, at, range); });
  optional(cell, keys::kConfirmations, where, [&range](const Value& v, const Path& at) {
    eachElement(v, at, [&range](const Value& e, const Path& eat) { number(e, eat, range); });
  });
  for (const char* key :
       {keys::kBandPercent, keys::kRunToRunPercent, keys::kHealthySpreadPercent,
        keys::kUnstableLimitPercent, keys::kSpreadPercent, keys::kConfirmedSpreadPercent})
    optional(cell, key, where, [](const Value& v, const Path& at) { number(v, at, kNonNegative); });
  optional(cell, keys::kConfirmationSpreads, where, [](const Value& v, const Path& at) {
    eachElement(v, at, [](const Value& e, const Path& eat) {
      if (!e.isNull()) number(e, eat, kNonNegative);
    });
  });
}

void comparison(const Value& value, const Path& where) {
  object(value, where);
  optional(value, keys::kCells, where,
           [](const Value& cells, const Path& at) { eachElement(cells, at, comparisonCell); });
  for (const char* key : {keys::kOnlyInBaseline, keys::kOnlyInCurrent, keys::kNotes})
    optional(value, key, where, [](const Value& v, const Path& at) { stringArray(v, at); });
  for (const char* key : {keys::kTolerancePercent, keys::kRunToRunFloorPercent})
    optional(value, key, where,
             [](const Value& v, const Path& at) { number(v, at, kNonNegative); });
  optional(value, keys::kSummary, where,
           [](const Value& v, const Path& at) { numberObject(v, at); });
}

// ---- The run object ----

// The run's string facts (upstream's first), each a string where it is present.
struct StringFact {
  const char* key;
  std::optional<std::string> Report::*member;
  bool checked;  // a wrong type refuses the report (else it is kept as it is, in the extras)
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

// What the summary reads of a run object; the rest of it only needs to be JSON there.
bool summaryReads(const std::string& key) {
  for (const char* k : {keys::kHostname, keys::kGpuDeviceList, keys::kProcesses,
                        keys::kSchemaVersion, keys::kError, keys::kLogicalGpus, keys::kInterrupted,
                        keys::kTestcases, keys::kComparison, keys::kExpectations})
    if (key == k) return true;
  return false;
}

class DocumentReader {
 public:
  DocumentReader(const std::string& text, const ReadOptions& options, const StopRequest& stop)
      : scan_(text, kMaxReportDepth, documentBudget(text.size())), options_(options), stop_(stop) {}

  // A fault of the report is reported only once the whole text is known to be JSON: a text that
  // is not gets "not JSON", whatever else is wrong with it.
  Report read() {
    try {
      return readDocument();
    } catch (const ReportShapeError&) {
      scan_.skipRest();
      throw;
    }
  }

 private:
  Report readDocument() {
    const Path document("the document");
    if (scan_.peek() != Kind::Object)
      reject(document, std::string("is ") + JsonScanner::kindName(scan_.peek()) +
                           ", not an object (an nvbandwidth -j report is)");
    scan_.enterObject();
    bool found = false;
    std::string key;
    while (scan_.nextKey(key)) {
      if (key != keys::kRoot) {
        scan_.skipValue();
        continue;
      }
      // A repeated "nvbandwidth" replaces what an earlier one gave (the last wins).
      found = true;
      report_ = Report();
      sizes_.clear();
      readRun();
    }
    scan_.finish();
    if (!found) reject(document, "has no \"nvbandwidth\" object (not an nvbandwidth -j report)");
    finishRun();
    return std::move(report_);
  }

  void readRun() {
    if (scan_.peek() != Kind::Object)
      reject(run_, std::string("is ") + JsonScanner::kindName(scan_.peek()) + ", not an object");
    scan_.enterObject();
    std::string key;
    while (scan_.nextKey(key)) {
      if (key == keys::kTestcases) {
        report_.testcases = readEntries(Path(run_, keys::kTestcases), report_.gpuCount());
      } else if (key == keys::kConfirmations) {
        // Before "processes" in a report's order: their sizes wait for the whole run object.
        report_.confirmations = readEntries(Path(run_, keys::kConfirmations), 0);
      } else if (options_.scope == ReadScope::Matrices && !summaryReads(key)) {
        scan_.skipValue();
      } else {
        member(key, scan_.readValue());
      }
    }
  }

  // The run object's member `key` other than the entries.
  void member(const std::string& key, Value v) {
    const Path at(run_, "." + key);
    for (const StringFact& f : stringFacts())
      if (key == f.key) {
        if (f.checked) string(v, at);
        if (v.isString())
          report_.*f.member = v.asString();
        else
          setMember(report_.extras, key, std::move(v));
        return;
      }
    if (key == keys::kCudaRuntimeVersion || key == keys::kCudaDriverVersion) {
      integer(v, at, 0);
      (key == keys::kCudaRuntimeVersion ? report_.cudaRuntimeVersion : report_.cudaDriverVersion) =
          v.asUnsigned();
    } else if (key == keys::kConfidentialComputing) {
      if (!v.isBoolean()) wrongType(v, at, "true or false");
      report_.confidentialComputing = v.asBoolean();
    } else if (key == keys::kLogicalGpus) {
      integer(v, at, 0);
      report_.logicalGpus = v.asUnsigned();
    } else if (key == keys::kWarnings) {
      stringArray(v, at);
      take(v, report_.warnings);
    } else if (key == keys::kGpuDeviceList) {
      countGpus(v, at, [](const Value& e, const Path& eat) { string(e, eat); });
      take(v, report_.gpuDeviceList);
    } else if (key == keys::kProcesses) {
      countGpus(v, at, [](const Value& e, const Path& eat) { object(e, eat); });
      report_.processes = recordsOf(v, processFields());
    } else {
      section(key, std::move(v), at);
    }
  }

  void section(const std::string& key, Value v, const Path& at) {
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
    } else if (key == keys::kExpectations &&
               (report_.expectations = recordsOf(v, expectationFields()))) {
      // Not part of what a report must be: kept as it is where it is not a list of checks.
    } else {
      setMember(report_.extras, key, std::move(v));
    }
  }

  template <typename Check> void countGpus(const Value& v, const Path& at, Check check) {
    const std::size_t n = eachElement(v, at, check);
    if (n > kMaxReportGpus)
      reject(at, "lists " + std::to_string(n) + " GPUs; at most " + std::to_string(kMaxReportGpus));
  }

  // An entry as scanned: its matrices of numbers straight into cells where they are plain ones;
  // for the summary without what it does not show (each cell's samples and statistics, links,
  // outliers, link peaks, cells above their peak), which is only checked to be JSON.
  ScannedEntry scannedEntry() {
    ScannedEntry entry;
    if (scan_.peek() != Kind::Object) {
      entry.members = scan_.readValue();
      return entry;
    }
    entry.members = Value::object();
    scan_.enterObject();
    std::string key;
    while (scan_.nextKey(key)) {
      // A repeated key: the later value replaces the earlier, whichever way each was read.
      if (options_.scope == ReadScope::Matrices && summarySkips(key))
        scan_.skipValue();
      else if (scanMatrix(scan_, key, entry))
        entry.members.erase(key);
      else
        entry.members.set(key, scan_.readValue());
    }
    return entry;
  }

  static bool summarySkips(const std::string& key) {
    for (const char* k :
         {keys::kCells, keys::kLinks, keys::kOutliers, keys::kLinkPeaks, keys::kAbovePeak})
      if (key == k) return true;
    return false;
  }

  std::vector<ReportEntry> readEntries(const Path& where, std::size_t gpus) {
    if (scan_.peek() != Kind::Array)
      reject(where, std::string("is ") + JsonScanner::kindName(scan_.peek()) + ", not an array");
    const EntryReading reading{options_.scope, gpus, &stop_, &sizes_};
    std::vector<ReportEntry> entries;
    scan_.enterArray();
    for (std::size_t i = 0; scan_.nextElement(); ++i) {
      throwIfStopped(stop_);
      entries.push_back(readEntry(scannedEntry(), Path(where, i), reading));
    }
    return entries;
  }

  void finishRun() {
    checkGridSizes(sizes_, report_.gpuCount());
    if (!report_.testcases && !(options_.kind == ReportKind::RunOrComparison && report_.comparison))
      reject(run_, "has no \"testcases\" (an nvbandwidth -j report has)");
  }

  JsonScanner scan_;
  const ReadOptions options_;
  const StopRequest& stop_;
  const Path run_{keys::kRoot};
  Report report_;
  std::vector<GridSize> sizes_;
};

}  // namespace

Report readReportText(const std::string& text, const ReadOptions& options,
                      const StopRequest& stop) {
  return DocumentReader(text, options, stop).read();
}

Value parseJson(const std::string& text, std::size_t maxDepth, std::size_t maxBytes) {
  JsonScanner scan(text, maxDepth, maxBytes);
  Value value = scan.readValue();
  scan.finish();
  return value;
}

}  // namespace nvbw
