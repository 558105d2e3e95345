#include "model/entry_reader.h"

#include <functional>
#include <optional>

#include "model/matrix_parts.h"
#include "model/record_fields.h"
#include "model/report_keys.h"

namespace nvbw::model {

namespace {

// ---- Grids: arrays of rows, every row as long ----

struct Shape {
  std::size_t rows = 0;
  std::size_t cols = 0;
  bool operator==(const Shape& o) const { return rows == o.rows && cols == o.cols; }
};

std::string shapeText(const Shape& s) {
  return std::to_string(s.rows) + " x " + std::to_string(s.cols);
}

std::string rowsLimit(std::size_t gpus) {
  return "a report of " + std::to_string(gpus) + " GPUs has 1 to " + std::to_string(3 * gpus);
}

std::string colsLimit(std::size_t gpus) {
  return "a report of " + std::to_string(gpus) + " GPUs has 1 to " + std::to_string(gpus);
}

// A grid's size against the report's GPUs where they are known (0: not yet).
void checkRows(std::size_t rows, const Path& where, std::size_t gpus) {
  if (gpus > 0 && (rows == 0 || rows > 3 * gpus))
    reject(where, "has " + std::to_string(rows) + " rows; " + rowsLimit(gpus));
}

void checkCols(std::size_t cols, const Path& rowWhere, std::size_t gpus) {
  if (gpus > 0 && (cols == 0 || cols > gpus))
    reject(rowWhere, "has " + std::to_string(cols) + " cells; " + colsLimit(gpus));
}

// Where the report's GPUs are not known yet, the size is recorded to be checked at the end.
void recordSize(const Path& where, std::size_t rows, std::size_t cols,
                const EntryReading& reading) {
  if (reading.gpus == 0) reading.sizes->push_back({where.text(), rows, cols});
}

// Where the scanner reads the entry's matrix of numbers `key`, or nullptr.
std::optional<JsonScanner::NumberRows>* numberRowsOf(ScannedEntry& entry, const std::string& key) {
  if (key == keys::kValues) return &entry.values;
  if (key == keys::kPercentOfPeak) return &entry.percents;
  if (key == keys::kPeakGBps) return &entry.peaks;
  return nullptr;
}

// Checks `value` as a grid and gives its cells, each made by `cell(value, where)`.
template <typename T, typename Cell>
Grid<T> readGrid(const Value& value, const Path& where, const EntryReading& reading, Cell cell) {
  if (!value.isArray()) wrongType(value, where, "an array of rows");
  Grid<T> grid;
  const Value::Array& rows = value.items();
  grid.rows = rows.size();
  checkRows(grid.rows, where, reading.gpus);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    throwIfStopped(*reading.stop);
    const Path rowWhere(where, r);
    if (!rows[r].isArray()) wrongType(rows[r], rowWhere, "an array of cells");
    const Value::Array& cells = rows[r].items();
    if (r == 0) grid.cols = cells.size();
    if (cells.size() != grid.cols) reject(rowWhere, "the rows are of different lengths");
    checkCols(grid.cols, rowWhere, reading.gpus);
    for (std::size_t c = 0; c < cells.size(); ++c)
      grid.cells.push_back(cell(cells[c], Path(rowWhere, c)));
  }
  recordSize(where, grid.rows, grid.cols, reading);
  return grid;
}

// The same checks, in the same order, on a grid the scanner read as Rows: `check(cell, where)`
// for each cell.
template <typename T, typename Check>
Grid<T> scannedGrid(JsonScanner::Rows<T>&& scanned, const Path& where, const EntryReading& reading,
                    Check check) {
  checkRows(scanned.rows, where, reading.gpus);
  for (std::size_t r = 0; r < scanned.rows; ++r) {
    throwIfStopped(*reading.stop);
    const Path rowWhere(where, r);
    checkCols(scanned.cols, rowWhere, reading.gpus);
    for (std::size_t c = 0; c < scanned.cols; ++c)
      check(scanned.cells[r * scanned.cols + c], Path(rowWhere, c));
  }
  recordSize(where, scanned.rows, scanned.cols, reading);
  return {scanned.rows, scanned.cols, std::move(scanned.cells)};
}

OrNull numberOrNull(const Value& v, const Path& at, const ValueRange& range) {
  if (v.isNull()) return std::nullopt;
  return number(v, at, range);
}

std::optional<CellStatistics> cellStatistics(const Value& cell, const Path& where,
                                             const ValueRange& range) {
  if (cell.isNull()) return std::nullopt;
  object(cell, where);
  CellStatistics s;
  const Value* samples = cell.find(keys::kSamples);
  if (!samples) reject(where, "has no \"samples\"");
  eachElement(*samples, Path(where, keys::kSamples),
              [&](const Value& v, const Path& at) { s.samples.push_back(number(v, at, range)); });
  for (auto [key, into] : {std::pair{keys::kMin, &s.min}, std::pair{keys::kMax, &s.max},
                           std::pair{keys::kMean, &s.mean}, std::pair{keys::kMedian, &s.median}}) {
    const Value* value = cell.find(key);
    if (!value) reject(where, std::string("has no \"") + key + "\"");
    *into = number(*value, Path(where, key), range);
  }
  const Value* stddev = cell.find(keys::kStddev);
  if (!stddev) reject(where, "has no \"stddev\"");
  s.stddev = number(*stddev, Path(where, keys::kStddev), spreadOf(range));
  optional(cell, keys::kCv, where, [&s](const Value& v, const Path& at) {
    if (!v.isNull()) s.cv = number(v, at, kNonNegative);
  });
  return s;
}

void checkCellText(const std::string& text, const Path& where, const ValueRange& range) {
  const auto value = cellTextValue(text);
  if (!value) reject(where, notACell(text));
  if (*value) number(**value, where, range);
}

std::string cellText(const Value& cell, const Path& where, const ValueRange& range) {
  const std::string& text = string(cell, where);
  checkCellText(text, where, range);
  return text;
}

// Every grid of an entry: the same shape, within the report's bounds (checked later). The
// flagged cells must lie in the matrix the views draw them on.
void readGrids(ScannedEntry& scanned, const Path& where, const ValueRange& range,
               const EntryReading& reading, ReportEntry& out) {
  const Value& entry = scanned.members;
  std::optional<Shape> first;
  const char* firstKey = nullptr;
  auto same = [&](const char* key, std::size_t rows, std::size_t cols) {
    const Shape shape{rows, cols};
    if (!first) {
      first = shape;
      firstKey = key;
    } else if (!(shape == *first)) {
      reject(Path(where, key),
             "is " + shapeText(shape) + " but \"" + firstKey + "\" is " + shapeText(*first));
    }
  };
  auto numbers = [&](const char* key, const ValueRange& r, std::optional<NumberGrid>& into) {
    std::optional<JsonScanner::NumberRows>& rows = *numberRowsOf(scanned, key);
    if (rows) {
      into = scannedGrid(std::move(*rows), Path(where, key), reading,
                         [&r](const OrNull& c, const Path& at) {
                           if (c) number(*c, at, r);
                         });
    } else if (const Value* v = entry.find(key)) {
      into = readGrid<OrNull>(*v, Path(where, key), reading, [&r](const Value& c, const Path& at) {
        return numberOrNull(c, at, r);
      });
    } else {
      return;
    }
    same(key, into->rows, into->cols);
  };
  numbers(keys::kValues, range, out.values);
  if (scanned.texts) {
    out.texts = scannedGrid(
        std::move(*scanned.texts), Path(where, keys::kBandwidthMatrix), reading,
        [&range](const std::string& c, const Path& at) { checkCellText(c, at, range); });
    same(keys::kBandwidthMatrix, out.texts->rows, out.texts->cols);
  } else if (const Value* v = entry.find(keys::kBandwidthMatrix)) {
    out.texts = readGrid<std::string>(
        *v, Path(where, keys::kBandwidthMatrix), reading,
        [&range](const Value& c, const Path& at) { return cellText(c, at, range); });
    same(keys::kBandwidthMatrix, out.texts->rows, out.texts->cols);
  }
  if (const Value* v = entry.find(keys::kCells)) {
    out.cells = readGrid<std::optional<CellStatistics>>(
        *v, Path(where, keys::kCells), reading,
        [&range](const Value& c, const Path& at) { return cellStatistics(c, at, range); });
    same(keys::kCells, out.cells->rows, out.cells->cols);
  }
  numbers(keys::kPercentOfPeak, kPercentOfPeakRange, out.percents);
  numbers(keys::kPeakGBps, kBandwidthRange, out.peaks);
  if (const Value* v = entry.find(keys::kLinks)) {
    out.links = readGrid<std::optional<std::string>>(
        *v, Path(where, keys::kLinks), reading,
        [](const Value& c, const Path& at) -> std::optional<std::string> {
          if (c.isNull()) return std::nullopt;
          return string(c, at);
        });
    same(keys::kLinks, out.links->rows, out.links->cols);
  }
  if (first) {
    optional(entry, keys::kOutliers, where, [&first](const Value& list, const Path& at) {
      eachElement(list, at, [&first](const Value& o, const Path& oat) {
        object(o, oat);
        for (const char* key : {keys::kRow, keys::kCol}) {
          const Value* v = o.find(key);
          if (!v) reject(oat, std::string("has no \"") + key + "\"");
          integer(*v, Path(oat, key), 0);
          const std::size_t limit = key == keys::kRow ? first->rows : first->cols;
          if (v->asUnsigned() >= limit) reject(Path(oat, key), "is outside the matrix");
        }
        optional(o, keys::kBelowMedianPercent, oat,
                 [](const Value& x, const Path& xat) { number(x, xat, kAnyFinite); });
        optional(o, keys::kClassMedian, oat,
                 [](const Value& x, const Path& xat) { number(x, xat, kBandwidthRange); });
      });
    });
  }
  optional(entry, keys::kLinkPeaks, where, [](const Value& list, const Path& at) {
    eachElement(list, at, [](const Value& l, const Path& lat) {
      object(l, lat);
      optionalString(l, keys::kLink, lat);
      optionalString(l, keys::kConvention, lat);
      optional(l, keys::kPeakGBps, lat, [](const Value& v, const Path& vat) {
        if (!v.isNull()) number(v, vat, kBandwidthRange);
      });
    });
  });
}

// The keys readGrids made typed, and the scalars below: the rest of the entry is its extras.
bool gridKey(const std::string& key) {
  for (const char* k : {keys::kValues, keys::kBandwidthMatrix, keys::kCells, keys::kPercentOfPeak,
                        keys::kPeakGBps, keys::kLinks})
    if (key == k) return true;
  return false;
}

// The entry's members that are not grids, typed where they are of their type.
void readScalars(const Value& entry, ReportEntry& out) {
  using R = ReportEntry;
  static const std::vector<Field<R>> fields = {
      field(keys::kBandwidthDescription, &R::description),
      field(keys::kStatistic, &R::statistic),
      field(keys::kTestcase, &R::testcase),
      field(keys::kWaiveReason, &R::waiveReason),
      field(keys::kError, &R::error),
      field(keys::kErrorDetail, &R::errorDetail),
      field(keys::kUnit, &R::unitText),
      field(keys::kSum, &R::sum),
      field(keys::kMin, &R::min),
      field(keys::kMax, &R::max),
      field(keys::kAverage, &R::average),
      field(keys::kBufferSizeMiB, &R::bufferSizeMiB),
      field(keys::kConfirmationRun, &R::confirmationRun),
      field(keys::kRowLabels, &R::rowLabels),
      nested<R, std::vector<OutlierRecord>>(
          keys::kOutliers, &R::outliers,
          [](const Value& v) { return recordsOf(v, outlierFields()); },
          [](const std::vector<OutlierRecord>& o) { return writeRecords(o, outlierFields()); }),
      nested<R, std::vector<LinkPeakRecord>>(
          keys::kLinkPeaks, &R::linkPeaks,
          [](const Value& v) { return recordsOf(v, linkPeakFields()); },
          [](const std::vector<LinkPeakRecord>& l) { return writeRecords(l, linkPeakFields()); }),
      {keys::kAbovePeak,
       [](R& r, const Value& v) {
         r.abovePeak = v;
         return true;
       },
       [](const R& r) -> std::optional<Value> { return r.abovePeak; }}};
  for (const Value::Member& m : entry.members()) {
    if (m.first == keys::kName || m.first == keys::kStatus || gridKey(m.first)) continue;
    bool bound = false;
    for (const Field<R>& f : fields)
      if (m.first == f.key) {
        bound = f.read(out, m.second);
        break;
      }
    if (!bound) setMember(out.extras, m.first, m.second);
  }
}

void derive(ReportEntry& e) {
  e.unit = unitOfEntry(e.unitText, e.name);
  if (!e.values && e.texts) {
    NumberGrid parsed{e.texts->rows, e.texts->cols, {}};
    parsed.cells.reserve(e.texts->cells.size());
    for (const std::string& text : e.texts->cells) parsed.cells.push_back(*cellTextValue(text));
    e.textValues = std::move(parsed);
  }
  e.parts = partsOfEntry(e);
}

}  // namespace

