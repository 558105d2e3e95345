#include "fleet/report_shape.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <locale>
#include <sstream>

#include "fleet/report_keys.h"

namespace nvbw {
namespace {

using nlohmann::json;

using Range = ValueRange;

constexpr const Range& kBandwidth = kBandwidthRange;
constexpr const Range& kLatency = kLatencyRange;
constexpr Range kNonNegative{0.0, 1e300, 0.0, "a number of 0 or more"};
constexpr Range kAnyFinite{-1e300, 1e300, 0.0, "a finite number"};

// The spread (standard deviation) of values of `range`.
const Range& spreadOf(const Range& range) {
  return &range == &kLatency ? kSpreadOfLatency : kSpreadOfBandwidth;
}

// Where a value is in the document, spelled out only when it is reported: the checks visit every
// cell and sample, and must not build a string for each.
class Path {
 public:
  explicit Path(const char* root) : root_(root) {}
  Path(const Path& parent, const char* key) : parent_(&parent), key_(key) {}
  Path(const Path& parent, std::size_t index) : parent_(&parent), index_(index) {}
  // The parent with `suffix` spelled after it: ` ("key")` after `testcases[3]`, `.name` for a
  // key of the document's own.
  Path(const Path& parent, std::string suffix) : parent_(&parent), note_(std::move(suffix)) {}
  std::string text() const {
    std::string t = parent_ ? parent_->text() : root_;
    if (key_) return t + "." + key_;
    if (note_) return t + *note_;
    if (parent_) return t + "[" + std::to_string(index_) + "]";
    return t;
  }

 private:
  const Path* parent_ = nullptr;
  const char* root_ = nullptr;
  const char* key_ = nullptr;
  std::size_t index_ = 0;
  std::optional<std::string> note_;
};

// An upstream cell's value (the inner nullopt: "N/A"); the outer nullopt when the text is neither
// a number nor "N/A".
std::optional<std::optional<double>> cellTextValue(const std::string& text) {
  if (text == "N/A") return std::optional<double>();
  std::istringstream in(text);
  in.imbue(std::locale::classic());  // a global locale must not change the decimal point
  double value = 0.0;
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0])) || !(in >> value) ||
      in.peek() != std::char_traits<char>::eof())
    return std::nullopt;
  return std::optional<double>(value);
}

std::string notACell(const std::string& text) {
  return "\"" + text.substr(0, 32) + "\" is neither a number nor \"N/A\"";
}

[[noreturn]] void reject(const Path& where, const std::string& why) {
  throw ReportShapeError(where.text() + ": " + why);
}

std::string shortestNumber(double value) {
  std::ostringstream s;
  s.imbue(std::locale::classic());
  s << value;
  return s.str();
}

// "is a string, not a number".
[[noreturn]] void wrongType(const json& value, const Path& where, const char* expected) {
  reject(where,
         std::string("is ") + (value.is_null() ? "null" : value.type_name()) + ", not " + expected);
}

