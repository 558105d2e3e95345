#include "fleet/comparison/comparison_report.h"

#include <array>
#include <cmath>
#include <locale>
#include <sstream>

#include "fleet/report_keys.h"

namespace nvbw::comparison {

std::string cellSuffix(std::size_t row, std::size_t col) {
  return "[" + std::to_string(row) + "][" + std::to_string(col) + "]";
}

const json* findMember(const json& object, const char* key) {
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

namespace {

// `rows` must be an array of arrays; `readCell(cell, "key[r][c]")` gives a value or N/A.
template <typename ReadCell>
auto readGrid(const json& rows, const std::string& key, const Where& where, ReadCell readCell) {
  if (!rows.is_array()) where.reject("\"" + key + "\" is not an array of rows");
  std::vector<std::vector<decltype(readCell(rows, key))>> grid;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (!rows[r].is_array()) where.reject(key + "[" + std::to_string(r) + "] is not an array");
    auto& row = grid.emplace_back();
    for (std::size_t c = 0; c < rows[r].size(); ++c)
      row.push_back(readCell(rows[r][c], key + cellSuffix(r, c)));
  }
  return grid;
}

double finiteNumber(const json& value, const std::string& what, const Where& where) {
  if (!value.is_number()) where.reject(what + " is not a number");
  const double number = value.get<double>();
  if (!std::isfinite(number)) where.reject(what + " is not finite");
  return number;
}

// Upstream's cells are iostream-formatted strings ("55.4859", "1.23457e+06") or "N/A".
std::optional<double> upstreamCell(const json& cell, const std::string& what, const Where& where) {
  if (cell.is_number()) return finiteNumber(cell, what, where);
  if (!cell.is_string()) where.reject(what + " is not a string");
  const std::string& text = cell.get_ref<const std::string&>();
  if (text == "N/A") return std::nullopt;
  std::istringstream in(text);
  in.imbue(std::locale::classic());  // a global locale must not change the decimal point
  double value = 0.0;
  if (!(in >> value) || in.peek() != std::char_traits<char>::eof() || !std::isfinite(value))
    where.reject(what + " is neither a number nor \"N/A\": \"" + text + "\"");
  return value;
}

// The spread of a cell's samples; nullopt with fewer than 2 samples, where it says nothing about
// noise, or a median of 0, against which no spread is relative.
std::optional<Spread> cellSpread(const json& cell, const std::string& what, const Where& where) {
  if (cell.is_null()) return std::nullopt;
  if (!cell.is_object()) where.reject(what + " is neither an object nor null");
  const json* samples = findMember(cell, keys::kSamples);
  if (!samples || !samples->is_array()) where.reject(what + ".samples is not an array");
  auto stat = [&](const char* key) {
    const json* value = findMember(cell, key);
    if (!value) where.reject(what + " has no \"" + key + "\"");
    return finiteNumber(*value, what + "." + key, where);
  };
  const double median = stat("median");
  const double min = stat("min");
  const double max = stat("max");
  const double spread = std::max(2.0 * stat("stddev"), max - min);
  if (samples->size() < 2 || median <= 0.0) return std::nullopt;
  return Spread{100.0 * spread / median, min, max};
}

std::string unitOf(const json& entry, const std::string& name, const Where& where) {
  const json* unit = findMember(entry, keys::kUnit);
  if (!unit) return name.find("latency") != std::string::npos ? "ns" : "GB/s";
  if (!unit->is_string() || (*unit != "GB/s" && *unit != "ns"))
    where.reject("\"unit\" is neither \"GB/s\" nor \"ns\"");
  return unit->get<std::string>();
}

// The suffixes of the three matrices upstream stacks into one entry for `key`, if it stacks.
std::optional<std::array<const char*, 3>> stackedSuffixes(const std::string& key) {
  const auto has = [&key](const char* part) { return key.find(part) != std::string::npos; };
  const auto endsWith = [&key](const std::string& tail) {
    return key.size() >= tail.size() &&
           key.compare(key.size() - tail.size(), tail.size(), tail) == 0;
  };
  for (const char* tail : {"_read1", "_read2", "_write1", "_write2", "_total"})
    if (endsWith(tail)) return std::nullopt;  // already one matrix of the three
  if (has("device_to_device_bidirectional_memcpy_read"))
    return std::array<const char*, 3>{"_read1", "_read2", "_total"};
  if (has("device_to_device_bidirectional_memcpy_write"))
    return std::array<const char*, 3>{"_write1", "_write2", "_total"};
  return std::nullopt;
}

// Upstream appends the rows of a bidirectional testcase's three N x N matrices to one entry
// (3N rows: read1/write1, read2/write2, total); this tool reports three entries.
void splitStacked(Matrix stacked, std::vector<Matrix>& out) {
  const auto suffixes = stackedSuffixes(stacked.name);
  const std::size_t rows = stacked.values.size();
  const std::size_t cols = rows == 0 ? 0 : stacked.values[0].size();
  if (!suffixes || rows == 0 || rows != 3 * cols) {
    out.push_back(std::move(stacked));
    return;
  }
  for (std::size_t part = 0; part < 3; ++part) {
    Matrix m{stacked.name + (*suffixes)[part], stacked.unit, {}, {}, stacked.testcase, {}};
    m.values.assign(stacked.values.begin() + part * cols,
                    stacked.values.begin() + (part + 1) * cols);
    out.push_back(std::move(m));
  }
}

std::string requiredString(const json& entry, const char* key, const Where& where) {
  const json* value = findMember(entry, key);
  if (!value || !value->is_string()) where.reject(std::string("\"") + key + "\" is not a string");
  return value->get<std::string>();
}

// The entry's matrix with its testcase and sweep size (values and spreads are read by the caller).
Matrix matrixOf(const json& entry, const std::string& name, const Where& where) {
  Matrix m{name, unitOf(entry, name, where), {}, {}, name, {}};
  if (findMember(entry, keys::kTestcase))
    m.testcase = requiredString(entry, keys::kTestcase, where);
  if (const json* size = findMember(entry, keys::kBufferSizeMiB)) {
    if (!size->is_number_integer() || size->get<std::int64_t>() < 1)
      where.reject("\"bufferSize_MiB\" is not a whole number of MiB");
    m.bufferSizeMiB = size->get<std::uint64_t>();
  }
  return m;
}

void readOurMatrix(const json& entry, const json& values, Matrix m, const Where& where,
                   std::vector<Matrix>& out) {
  m.values = readGrid(values, keys::kValues, where,
                      [&where](const json& cell, const std::string& what) -> std::optional<double> {
                        if (cell.is_null()) return std::nullopt;
                        return finiteNumber(cell, what, where);
                      });
  if (const json* cells = findMember(entry, keys::kCells))
    m.spread =
        readGrid(*cells, keys::kCells, where, [&where](const json& cell, const std::string& what) {
          return cellSpread(cell, what, where);
        });
  out.push_back(std::move(m));
}

void readMatrixEntry(const json& entry, const std::string& name, const Where& where,
                     Report& report) {
  Matrix m = matrixOf(entry, name, where);
  const json* values = findMember(entry, keys::kValues);
  if (!values) {  // upstream's layout: strings only, no samples
    m.values = readGrid(*findMember(entry, keys::kBandwidthMatrix), keys::kBandwidthMatrix, where,
                        [&where](const json& cell, const std::string& what) {
                          return upstreamCell(cell, what, where);
                        });
    splitStacked(std::move(m), report.matrices);
    return;
  }
  readOurMatrix(entry, *values, std::move(m), where, report.matrices);
}

void readEntry(const json& entry, const Where& at, Report& report) {
  if (!entry.is_object()) at.reject("is not an object");
  const std::string name = requiredString(entry, keys::kName, at);
  const Where where{at.side, at.path + " (\"" + name + "\")"};
  const std::string status = requiredString(entry, keys::kStatus, where);
  if (status == "Passed" &&
      (findMember(entry, keys::kValues) || findMember(entry, keys::kBandwidthMatrix)))
    readMatrixEntry(entry, name, where, report);
  else
    report.statuses.push_back({name, status});
}

}  // namespace

void readOurEntry(const json& entry, const Where& at, std::vector<Matrix>& out) {
  if (!entry.is_object()) at.reject("is not an object");
  const std::string name = requiredString(entry, keys::kName, at);
  const Where where{at.side, at.path + " (\"" + name + "\")"};
  const json* values = findMember(entry, keys::kValues);
  if (requiredString(entry, keys::kStatus, where) != keys::kPassed || !values) return;
  readOurMatrix(entry, *values, matrixOf(entry, name, where), where, out);
}

Report readReport(const json& document, const std::string& side, const StopRequest& stop) {
  const Where where{side, ""};
  const json* run = document.is_object() ? findMember(document, keys::kRoot) : nullptr;
  const json* testcases = run && run->is_object() ? findMember(*run, keys::kTestcases) : nullptr;
  if (!testcases || !testcases->is_array()) where.reject("no \"nvbandwidth\".\"testcases\" array");
  Report report;
  report.upstream = !findMember(*run, keys::kSchemaVersion);
  if (const json* settings = findMember(*run, keys::kSettings); settings && settings->is_object())
    report.settings = *settings;
  if (const json* devices = findMember(*run, keys::kGpuDeviceList); devices && devices->is_array())
    report.gpus = devices->size();
  if (const json* error = findMember(*run, keys::kError); error && error->is_string())
    report.runNotes.push_back(side + ": the run reported an error: " + error->get<std::string>());
  if (const json* signal = findMember(*run, keys::kInterrupted); signal && signal->is_string())
    report.runNotes.push_back(side + ": the run was interrupted by " + signal->get<std::string>());
  for (std::size_t i = 0; i < testcases->size(); ++i) {
    throwIfStopped(stop);
    readEntry((*testcases)[i], Where{side, "testcases[" + std::to_string(i) + "]"}, report);
  }
  return report;
}

}  // namespace nvbw::comparison