const ValueRange& entryRange(const Value& entry, const std::string& name, const Path& where) {
  const Value* unit = entry.find(keys::kUnit);
  if (!unit) return name.find("latency") != std::string::npos ? kLatencyRange : kBandwidthRange;
  const std::string& text = string(*unit, Path(where, keys::kUnit));
  if (text != unitName(Unit::GBps) && text != unitName(Unit::Nanoseconds))
    reject(Path(where, keys::kUnit), "is neither \"GB/s\" nor \"ns\"");
  return text == unitName(Unit::Nanoseconds) ? kLatencyRange : kBandwidthRange;
}

bool scanMatrix(JsonScanner& scan, const std::string& key, ScannedEntry& entry) {
  if (std::optional<JsonScanner::NumberRows>* rows = numberRowsOf(entry, key)) {
    if (scan.readNumberRows(rows->emplace())) return true;
    rows->reset();
  } else if (key == keys::kBandwidthMatrix) {
    if (scan.readStringRows(entry.texts.emplace())) return true;
    entry.texts.reset();
  }
  return false;
}

ReportEntry readEntry(ScannedEntry&& scanned, const Path& at, const EntryReading& reading) {
  const Value& entry = scanned.members;
  object(entry, at);
  ReportEntry out;
  out.name = requiredString(entry, keys::kName, at);
  const Path where(at, " (\"" + out.name.substr(0, 64) + "\")");
  const std::string& status = requiredString(entry, keys::kStatus, where);
  const std::optional<Status> known = statusNamed(status);
  if (!known)
    reject(Path(where, keys::kStatus),
           "\"" + status.substr(0, 32) + "\" is none of Passed, Waived, ERROR, Running");
  out.status = *known;
  // Only an ERROR entry can lack a name: the one of an empty `-t ""`.
  if (out.name.empty() && out.status != Status::Error) reject(Path(at, keys::kName), "is empty");
  for (const char* key : {keys::kBandwidthDescription, keys::kStatistic, keys::kWaiveReason,
                          keys::kError, keys::kTestcase})
    optionalString(entry, key, where);
  const ValueRange& range = entryRange(entry, out.name, where);
  for (const char* key : {keys::kSum, keys::kMin, keys::kMax, keys::kAverage})
    optional(entry, key, where,
             [&range](const Value& v, const Path& vat) { number(v, vat, range); });
  optional(entry, keys::kBufferSizeMiB, where,
           [](const Value& v, const Path& vat) { integer(v, vat, 1); });
  optional(entry, keys::kRowLabels, where,
           [](const Value& v, const Path& vat) { stringArray(v, vat); });
  readGrids(scanned, where, range, reading, out);
  readScalars(entry, out);
  if (reading.scope == ReadScope::Matrices && out.values) out.texts.reset();
  derive(out);
  return out;
}

void checkGridSizes(const std::vector<GridSize>& sizes, std::size_t gpus) {
  for (const GridSize& s : sizes) {
    const Path where(s.where.c_str());
    if (gpus == 0)
      reject(where, "a matrix in a report without a \"GPU Device list\" (how many GPUs?)");
    if (s.rows == 0 || s.rows > 3 * gpus)
      reject(where, "has " + std::to_string(s.rows) + " rows; " + rowsLimit(gpus));
    if (s.cols == 0 || s.cols > gpus)
      reject(Path(where, std::size_t{0}),
             "has " + std::to_string(s.cols) + " cells; " + colsLimit(gpus));
  }
}

}  // namespace nvbw::model
