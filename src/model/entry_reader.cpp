// One testcase entry of a report document, checked and made a ReportEntry (record_fields.h).
#include <optional>
#include <tuple>
#include <utility>

#include "model/record_fields.h"

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

// "has 7 rows; a report of 2 GPUs has 1 to 6".
std::string tooMany(std::size_t n, const char* what, std::size_t gpus, std::size_t most) {
  return "has " + std::to_string(n) + " " + what + "; a report of " + std::to_string(gpus) +
         " GPUs has 1 to " + std::to_string(most);
}

// A grid's size against the report's GPUs.
void checkRows(std::size_t rows, const Path& where, std::size_t gpus) {
  if (gpus == 0)
    reject(where, "a matrix in a report without a \"GPU Device list\" (how many GPUs?)");
  if (rows == 0 || rows > 3 * gpus) reject(where, tooMany(rows, "rows", gpus, 3 * gpus));
}

void checkCols(std::size_t cols, const Path& rowWhere, std::size_t gpus) {
  if (cols == 0 || cols > gpus) reject(rowWhere, tooMany(cols, "cells", gpus, gpus));
}

// Checks `value` as a grid and gives its cells, each made by `cell(value, where)`.
template <typename T, typename Cell>
Grid<T> readGrid(const Json& value, const Path& where, const EntryReading& reading, Cell cell) {
  if (!value.is_array()) wrongType(value, where, "an array of rows");
  Grid<T> grid;
  grid.rows = value.size();
  checkRows(grid.rows, where, reading.gpus);
  for (std::size_t r = 0; r < grid.rows; ++r) {
    throwIfStopped(*reading.stop);
    const Path rowWhere(where, r);
    const Json& row = value[r];
    if (!row.is_array()) wrongType(row, rowWhere, "an array of cells");
    if (r == 0) grid.cols = row.size();
    if (row.size() != grid.cols) reject(rowWhere, "the rows are of different lengths");
    checkCols(grid.cols, rowWhere, reading.gpus);
    for (std::size_t c = 0; c < grid.cols; ++c)
      grid.cells.push_back(cell(row[c], Path(rowWhere, c)));
  }
  return grid;
}

OrNull numberOrNull(const Json& v, const Path& at, const ValueRange& range) {
  if (v.is_null()) return std::nullopt;
  return number(v, at, range);
}

std::optional<CellStatistics> cellStatistics(const Json& cell, const Path& where,
                                             const ValueRange& range) {
  if (cell.is_null()) return std::nullopt;
  object(cell, where);
  CellStatistics s;
  eachElement(requiredMember(cell, "samples", where), Path(where, "samples"),
              [&](const Json& v, const Path& at) { s.samples.push_back(number(v, at, range)); });
  const ValueRange& spread = spreadOf(range);
  for (auto [key, into, in] :
       {std::tuple{"min", &s.min, &range}, std::tuple{"max", &s.max, &range},
        std::tuple{"mean", &s.mean, &range}, std::tuple{"median", &s.median, &range},
        std::tuple{"stddev", &s.stddev, &spread}})
    *into = number(requiredMember(cell, key, where), Path(where, key), *in);
  optional(cell, "cv", where, [&s](const Json& v, const Path& at) {
    if (!v.is_null()) s.cv = number(v, at, kNonNegative);
  });
  return s;
}

std::string cellText(const Json& cell, const Path& where, const ValueRange& range) {
  const std::string& text = string(cell, where);
  const auto value = cellTextValue(text);
  if (!value) reject(where, "\"" + text.substr(0, 32) + "\" is neither a number nor \"N/A\"");
  if (*value) number(**value, where, range);
  return text;
}

// The grids of one entry, each checked to be of the first one's shape.
class GridReader {
 public:
  GridReader(const Json& entry, const Path& where, const EntryReading& reading)
      : entry_(entry), where_(where), reading_(reading) {}