const json* find(const json& object, const char* key) {
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

Path child(const Path& where, const char* key) { return Path(where, key); }

Path index(const Path& where, std::size_t i) { return Path(where, i); }

double number(const json& value, const Path& where, const Range& range) {
  if (!value.is_number()) wrongType(value, where, "a number");
  const double v = value.get<double>();
  if (!withinRange(v, range)) reject(where, shortestNumber(v) + " is not " + range.what);
  return v;
}

void integer(const json& value, const Path& where, long long minimum) {
  if (!value.is_number_integer()) wrongType(value, where, "a whole number");
  if (value.is_number_unsigned()) return;
  if (value.get<long long>() < minimum)
    reject(where, std::to_string(value.get<long long>()) + " is below " + std::to_string(minimum));
}

void string(const json& value, const Path& where) {
  if (!value.is_string()) wrongType(value, where, "a string");
}

const json& object(const json& value, const Path& where) {
  if (!value.is_object()) wrongType(value, where, "an object");
  return value;
}

// `check(element, "where[i]")` for every element of an array; the array's size is returned.
template <typename Check>
std::size_t eachElement(const json& value, const Path& where, Check check) {
  if (!value.is_array()) wrongType(value, where, "an array");
  for (std::size_t i = 0; i < value.size(); ++i) check(value[i], index(where, i));
  return value.size();
}

template <typename Check>
void optional(const json& parent, const char* key, const Path& where, Check check) {
  if (const json* value = find(parent, key)) check(*value, child(where, key));
}

void optionalString(const json& parent, const char* key, const Path& where) {
  optional(parent, key, where, [](const json& v, const Path& at) { string(v, at); });
}

std::size_t stringArray(const json& value, const Path& where) {
  return eachElement(value, where, [](const json& v, const Path& at) { string(v, at); });
}

const std::string& requiredString(const json& parent, const char* key, const Path& where) {
  const json* value = find(parent, key);
  if (!value) reject(where, std::string("has no \"") + key + "\"");
  string(*value, child(where, key));
  return value->get_ref<const std::string&>();
}

// ---- Matrices ----

struct Shape {
  std::size_t rows = 0;
  std::size_t cols = 0;
  bool operator==(const Shape& o) const { return rows == o.rows && cols == o.cols; }
};

std::string shapeText(const Shape& s) {
  return std::to_string(s.rows) + " x " + std::to_string(s.cols);
}

// The most rows and columns a matrix of this report may have.
struct Bounds {
  std::size_t gpus = 0;
  Shape largest() const { return {3 * gpus, gpus}; }
};

template <typename Cell>
Shape grid(const json& value, const Path& where, const Bounds& bounds, Cell cell,
           const StopRequest& stop) {
  if (!value.is_array()) wrongType(value, where, "an array of rows");
  const Shape limit = bounds.largest();
  if (limit.rows == 0)
    reject(where, "a matrix in a report without a \"GPU Device list\" (how many GPUs?)");
  Shape shape{value.size(), 0};
  if (shape.rows == 0 || shape.rows > limit.rows)
    reject(where, "has " + std::to_string(shape.rows) + " rows; a report of " +
                      std::to_string(bounds.gpus) + " GPUs has 1 to " + std::to_string(limit.rows));
  for (std::size_t r = 0; r < shape.rows; ++r) {
    throwIfStopped(stop);
    const json& row = value[r];
    const Path rowWhere(where, r);
    if (!row.is_array()) wrongType(row, rowWhere, "an array of cells");
    if (r == 0) shape.cols = row.size();
    if (row.size() != shape.cols) reject(rowWhere, "the rows are of different lengths");
    if (shape.cols == 0 || shape.cols > limit.cols)
      reject(rowWhere, "has " + std::to_string(shape.cols) + " cells; a report of " +
                           std::to_string(bounds.gpus) + " GPUs has 1 to " +
                           std::to_string(limit.cols));
    for (std::size_t c = 0; c < shape.cols; ++c) cell(row[c], index(rowWhere, c));
  }
  return shape;
}

void cellStatistics(const json& cell, const Path& where, const Range& range) {
  if (cell.is_null()) return;
  object(cell, where);
  const json* samples = find(cell, keys::kSamples);
  if (!samples) reject(where, "has no \"samples\"");
  eachElement(*samples, child(where, keys::kSamples),
              [&range](const json& v, const Path& at) { number(v, at, range); });
  for (const char* key : {keys::kMin, keys::kMax, keys::kMean, keys::kMedian}) {
    const json* value = find(cell, key);
    if (!value) reject(where, std::string("has no \"") + key + "\"");
    number(*value, child(where, key), range);
  }
  const json* stddev = find(cell, keys::kStddev);
  if (!stddev) reject(where, "has no \"stddev\"");
  number(*stddev, child(where, keys::kStddev), spreadOf(range));
  optional(cell, keys::kCv, where, [](const json& v, const Path& at) {
    if (!v.is_null()) number(v, at, kNonNegative);
  });
}

void cellText(const json& cell, const Path& where, const Range& range) {
  string(cell, where);
  const std::string& text = cell.get_ref<const std::string&>();
  const auto value = cellTextValue(text);
  if (!value) reject(where, notACell(text));
  if (*value) number(json(**value), where, range);
}

// Every matrix of an entry: the same shape, within the report's bounds.
void matrices(const json& entry, const Path& where, const Bounds& bounds, const Range& range,
              const StopRequest& stop) {
  std::optional<Shape> first;
  const char* firstKey = nullptr;
  auto same = [&](const char* key, const Shape& shape) {
    if (!first) {
      first = shape;
      firstKey = key;
    } else if (!(shape == *first)) {
      reject(child(where, key),
             "is " + shapeText(shape) + " but \"" + firstKey + "\" is " + shapeText(*first));
    }
  };
  auto valueOrNull = [](const Range& r) {
    return [&r](const json& v, const Path& at) {
      if (!v.is_null()) number(v, at, r);
    };
  };
  struct Grid {
    const char* key;
    std::function<void(const json&, const Path&)> cell;
  };
  const Grid grids[] = {
      {"values", valueOrNull(range)},
      {"bandwidth_matrix", [&range](const json& v, const Path& at) { cellText(v, at, range); }},
      {"cells", [&range](const json& v, const Path& at) { cellStatistics(v, at, range); }},
      {"percent_of_peak", valueOrNull(kPercentOfPeakRange)},
      {"peak_GBps", valueOrNull(kBandwidth)},
      {"links",
       [](const json& v, const Path& at) {
         if (!v.is_null()) string(v, at);
       }},
  };
  for (const Grid& g : grids)
    if (const json* value = find(entry, g.key))
      same(g.key, grid(*value, child(where, g.key), bounds, g.cell, stop));
  if (first) {
    // The flagged cells must lie in the matrix the views draw them on.
    optional(entry, keys::kOutliers, where, [&first](const json& list, const Path& at) {
      eachElement(list, at, [&first](const json& o, const Path& oat) {
        object(o, oat);
        for (const char* key : {keys::kRow, keys::kCol}) {
          const json* v = find(o, key);
          if (!v) reject(oat, std::string("has no \"") + key + "\"");
          integer(*v, child(oat, key), 0);
          const std::size_t limit = std::string(key) == "row" ? first->rows : first->cols;
          if (v->get<unsigned long long>() >= limit)
            reject(child(oat, key), "is outside the matrix");
        }
        optional(o, "below_median_percent", oat,
                 [](const json& x, const Path& xat) { number(x, xat, kAnyFinite); });
        optional(o, "class_median", oat,
                 [](const json& x, const Path& xat) { number(x, xat, kBandwidth); });
      });
    });
  }
  optional(entry, keys::kLinkPeaks, where, [](const json& list, const Path& at) {
    eachElement(list, at, [](const json& l, const Path& lat) {
      object(l, lat);
      optionalString(l, "link", lat);
      optionalString(l, "convention", lat);
      optional(l, keys::kPeakGBps, lat, [](const json& v, const Path& vat) {
        if (!v.is_null()) number(v, vat, kBandwidth);
      });
    });
  });
}

bool latencyEntry(const json& entry, const std::string& name, const Path& where) {
  const json* unit = find(entry, keys::kUnit);
  if (!unit) return name.find("latency") != std::string::npos;
  string(*unit, child(where, keys::kUnit));
  const std::string& text = unit->get_ref<const std::string&>();
  if (text != "GB/s" && text != "ns")
    reject(child(where, keys::kUnit), "is neither \"GB/s\" nor \"ns\"");
  return text == "ns";
}

void testcaseEntry(const json& entry, const Path& at, const Bounds& bounds,
                   const StopRequest& stop) {
  object(entry, at);
  const std::string& name = requiredString(entry, keys::kName, at);
  const Path where(at, " (\"" + name.substr(0, 64) + "\")");
  const std::string& status = requiredString(entry, keys::kStatus, where);
  if (status != "Passed" && status != "Waived" && status != "ERROR" && status != "Running")
    reject(child(where, keys::kStatus),
           "\"" + status.substr(0, 32) + "\" is none of Passed, Waived, ERROR, Running");
  // Only an ERROR entry can lack a name: the one of an empty `-t ""`.
  if (name.empty() && status != "ERROR") reject(child(at, keys::kName), "is empty");
  for (const char* key : {keys::kBandwidthDescription, keys::kStatistic, keys::kWaiveReason,
                          keys::kError, keys::kTestcase})
    optionalString(entry, key, where);
  const Range& range = latencyEntry(entry, name, where) ? kLatency : kBandwidth;
  for (const char* key : {keys::kSum, keys::kMin, keys::kMax, keys::kAverage})
    optional(entry, key, where,
             [&range](const json& v, const Path& vat) { number(v, vat, range); });
  optional(entry, keys::kBufferSizeMiB, where,
           [](const json& v, const Path& vat) { integer(v, vat, 1); });
  optional(entry, keys::kRowLabels, where,
           [](const json& v, const Path& vat) { stringArray(v, vat); });
  matrices(entry, where, bounds, range, stop);
}

// ---- The sections around the testcases ----

// Flat objects of scalars (and arrays of scalars): settings.
void flatObject(const json& value, const Path& where) {
  for (const auto& [key, item] : object(value, where).items()) {
    const Path at(where, "." + key.substr(0, 64));
    if (item.is_object()) wrongType(item, at, "a value or a list of values");
    if (item.is_array())
      eachElement(item, at, [](const json& v, const Path& vat) {
        if (v.is_structured()) wrongType(v, vat, "a value");
      });
  }
}

void numberObject(const json& value, const Path& where) {
  for (const auto& [key, item] : object(value, where).items())
    number(item, Path(where, "." + key.substr(0, 64)), kNonNegative);
}

void environment(const json& value, const Path& where) {
  object(value, where);
  optional(value, "gpus", where, [](const json& gpus, const Path& at) {
    eachElement(gpus, at, [](const json& g, const Path& gat) { object(g, gat); });
  });
  optional(value, "host", where, [](const json& v, const Path& at) { object(v, at); });
}

void sweep(const json& value, const Path& where) {
  object(value, where);
  const json* sizes = find(value, keys::kSizesMiB);
  if (!sizes) reject(where, "has no \"sizes_MiB\"");
  const std::size_t count = eachElement(*sizes, child(where, keys::kSizesMiB),
                                        [](const json& v, const Path& at) { integer(v, at, 1); });
  if (count > kMaxSweepSizes)
    reject(child(where, keys::kSizesMiB),
           "has " + std::to_string(count) + " sizes; at most " + std::to_string(kMaxSweepSizes));
  optional(value, keys::kSeries, where, [count](const json& series, const Path& at) {
    eachElement(series, at, [count](const json& s, const Path& sat) {
      object(s, sat);
      const std::string& name = requiredString(s, keys::kName, sat);
      optionalString(s, keys::kTestcase, sat);
      const Range& range = latencyEntry(s, name, sat) ? kLatency : kBandwidth;
      const json* sums = find(s, keys::kSums);
      if (!sums) reject(sat, "has no \"sums\"");
      const std::size_t n =
          eachElement(*sums, child(sat, keys::kSums), [&range](const json& v, const Path& vat) {
            if (!v.is_null()) number(v, vat, range);
          });
      if (n != count)
        reject(child(sat, keys::kSums),
               "has " + std::to_string(n) + " values for " + std::to_string(count) + " sizes");
      optional(s, keys::kSizeReaching90, sat, [](const json& v, const Path& vat) {
        if (!v.is_null()) integer(v, vat, 1);
      });
    });
  });
}

void comparisonCell(const json& cell, const Path& where) {
  object(cell, where);
  requiredString(cell, keys::kName, where);
  for (const char* key : {keys::kVerdict, keys::kBasis}) optionalString(cell, key, where);
  const bool latency = find(cell, keys::kUnit) && latencyEntry(cell, "", where);
  const Range& range = latency ? kLatency : kBandwidth;
  for (const char* key : {keys::kRow, keys::kCol})
    optional(cell, key, where, [](const json& v, const Path& at) { integer(v, at, 0); });
  for (const char* key : {keys::kBaseline, keys::kCurrent})
    optional(cell, key, where, [&range](const json& v, const Path& at) { number(v, at, range); });
  for (const char* key : {"change_percent", "separation_percent", "confirmed_change_percent"})
    optional(cell, key, where, [](const json& v, const Path& at) {
      if (!v.is_null()) number(v, at, kAnyFinite);
    });
  optional(cell, "confirmed_median", where,
           [&range](const json& v, const Path& at) { number(v, at, range); });
  optional(cell, "confirmations", where, [&range](const json& v, const Path& at) {
    eachElement(v, at, [&range](const json& e, const Path& eat) { number(e, eat, range); });
  });
  for (const char* key :
       {keys::kBandPercent, keys::kRunToRunPercent, keys::kHealthySpreadPercent,
        keys::kUnstableLimitPercent, keys::kSpreadPercent, keys::kConfirmedSpreadPercent})
    optional(cell, key, where, [](const json& v, const Path& at) { number(v, at, kNonNegative); });
  optional(cell, keys::kConfirmationSpreads, where, [](const json& v, const Path& at) {
    eachElement(v, at, [](const json& e, const Path& eat) {
      if (!e.is_null()) number(e, eat, kNonNegative);
    });
  });
}

void comparison(const json& value, const Path& where) {
  object(value, where);
  optional(value, keys::kCells, where,
           [](const json& cells, const Path& at) { eachElement(cells, at, comparisonCell); });
  for (const char* key : {keys::kOnlyInBaseline, keys::kOnlyInCurrent, keys::kNotes})
    optional(value, key, where, [](const json& v, const Path& at) { stringArray(v, at); });
  for (const char* key : {keys::kTolerancePercent, keys::kRunToRunFloorPercent})
    optional(value, key, where, [](const json& v, const Path& at) { number(v, at, kNonNegative); });
  optional(value, keys::kSummary, where,
           [](const json& v, const Path& at) { numberObject(v, at); });
}

Bounds boundsOf(const json& run, const Path& where) {
  Bounds bounds;
  auto count = [&](const char* key, auto check) {
    if (const json* value = find(run, key)) {
      const std::size_t n = eachElement(*value, child(where, key), check);
      if (n > kMaxReportGpus)
        reject(child(where, key),
               "lists " + std::to_string(n) + " GPUs; at most " + std::to_string(kMaxReportGpus));
      bounds.gpus = std::max(bounds.gpus, n);
    }
  };
  count("GPU Device list", [](const json& v, const Path& at) { string(v, at); });
  count("processes", [](const json& v, const Path& at) { object(v, at); });
  return bounds;
}

void run(const json& run, ReportKind kind, const StopRequest& stop) {
  const Path where("nvbandwidth");
  object(run, where);
  for (const char* key :
       {"version", "git_version", "Driver Version", "warning", "error", "interrupted",
        "schema_version", "MPI version", "memory_sharing", keys::kHostname, keys::kStartedAt})
    optionalString(run, key, where);
  for (const char* key : {keys::kCudaRuntimeVersion, keys::kCudaDriverVersion})
    optional(run, key, where, [](const json& v, const Path& at) { integer(v, at, 0); });
  optional(run, keys::kWarnings, where, [](const json& v, const Path& at) { stringArray(v, at); });
  optional(run, keys::kSettings, where, flatObject);
  for (const char* key : {keys::kTiming, keys::kMemory}) optional(run, key, where, numberObject);
  for (const char* key : {keys::kEnvironment, keys::kEnvironmentAtEnd})
    optional(run, key, where, environment);
  optional(run, keys::kSweep, where, sweep);
  optional(run, keys::kComparison, where, comparison);
  const Bounds bounds = boundsOf(run, where);
  const json* testcases = find(run, keys::kTestcases);
  if (!testcases) {
    if (kind == ReportKind::RunOrComparison && find(run, keys::kComparison)) return;
    reject(where, "has no \"testcases\" (an nvbandwidth -j report has)");
  }
  eachElement(*testcases, child(where, keys::kTestcases),
              [&bounds, &stop](const json& entry, const Path& at) {
                testcaseEntry(entry, at, bounds, stop);
              });
}

}  // namespace

bool withinRange(double value, const ValueRange& range) {
  return std::isfinite(value) && value >= range.low && value <= range.high &&
         (value <= 0.0 || value >= range.lowestPositive);
}

std::optional<double> parseCellText(const std::string& text, const std::string& where) {
  const auto value = cellTextValue(text);
  if (!value) throw ReportShapeError(where + ": " + notACell(text));
  return *value;
}

void checkReportShape(const json& document, ReportKind kind, const StopRequest& stop) {
  if (!document.is_object())
    reject(Path("the document"), std::string("is ") + document.type_name() +
                                     ", not an object (an nvbandwidth -j report is)");
  const json* nvbandwidth = find(document, keys::kRoot);
  if (!nvbandwidth)
    reject(Path("the document"), "has no \"nvbandwidth\" object (not an nvbandwidth -j report)");
  run(*nvbandwidth, kind, stop);
}

}  // namespace nvbw
