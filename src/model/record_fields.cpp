#include "model/record_fields.h"

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace nvbw::model {

namespace {

// A field's value: the field's type, or what its optional holds.
template <typename T> struct Held { using type = T; };
template <typename T> struct Held<std::optional<T>> { using type = T; };
template <typename T> struct IsOptional : std::false_type {};
template <typename T> struct IsOptional<std::optional<T>> : std::true_type {};
template <typename T> struct IsList : std::false_type {};
template <typename T> struct IsList<std::vector<T>> : std::true_type {};
template <typename T> struct IsGrid : std::false_type {};
template <typename T> struct IsGrid<Grid<T>> : std::true_type {};
template <typename T>
constexpr bool kScalar = std::is_arithmetic_v<T> || std::is_same_v<T, std::string>;

// Whether a value is of a scalar field's type: a string, a boolean, a number (any for a double, a
// whole number of 0 or more for an unsigned, one that fits for a signed one).
template <typename T> bool isOf(const Json& v) {
  if constexpr (std::is_same_v<T, std::string>) {
    return v.is_string();
  } else if constexpr (std::is_same_v<T, bool>) {
    return v.is_boolean();
  } else if constexpr (std::is_same_v<T, double>) {
    return v.is_number();
  } else if constexpr (std::is_same_v<T, std::uint64_t>) {
    return v.is_number_unsigned();
  } else {
    static_assert(std::is_same_v<T, std::int64_t>, "a field of another type");
    return v.is_number_integer() && !(v.is_number_unsigned() && v.get<std::uint64_t>() > INT64_MAX);
  }
}

struct NoCheck {
  void operator()(const Json&, const Path&) const {}
};

template <typename T> bool bindValue(const Json& v, T& out, const Path& where);

// Visits a record's table binding an object's members. A member with a check (record_fields.h)
// refuses the report when it is not what the views rely on; any other member that the record
// lacks, or that is not of its field's type, is read past.
class FieldReader {
 public:
  FieldReader(const Json& object, const Path& where) : object_(object), where_(where) {}

  // A field a record may lack (an optional) holds the member's value, one it always has the value.
  template <typename T, typename Check = NoCheck>
  void operator()(const char* key, T& field, Check check = {}) {
    const Json* v = findMember(object_, key);
    if (!v) return;
    const Path at(where_, key);
    check(*v, at);
    typename Held<T>::type got;
    if (bindValue(*v, got, at)) field = std::move(got);
  }
  template <typename T, typename Check> void required(const char* key, T& field, Check check) {
    requiredMember(object_, key, where_);
    (*this)(key, field, check);
  }
  // Written as null when empty; read, null leaves it empty.
  template <typename T, typename Check = NoCheck>
  void nullable(const char* key, T& field, Check check = {}) {
    (*this)(key, field, check);
  }
  // A check across the record's fields, once they are read.
  template <typename Check> void verify(Check check) { check(where_); }
  // A member whose reader is another's: an entry's name, status and grids (entry_reader.cpp), the
  // run's entries (report_reader.cpp).
  template <typename T> void readElsewhere(const char*, const T&) {}

 private:
  const Json& object_;
  const Path& where_;
};

// A value into `out` when it is of its type (an optional: null, or its value's; a list: an array
// of them; a record: an object); `out` is left as it was when it is not.
template <typename T> bool bindValue(const Json& v, T& out, const Path& where) {
  if constexpr (IsOptional<T>::value) {
    typename T::value_type got;
    if (!v.is_null() && !bindValue(v, got, where)) return false;
    out = v.is_null() ? T() : T(std::move(got));
  } else if constexpr (IsList<T>::value) {
    if (!v.is_array()) return false;
    T list;
    for (std::size_t i = 0; i < v.size(); ++i)
      if (!bindValue(v[i], list.emplace_back(), Path(where, i))) return false;
    out = std::move(list);
  } else if constexpr (std::is_same_v<T, Json>) {
    out = v;
  } else if constexpr (kScalar<T>) {
    if (!isOf<T>(v)) return false;
    out = v.get<T>();
  } else {
    if (!v.is_object()) return false;
    FieldReader reader(v, where);
    fields(reader, out);
  }
  return true;
}

// Visits a record's table writing its members, sorted by key.
class FieldWriter {
 public:
  // A field a record may lack is absent when empty.
  template <typename T, typename Check = NoCheck>
  void operator()(const char* key, const T& field, Check = {}) {
    if constexpr (IsOptional<T>::value) {
      if (field) object_[key] = json(*field);
    } else {
      object_[key] = json(field);
    }
  }
  template <typename T, typename Check> void required(const char* key, const T& field, Check) {
    (*this)(key, field);
  }
  template <typename T, typename Check = NoCheck>
  void nullable(const char* key, const T& field, Check = {}) {
    object_[key] = json(field);
  }
  template <typename Check> void verify(Check) {}
  template <typename T> void readElsewhere(const char* key, const T& field) { (*this)(key, field); }

  template <typename T> static Json json(const T& v) {
    if constexpr (IsOptional<T>::value) {
      return v ? json(*v) : Json();
    } else if constexpr (IsList<T>::value) {
      Json list = Json::array();
      for (const auto& item : v) list.push_back(json(item));
      return list;
    } else if constexpr (IsGrid<T>::value) {
      Json rows = Json::array();
      for (std::size_t r = 0; r < v.rows; ++r) {
        Json& row = rows.emplace_back(Json::array());
        for (std::size_t c = 0; c < v.cols; ++c) row.push_back(json(v.at(r, c)));
      }
      return rows;
    } else if constexpr (std::is_same_v<T, Status>) {
      return statusName(v);
    } else if constexpr (kScalar<T> || std::is_same_v<T, Json>) {
      return Json(v);
    } else {
      FieldWriter writer;
      fields(writer, v);
      return std::move(writer.object_);
    }
  }

 private:
  Json object_ = Json::object();
};

// ---- The checks the tables name ----

void aString(const Json& v, const Path& at) { string(v, at); }
void aCount(const Json& v, const Path& at) { integer(v, at, 0); }
void strings(const Json& v, const Path& at) { eachElement(v, at, aString); }
void anObject(const Json& v, const Path& at) { object(v, at); }
void aBoolean(const Json& v, const Path& at) {
  if (!v.is_boolean()) wrongType(v, at, "true or false");
}
void aUnit(const Json& v, const Path& at) {
  const std::string& text = string(v, at);
  if (text != unitName(Unit::GBps) && text != unitName(Unit::Nanoseconds))
    reject(at, "is neither \"GB/s\" nor \"ns\"");
}

// A number within `range`; null too where `orNull`.
struct InRange {
  const ValueRange& range;
  bool orNull = false;
  void operator()(const Json& v, const Path& at) const {
    if (!(orNull && v.is_null())) number(v, at, range);
  }
};

// An array, `check` on each element.
template <typename Check> auto each(Check check) {
  return [check](const Json& v, const Path& at) { eachElement(v, at, check); };
}

// A list of the report's GPUs (at most kMaxReportGpus), `check` on each.
template <typename Check> auto gpuList(Check check) {
  return [check](const Json& v, const Path& at) {
    const std::size_t n = eachElement(v, at, check);
    if (n > kMaxReportGpus)
      reject(at, "lists " + std::to_string(n) + " GPUs; at most " + std::to_string(kMaxReportGpus));
  };
}

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
  optional(value, "gpus", where, each(anObject));
  optional(value, "host", where, anObject);
}

void sweepSizes(const Json& v, const Path& at) {
  const std::size_t count =
      eachElement(v, at, [](const Json& e, const Path& eat) { integer(e, eat, 1); });
  if (count > kMaxSweepSizes)
    reject(at,
           "has " + std::to_string(count) + " sizes; at most " + std::to_string(kMaxSweepSizes));
}

// ---- The tables: `fields(visitor, record)`, the record const when it is written ----

template <typename R, typename Record>
using For = std::enable_if_t<std::is_same_v<std::remove_const_t<R>, Record>>;

template <typename V, typename R> For<R, OutlierRecord> fields(V& v, R& r) {
  v("row", r.row);
  v("col", r.col);
  v("cell", r.cell);
  v("link", r.link);
  v("below_median_percent", r.belowMedianPercent);
  v("class_median", r.classMedian);
}

template <typename V, typename R> For<R, LinkPeakRecord> fields(V& v, R& r) {
  v("link", r.link, aString);
  v("convention", r.convention, aString);
  v.nullable("peak_GBps", r.peakGBps, InRange{kBandwidthRange, true});
}

// Written here; read by entry_reader.cpp, which checks its numbers against the entry's unit.
template <typename V, typename R> For<R, CellStatistics> fields(V& v, R& r) {
  v("samples", r.samples);
  v("min", r.min);
  v("max", r.max);
  v("mean", r.mean);
  v("median", r.median);
  v("stddev", r.stddev);
  v.nullable("cv", r.cv);
}

// An entry's outliers are checked against its grids in entry_reader.cpp.
template <typename V, typename R> For<R, ReportEntry> fields(V& v, R& r) {
  v.readElsewhere("name", r.name);
  v.readElsewhere("status", r.status);
  v.readElsewhere("values", r.values);
  v.readElsewhere("bandwidth_matrix", r.texts);
  v.readElsewhere("cells", r.cells);
  v.readElsewhere("links", r.links);
  v.readElsewhere("peak_GBps", r.peaks);
  v.readElsewhere("percent_of_peak", r.percents);
  v("bandwidth_description", r.description, aString);
  v("statistic", r.statistic, aString);
  v("waive_reason", r.waiveReason, aString);
  v("error", r.error, aString);
  v("testcase", r.testcase, aString);
  v("unit", r.unitText, aUnit);
  const InRange value{rangeOf(unitOfEntry(r.unitText, r.name))};
  v("sum", r.sum, value);
  v("min", r.min, value);
  v("max", r.max, value);
  v("average", r.average, value);
  v("bufferSize_MiB", r.bufferSizeMiB, [](const Json& n, const Path& at) { integer(n, at, 1); });
  v("row_labels", r.rowLabels, strings);
  v("link_peaks", r.linkPeaks, each(anObject));
  v("error_detail", r.errorDetail);
  v("confirmation_run", r.confirmationRun);
  v("schedule", r.schedule);
  v("rounds", r.rounds);
  v("outliers", r.outliers);
  v("above_peak", r.abovePeak);
}

template <typename V, typename R> For<R, SettingsRecord> fields(V& v, R& r) {
  v("bufferSize_MiB", r.bufferSizeMiB);
  v("testSamples", r.testSamples);
  v("loopCount", r.loopCount);
  v("statistic", r.statistic);
  v("verify", r.verify);
  v("cpuAffinity", r.cpuAffinity);
  v("useHugePages", r.useHugePages);
  v("targetNumPairs", r.targetNumPairs);
  v("pair", r.pair);
  v("sweep_MiB", r.sweepMiB);
  v("schedule", r.schedule);
  v("interface", r.interface);
}

template <typename V, typename R> For<R, TimingRecord> fields(V& v, R& r) {
  v("wall_seconds", r.wallSeconds);
  v("release_seconds", r.releaseSeconds);
  v("allocation_seconds", r.allocationSeconds);
  v("fill_seconds", r.fillSeconds);
  v("enqueue_seconds", r.enqueueSeconds);
  v("wait_seconds", r.waitSeconds);
  v("verification_seconds", r.verificationSeconds);
  v("latency_seconds", r.latencySeconds);
  v("timed_copies_seconds", r.timedCopiesSeconds);
}

template <typename V, typename R> For<R, MemoryRecord> fields(V& v, R& r) {
  v("host_bytes_allocated", r.hostBytesAllocated);
  v("device_bytes_allocated", r.deviceBytesAllocated);
  v("peak_host_bytes", r.peakHostBytes);
  v("peak_device_bytes", r.peakDeviceBytes);
  v("host_allocations", r.hostAllocations);
  v("device_allocations", r.deviceAllocations);
}

// "operations": written from the executor's counts; a document's is read as it is (Report).
template <typename V, typename R> For<R, BufferPasses> fields(V& v, R& r) {
  v("count", r.count);
  v("host_bytes", r.hostBytes);
  v("device_bytes", r.deviceBytes);
}

template <typename V, typename R> For<R, OperationCounts> fields(V& v, R& r) {
  v("rounds", r.rounds);
  v("measurements", r.measurements);
  v("samples", r.samples);
  v("copies", r.copies);
  v("copy_bytes", r.copyBytes);
  v("longest_copy_bytes", r.longestCopyBytes);
  v("chases", r.chases);
  v("fills", r.fills);
  v("tail_fills", r.tailFills);
  v("checks", r.checks);
}

template <typename V, typename R> For<R, ProcessRecord> fields(V& v, R& r) {
  v("rank", r.rank);
  v("host", r.host);
  v("device", r.device);
  v("name", r.name);
  v("pci", r.pci);
  v("uuid", r.uuid);
}

template <typename V, typename R> For<R, PcieRecord> fields(V& v, R& r) {
  v("current_gts", r.currentGts);
  v("current_width", r.currentWidth);
  v("max_gts", r.maxGts);
  v("max_width", r.maxWidth);
  v("current", r.current);
  v("max", r.max);
}

template <typename V, typename R> For<R, GpuStateRecord> fields(V& v, R& r) {
  v("device", r.device);
  v.nullable("sm_clock_mhz", r.smClockMHz);
  v.nullable("sm_clock_max_mhz", r.smClockMaxMHz);
  v.nullable("memory_clock_mhz", r.memoryClockMHz);
  v.nullable("memory_clock_max_mhz", r.memoryClockMaxMHz);
  v.nullable("clocks_locked", r.clocksLocked);
  v.nullable("power_limit_w", r.powerLimitW);
  v.nullable("power_draw_w", r.powerDrawW);
  v.nullable("temperature_c", r.temperatureC);
  v.nullable("ecc_enabled", r.eccEnabled);
  v.nullable("persistence_mode", r.persistenceMode);
  v.nullable("mig_enabled", r.migEnabled);
  v.nullable("compute_mode", r.computeMode);
  v.nullable("throttle_seconds", r.throttleSeconds);
  v.nullable("pcie", r.pcie);
  v.nullable("numa_node", r.numaNode);
  v.nullable("host_buffer_cpus", r.hostBufferCpus);
  v("uuid", r.uuid);
}

template <typename V, typename R> For<R, HostRecord> fields(V& v, R& r) {
  v.nullable("cpu_model", r.cpuModel);
  v.nullable("numa_nodes", r.numaNodes);
}

template <typename V, typename R> For<R, EnvironmentRecord> fields(V& v, R& r) {
  v("host", r.host);
  v.nullable("nvml_problem", r.nvmlProblem);
  v("gpus", r.gpus);
}

template <typename V, typename R> For<R, SweepSeriesRecord> fields(V& v, R& r) {
  v.required("name", r.name, aString);
  v("testcase", r.testcase, aString);
  v("unit", r.unitText, aUnit);
  v.required("sums", r.sums, each(InRange{rangeOf(unitOfEntry(r.unitText, r.name)), true}));
  v.nullable("size_reaching_90_percent_MiB", r.sizeReaching90, [](const Json& n, const Path& at) {
    if (!n.is_null()) integer(n, at, 1);
  });
}

template <typename V, typename R> For<R, SweepSection> fields(V& v, R& r) {
  v.required("sizes_MiB", r.sizesMiB, sweepSizes);
  v("series", r.series, each(anObject));
  v.verify([&r](const Path& where) {
    const Path series(where, "series");
    for (std::size_t i = 0; r.series && i < r.series->size(); ++i)
      if (const std::size_t n = (*r.series)[i].sums.size(); n != r.sizesMiB.size())
        reject(Path(Path(series, i), "sums"), "has " + std::to_string(n) + " values for " +
                                                  std::to_string(r.sizesMiB.size()) + " sizes");
  });
}

template <typename V, typename R> For<R, ComparedCellRecord> fields(V& v, R& r) {
  v.required("name", r.name, aString);
  v("verdict", r.verdict, aString);
  v("basis", r.basis, aString);
  v("unit", r.unitText, aUnit);
  const InRange value{rangeOf(unitOfEntry(r.unitText, "")), false};
  const InRange nonNegative{kNonNegative, false};
  v("row", r.row, aCount);
  v("col", r.col, aCount);
  v("baseline", r.baseline, value);
  v("current", r.current, value);
  v("change_percent", r.changePercent, InRange{kAnyFinite, true});
  v("separation_percent", r.separationPercent, InRange{kAnyFinite, true});
  v("confirmed_change_percent", r.confirmedChangePercent, InRange{kAnyFinite, true});
  v("confirmed_median", r.confirmedMedian, value);
  v("confirmations", r.confirmations, each(value));
  v("band_percent", r.bandPercent, nonNegative);
  v("run_to_run_percent", r.runToRunPercent, nonNegative);
  v("healthy_spread_percent", r.healthySpreadPercent, nonNegative);
  v("unstable_limit_percent", r.unstableLimitPercent, nonNegative);
  v("spread_percent", r.spreadPercent, nonNegative);
  v("confirmed_spread_percent", r.confirmedSpreadPercent, nonNegative);
  v("confirmation_spreads", r.confirmationSpreads, each(InRange{kNonNegative, true}));
  v("testcase", r.testcase);
  v("bufferSize_MiB", r.bufferSizeMiB);
  v("baseline_reports", r.baselineReports);
  v("unstable", r.unstable);
  v("suspect", r.suspect);
  v("noisy", r.noisy);
}

template <typename V, typename R> For<R, ComparisonCounts> fields(V& v, R& r) {
  v("cells", r.cells);
  v("same", r.same);
  v("slower", r.slower);
  v("faster", r.faster);
  v("noisy", r.noisy);
  v("unstable", r.unstable);
  v("suspect", r.suspect);
  v("only_in_baseline", r.onlyInBaseline);
  v("only_in_current", r.onlyInCurrent);
}

template <typename V, typename R> For<R, SuspectRecord> fields(V& v, R& r) {
  v("testcase", r.testcase);
  v("bufferSize_MiB", r.bufferSizeMiB);
}

template <typename V, typename R> For<R, ConfirmationRecord> fields(V& v, R& r) {
  v("runs", r.runs);
  v("testcases", r.testcases);
  v("seconds", r.seconds);
  v("unconfirmed", r.unconfirmed);
}

template <typename V, typename R> For<R, ComparisonSection> fields(V& v, R& r) {
  v("cells", r.cells, each(anObject));
  v("only_in_baseline", r.onlyInBaseline, strings);
  v("only_in_current", r.onlyInCurrent, strings);
  v("notes", r.notes, strings);
  v("tolerance_percent", r.tolerancePercent, InRange{kNonNegative});
  v("run_to_run_floor_percent", r.runToRunFloorPercent, InRange{kNonNegative});
  v("summary", r.summary, numberObject);
  v("rule", r.rule);
  v("band", r.band);
  v("baseline_reports", r.baselineReports);
  v("different_machines", r.differentMachines);
  v("confirmation", r.confirmation);
}

template <typename V, typename R> For<R, ExpectationCounts> fields(V& v, R& r) {
  v("cells", r.cells);
  v("met", r.met);
  v("below", r.below);
  v("below_not_listed", r.belowNotListed);
  v("unmet", r.unmet);
  v("not_judged", r.notJudged);
}

template <typename V, typename R> For<R, JudgedMatrixRecord> fields(V& v, R& r) {
  v("name", r.name);
  v("testcase", r.testcase);
  v("unit", r.unitText);
  v("bufferSize_MiB", r.bufferSizeMiB);
  v("cells", r.cells);
  v("met", r.met);
  v("below", r.below);
  v("lines", r.lines);
}

template <typename V, typename R> For<R, BelowCellRecord> fields(V& v, R& r) {
  v("name", r.name);
  v("testcase", r.testcase);
  v("unit", r.unitText);
  v("bound", r.bound);
  v("row", r.row);
  v("col", r.col);
  v("bufferSize_MiB", r.bufferSizeMiB);
  v("line", r.line);
  v("value", r.value);
  v("limit", r.limit);
  v("percent_of_peak", r.percentOfPeak);
  v("peak_GBps", r.peakGBps);
  v("link", r.link);
}

template <typename V, typename R> For<R, UnmetRecord> fields(V& v, R& r) {
  v("line", r.line);
  v("expectation", r.expectation);
  v("reason", r.reason);
  v("detail", r.detail);
}

template <typename V, typename R> For<R, NotJudgedRecord> fields(V& v, R& r) {
  v("name", r.name);
  v("reason", r.reason);
  v("bufferSize_MiB", r.bufferSizeMiB);
  v("cells", r.cells);
}

template <typename V, typename R> For<R, ExpectationLineRecord> fields(V& v, R& r) {
  v("line", r.line);
  v("name", r.name);
  v("testcase", r.testcase);
  v("cells", r.cells);
  v("unit", r.unitText);
  v("bound", r.bound);
  v("limit", r.limit);
}

template <typename V, typename R> For<R, ExpectationSection> fields(V& v, R& r) {
  v("check", r.check);
  v("label", r.label);
  v("passed", r.passed);
  v("summary", r.summary);
  v("matrices", r.matrices);
  v("below", r.below);
  v("unmet", r.unmet);
  v("not_judged", r.notJudged);
  v("notes", r.notes);
  v("file", r.file);
  v("expectations", r.lines);
  v("min_percent_of_peak", r.minPercentOfPeak);
}

// The run object's members other than its entries, in the order of their keys (the order a
// document holds them in: the first fault of a report is the first one its text has).
template <typename V, typename R> For<R, Report> fields(V& v, R& r) {
  v.readElsewhere("testcases", r.testcases);
  v.readElsewhere("confirmations", r.confirmations);
  v("CUDA Driver Version", r.cudaDriverVersion, aCount);
  v("CUDA Runtime Version", r.cudaRuntimeVersion, aCount);
  v("Driver Version", r.driverVersion, aString);
  v("GPU Device list", r.gpuDeviceList, gpuList(aString));
  v("MPI version", r.mpiVersion, aString);
  v("comparison", r.comparison, anObject);
  v("confidential_computing", r.confidentialComputing, aBoolean);
  v("environment", r.environment, environment);
  v("environment_at_end", r.environmentAtEnd, environment);
  v("error", r.error, aString);
  v("error_detail", r.errorDetail);
  v("expectations", r.expectations);  // not what a report must be: read past when not checks
  v("git_version", r.gitVersion, aString);
  v("hostname", r.hostname, aString);
  v("interrupted", r.interrupted, aString);
  v("logical_gpus", r.logicalGpus, aCount);
  v("memory", r.memory, numberObject);
  v("memory_sharing", r.memorySharing, aString);
  v("notes", r.notes);
  v("operations", r.operations);
  v("processes", r.processes, gpuList(anObject));
  v("release", r.release);
  v("schema_version", r.schemaVersion, aString);
  v("settings", r.settings, flatObject);
  v("started_at", r.startedAt, aString);
  v("sweep", r.sweep, anObject);
  v("timing", r.timing, numberObject);
  v("version", r.version, aString);
  v("warning", r.warning, aString);
  v("warnings", r.warnings, strings);
}

}  // namespace

void readFields(const Json& object, Report& report, const Path& where) {
  bindValue(object, report, where);
}
void readFields(const Json& object, ReportEntry& entry, const Path& where) {
  bindValue(object, entry, where);
}

}  // namespace nvbw::model

namespace nvbw {

Json membersOf(const SettingsRecord& r) { return model::FieldWriter::json(r); }
Json membersOf(const TimingRecord& r) { return model::FieldWriter::json(r); }
Json membersOf(const MemoryRecord& r) { return model::FieldWriter::json(r); }
Json membersOf(const OperationCounts& o) { return model::FieldWriter::json(o); }
Json membersOf(const ComparedCellRecord& r) { return model::FieldWriter::json(r); }
Json membersOf(const Report& r) { return model::FieldWriter::json(r); }

}  // namespace nvbw