  // The entry's grid `key`, if it has one, with cells made by `cell(value, where)`.
  template <typename T, typename Cell>
  void read(const char* key, std::optional<Grid<T>>& into, Cell cell) {
    const Json* v = findMember(entry_, key);
    if (!v) return;
    into = readGrid<T>(*v, Path(where_, key), reading_, cell);
    const Shape shape{into->rows, into->cols};
    if (!first_) {
      first_ = shape;
      firstKey_ = key;
    } else if (!(shape == *first_)) {
      reject(Path(where_, key),
             "is " + shapeText(shape) + " but \"" + firstKey_ + "\" is " + shapeText(*first_));
    }
  }

  void numbers(const char* key, const ValueRange& range, std::optional<NumberGrid>& into) {
    read(key, into, [&range](const Json& c, const Path& at) { return numberOrNull(c, at, range); });
  }

  // The shape of the entry's grids, if it has any.
  const std::optional<Shape>& shape() const { return first_; }

 private:
  const Json& entry_;
  const Path& where_;
  const EntryReading& reading_;
  std::optional<Shape> first_;
  const char* firstKey_ = nullptr;
};

// The flagged cells must lie in the matrix the views draw them on.
void checkOutliers(const Json& entry, const Path& where, const Shape& shape) {
  optional(entry, "outliers", where, [&shape](const Json& list, const Path& at) {
    eachElement(list, at, [&shape](const Json& o, const Path& oat) {
      object(o, oat);
      for (auto [key, limit] : {std::pair{"row", shape.rows}, std::pair{"col", shape.cols}}) {
        const Json& v = requiredMember(o, key, oat);
        integer(v, Path(oat, key), 0);
        if (v.get<std::uint64_t>() >= limit) reject(Path(oat, key), "is outside the matrix");
      }
      optional(o, "below_median_percent", oat,
               [](const Json& x, const Path& xat) { number(x, xat, kAnyFinite); });
      optional(o, "class_median", oat,
               [](const Json& x, const Path& xat) { number(x, xat, kBandwidthRange); });
    });
  });
}

// Every grid of an entry: the same shape, within the report's bounds.
void readGrids(const Json& entry, const Path& where, const ValueRange& range,
               const EntryReading& reading, ReportEntry& out) {
  GridReader grids(entry, where, reading);
  grids.numbers("values", range, out.values);
  grids.read("bandwidth_matrix", out.texts,
             [&range](const Json& c, const Path& at) { return cellText(c, at, range); });
  grids.numbers("percent_of_peak", kPercentOfPeakRange, out.percents);
  grids.numbers("peak_GBps", kBandwidthRange, out.peaks);
  grids.read("cells", out.cells,
             [&range](const Json& c, const Path& at) { return cellStatistics(c, at, range); });
  grids.read("links", out.links, [](const Json& c, const Path& at) {
    return c.is_null() ? std::optional<std::string>() : string(c, at);
  });
  if (grids.shape()) checkOutliers(entry, where, *grids.shape());
}

void derive(ReportEntry& e) {
  if (!e.values && e.texts) {
    NumberGrid parsed{e.texts->rows, e.texts->cols, {}};
    parsed.cells.reserve(e.texts->cells.size());
    for (const std::string& text : e.texts->cells) parsed.cells.push_back(*cellTextValue(text));
    e.textValues = std::move(parsed);
  }
  e.parts = partsOfEntry(e);
}

}  // namespace

ReportEntry readEntry(const Json& entry, const Path& at, const EntryReading& reading) {
  object(entry, at);
  ReportEntry out;
  out.name = requiredString(entry, "name", at);
  const Path where(at, " (\"" + out.name.substr(0, 64) + "\")");
  const std::string& status = requiredString(entry, "status", where);
  const std::optional<Status> known = statusNamed(status);
  if (!known)
    reject(Path(where, "status"),
           "\"" + status.substr(0, 32) + "\" is none of Passed, Waived, ERROR, Running");
  out.status = *known;
  // Only an ERROR entry can lack a name: the one of an empty `-t ""`.
  if (out.name.empty() && out.status != Status::Error) reject(Path(at, "name"), "is empty");
  readFields(entry, out, where);
  out.unit = unitOfEntry(out.unitText, out.name);
  readGrids(entry, where, rangeOf(out.unit), reading, out);
  if (reading.scope == ReadScope::Matrices && out.values) out.texts.reset();
  derive(out);
  return out;
}

}  // namespace nvbw::model
