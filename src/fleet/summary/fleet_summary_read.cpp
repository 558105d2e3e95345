// One report reduced to what the fleet summary shows, read in one pass (fleet_summary_scan.h).
// What is read is checked as report_shape.cpp checks it, with its messages; what is skipped is
// only checked to be JSON.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <set>

#include "fleet/report_files.h"
#include "fleet/report_keys.h"
#include "fleet/report_shape.h"
#include "fleet/summary/fleet_summary_internal.h"
#include "fleet/summary/fleet_summary_scan.h"

namespace nvbw::summary {

namespace {

using Kind = JsonScanner::Kind;
constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();

using Range = ValueRange;
constexpr const Range& kBandwidth = kBandwidthRange;
constexpr const Range& kLatency = kLatencyRange;

[[noreturn]] void reject(const std::string& where, const std::string& why) {
  throw ReportShapeError(where + ": " + why);
}

std::string valueText(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

void checkRange(double v, const Range& range, const std::string& where) {
  if (!withinRange(v, range)) reject(where, valueText(v) + " is not " + range.what);
}

std::string cellSuffix(std::size_t r, std::size_t c) {
  return "[" + std::to_string(r) + "][" + std::to_string(c) + "]";
}

// A matrix as read: row-major, NaN for null (N/A).
struct Grid {
  bool present = false;
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::vector<double> cells;
  double at(std::size_t r, std::size_t c) const { return cells[r * cols + c]; }
};

// Everything of one testcase entry that is read, before it is checked and reduced.
struct RawEntry {
  std::size_t index = 0;
  std::optional<std::string> name, status, testcase, error, waiveReason, description, unit;
  std::optional<double> sum;
  Grid values, strings, percent, peak;
  // Upstream's string matrix, left unread until the entry turns out to have no "values" (this
  // tool's reports have both; parsing its strings would cost more than the rest of the report).
  const char* stringsFrom = nullptr;
  const char* stringsTo = nullptr;
};

// A matrix shape to check against the report's GPUs once they are known.
struct ShapeCheck {
  std::string where;
  std::size_t rows;
  std::size_t cols;
};

class ReportReader {
 public:
  ReportReader(const std::string& text, const StopRequest& stop)
      : text_(text), scan_(text, kMaxReportDepth), stop_(stop) {}

  // A fault in what is read is reported only once the whole text is known to be JSON: a text
  // that is not gets readReport's "not JSON" message, whatever else is wrong with it.
  ReportDigest read() {
    try {
      return readDocument();
    } catch (const ReportShapeError&) {
      scan_.skipRest();  // throws JsonInputError where the text is not JSON
      throw;
    }
  }

 private:
  ReportDigest readDocument() {
    if (scan_.peek() != Kind::Object)
      reject("the document", std::string("is ") + scan_.kindName(scan_.peek()) +
                                 ", not an object (an nvbandwidth -j report is)");
    scan_.enterObject();
    bool found = false;
    std::string key;
    while (scan_.nextKey(key)) {
      if (key == "nvbandwidth") {
        found = true;
        readRun();
      } else {
        scan_.skipValue();
      }
    }
    scan_.finish();
    if (!found)
      reject("the document", "has no \"nvbandwidth\" object (not an nvbandwidth -j report)");
    finishRun();
    return std::move(digest_);
  }

  std::string where(const std::string& key) const { return "nvbandwidth." + key; }

  static void expect(JsonScanner& scan, Kind kind, const std::string& at, const char* what) {
    const Kind k = scan.peek();
    if (k != kind) reject(at, std::string("is ") + scan.kindName(k) + ", not " + what);
  }
  void expect(Kind kind, const std::string& at, const char* what) { expect(scan_, kind, at, what); }

  std::string readString(const std::string& at) {
    expect(Kind::String, at, "a string");
    std::string s;
    scan_.readString(s);
    return s;
  }

  void readRun() {
    expect(Kind::Object, "nvbandwidth", "an object");
    resetRun();
    scan_.enterObject();
    std::string key;
    while (scan_.nextKey(key)) {
      if (key == "hostname") {
        hostname_ = readString(where(key));
      } else if (key == "GPU Device list") {
        readDeviceList();
      } else if (key == "processes") {
        readProcesses();
      } else if (key == "schema_version") {
        readString(where(key));
        schemaVersion_ = true;
      } else if (key == "error") {
        runError_ = readString(where(key));
      } else if (key == "interrupted") {
        interrupted_ = readString(where(key));
      } else if (key == "testcases") {
        readTestcases();
      } else if (key == "comparison") {
        readComparison();
      } else if (key == "expectations") {
        readExpectations();
      } else {
        scan_.skipValue();
      }
    }
  }

  // The verdict of each compared cell, counted by matrix key (SLOWER and UNSTABLE).
  void readComparison() {
    const std::string at = where("comparison");
    expect(Kind::Object, at, "an object");
    scan_.enterObject();
    std::string key;
    while (scan_.nextKey(key)) {
      if (key != "cells") {
        scan_.skipValue();
        continue;
      }
      readListed(at + ".cells", [this](const std::string& name, const std::string& verdict) {
        if (verdict == "SLOWER") ++verdicts_[name].slower;
        if (verdict == "UNSTABLE") ++verdicts_[name].unstable;
      });
    }
  }

  // The BELOW cells of each check, counted by matrix key.
  void readExpectations() {
    const std::string at = where("expectations");
    expect(Kind::Array, at, "an array");
    scan_.enterArray();
    for (std::size_t i = 0; scan_.nextElement(); ++i) {
      const std::string cat = at + "[" + std::to_string(i) + "]";
      expect(Kind::Object, cat, "an object");
      scan_.enterObject();
      std::string key;
      while (scan_.nextKey(key)) {
        if (key != "below") {
          scan_.skipValue();
          continue;
        }
        readListed(cat + ".below", [this](const std::string& name, const std::string&) {
          ++verdicts_[name].below;
        });
      }
    }
  }

  // An array of objects, each with a string "name" (and maybe a string "verdict"): `each(name,
  // verdict)` per element.
  template <typename Each> void readListed(const std::string& at, Each each) {
    expect(Kind::Array, at, "an array");
    scan_.enterArray();
    for (std::size_t i = 0; scan_.nextElement(); ++i) {
      const std::string eat = at + "[" + std::to_string(i) + "]";
      expect(Kind::Object, eat, "an object");
      scan_.enterObject();
      std::string key, name, verdict;
      while (scan_.nextKey(key)) {
        if (key == "name")
          name = readString(eat + ".name");
        else if (key == "verdict")
          verdict = readString(eat + ".verdict");
        else
          scan_.skipValue();
      }
      each(name, verdict);
    }
  }

  void countGpus(std::size_t n, const std::string& at) {
    if (n > kMaxReportGpus)
      reject(at, "lists " + std::to_string(n) + " GPUs; at most " + std::to_string(kMaxReportGpus));
  }

  void readDeviceList() {
    const std::string at = where("GPU Device list");
    expect(Kind::Array, at, "an array");
    devices_.clear();
    scan_.enterArray();
    while (scan_.nextElement()) {
      devices_.push_back(readString(at + "[" + std::to_string(devices_.size()) + "]"));
      countGpus(devices_.size(), at);
    }
  }

  void readProcesses() {
    const std::string at = where("processes");
    expect(Kind::Array, at, "an array");
    processCount_ = 0;
    processHost_.clear();
    processModels_.clear();
    scan_.enterArray();
    while (scan_.nextElement()) {
      const std::string pat = at + "[" + std::to_string(processCount_) + "]";
      expect(Kind::Object, pat, "an object");
      scan_.enterObject();
      std::string key;
      while (scan_.nextKey(key)) {
        if ((key == "host" || key == "name") && scan_.peek() == Kind::String) {
          std::string value;
          scan_.readString(value);
          if (key == "host" && processCount_ == 0) processHost_ = value;
          if (key == "name") processModels_.push_back(value);
        } else {
          scan_.skipValue();
        }
      }
      countGpus(++processCount_, at);
    }
  }

  void readTestcases() {
    const std::string at = where("testcases");
    expect(Kind::Array, at, "an array");
    haveTestcases_ = true;
    digest_.entries.clear();
    shapes_.clear();
    scan_.enterArray();
    std::size_t index = 0;
    while (scan_.nextElement()) {
      throwIfStopped(stop_);
      readEntry(index++);
    }
  }

  // "a report of 8 GPUs has 1 to 24", or "at most 12288" while the GPUs are not known yet.
  static std::string limitText(std::size_t gpus, std::size_t most) {
    if (gpus == 0) return "1 to " + std::to_string(most) + " in any report";
    return "a report of " + std::to_string(gpus) + " GPUs has 1 to " + std::to_string(most);
  }

  // Cells of a matrix, checked for type as they come; ranges wait for the entry's unit. Rows
  // and cells beyond what the report's GPUs (or, before they are known, any report's) allow are
  // counted, not kept, so that the message says how many there were, as report_shape's does.
  void readGrid(JsonScanner& scan, Grid& grid, const std::string& at, bool strings) {
    expect(scan, Kind::Array, at, "an array of rows");
    grid = Grid();
    grid.present = true;
    const std::size_t gpus = knownGpus();
    const std::size_t maxRows = 3 * (gpus ? gpus : kMaxReportGpus);
    const std::size_t maxCols = gpus ? gpus : kMaxReportGpus;
    std::string text;
    std::size_t rows = 0;
    scan.enterArray();
    while (scan.nextElement()) {
      throwIfStopped(stop_);
      if (rows++ >= maxRows) {
        scan.skipValue();
        continue;
      }
      const std::string rowAt = at + "[" + std::to_string(grid.rows) + "]";
      expect(scan, Kind::Array, rowAt, "an array of cells");
      std::size_t cols = 0;
      scan.enterArray();
      while (scan.nextElement()) {
        if (cols++ >= maxCols) {
          scan.skipValue();
          continue;
        }
        const Kind k = scan.peek();
        const auto cellAt = [&] { return rowAt + "[" + std::to_string(cols - 1) + "]"; };
        if (strings) {
          if (k != Kind::String)
            reject(cellAt(), std::string("is ") + scan.kindName(k) + ", not a string");
          scan.readString(text);
          const auto value = parseCellText(text, cellAt());
          grid.cells.push_back(value ? *value : kNoValue);
        } else if (k == Kind::Null) {
          scan.readNull();
          grid.cells.push_back(kNoValue);
        } else if (k == Kind::Number) {
          grid.cells.push_back(scan.readNumber());
        } else {
          reject(cellAt(), std::string("is ") + scan.kindName(k) + ", not a number");
        }
      }
      if (grid.rows == 0) grid.cols = cols;
      if (cols != grid.cols) reject(rowAt, "the rows are of different lengths");
      if (cols == 0 || cols > maxCols)
        reject(rowAt, "has " + std::to_string(cols) + " cells; " + limitText(gpus, maxCols));
      ++grid.rows;
    }
    if (rows == 0 || rows > maxRows)
      reject(at, "has " + std::to_string(rows) + " rows; " + limitText(gpus, maxRows));
  }

  std::size_t knownGpus() const { return std::max(devices_.size(), processCount_); }

  void readEntry(std::size_t index) {
    const std::string at = where("testcases[" + std::to_string(index) + "]");
    expect(Kind::Object, at, "an object");
    RawEntry e;
    e.index = index;
    std::string key;
    scan_.enterObject();
    while (scan_.nextKey(key)) {
      // Where a value is: with the entry's name once it has been read (the tool writes "name"
      // before the matrices that report_shape names the entry by).
      const std::string kat =
          (e.name ? at + " (\"" + e.name->substr(0, 64) + "\")" : at) + "." + key;
      if (key == "name") {
        e.name = readString(kat);
      } else if (key == "status") {
        e.status = readString(kat);
      } else if (key == "testcase") {
        e.testcase = readString(kat);
      } else if (key == "error") {
        e.error = readString(kat);
      } else if (key == "waive_reason") {
        e.waiveReason = readString(kat);
      } else if (key == "bandwidth_description") {
        e.description = readString(kat);
      } else if (key == "unit") {
        e.unit = readString(kat);
      } else if (key == "sum") {
        expect(Kind::Number, kat, "a number");
        e.sum = scan_.readNumber();
      } else if (key == "values") {
        readGrid(scan_, e.values, kat, false);
      } else if (key == "bandwidth_matrix") {
        scan_.peek();
        e.stringsFrom = scan_.position();
        scan_.skipValue();
        e.stringsTo = scan_.position();
      } else if (key == "percent_of_peak") {
        readGrid(scan_, e.percent, kat, false);
      } else if (key == "peak_GBps") {
        readGrid(scan_, e.peak, kat, false);
      } else {
        scan_.skipValue();
      }
    }
    finishEntry(e, at);
  }

  void finishEntry(RawEntry& e, const std::string& at) {
    if (!e.name) reject(at, "has no \"name\"");
    const std::string& name = *e.name;
    const std::string where = at + " (\"" + name.substr(0, 64) + "\")";
    if (e.stringsFrom && !e.values.present) {
      // The nesting was checked by the skip; this scanner starts inside the entry.
      JsonScanner strings(text_.data(), e.stringsFrom, e.stringsTo, kMaxReportDepth);
      readGrid(strings, e.strings, where + ".bandwidth_matrix", true);
      strings.finish();
    }
    if (!e.status) reject(where, "has no \"status\"");
    const std::string& status = *e.status;
    if (status != "Passed" && status != "Waived" && status != "ERROR" && status != "Running")
      reject(where + ".status",
             "\"" + status.substr(0, 32) + "\" is none of Passed, Waived, ERROR, Running");
    if (name.empty() && status != "ERROR") reject(at + ".name", "is empty");
    bool latency = name.find("latency") != std::string::npos;
    if (e.unit) {
      if (*e.unit != "GB/s" && *e.unit != "ns")
        reject(where + ".unit", "is neither \"GB/s\" nor \"ns\"");
      latency = *e.unit == "ns";
    }
    const Range& range = latency ? kLatency : kBandwidth;
    if (e.sum) checkRange(*e.sum, range, where + ".sum");
    // The matrices read: one shape, values within range.
    const Grid* first = nullptr;
    const char* firstKey = nullptr;
    const std::pair<const char*, const Grid*> grids[] = {{keys::kValues, &e.values},
                                                         {keys::kBandwidthMatrix, &e.strings},
                                                         {keys::kPercentOfPeak, &e.percent},
                                                         {keys::kPeakGBps, &e.peak}};
    for (const auto& [key, grid] : grids) {
      if (!grid->present) continue;
      const std::string gat = where + "." + key;
      if (!first) {
        first = grid;
        firstKey = key;
      } else if (grid->rows != first->rows || grid->cols != first->cols) {
        reject(gat, "is " + std::to_string(grid->rows) + " x " + std::to_string(grid->cols) +
                        " but \"" + firstKey + "\" is " + std::to_string(first->rows) + " x " +
                        std::to_string(first->cols));
      }
      const Range& cellRange = grid == &e.percent ? kPercentOfPeakRange
                               : grid == &e.peak  ? kBandwidth
                                                  : range;
      for (std::size_t i = 0; i < grid->cells.size(); ++i)
        if (!std::isnan(grid->cells[i]) && !withinRange(grid->cells[i], cellRange))
          checkRange(grid->cells[i], cellRange, gat + cellSuffix(i / grid->cols, i % grid->cols));
      shapes_.push_back({gat, grid->rows, grid->cols});
    }
    if (status != "Passed" || (!e.values.present && !e.strings.present)) {
      EntryDigest d;
      d.name = name;
      d.testcase = e.testcase.value_or("");
      d.status = status;
      d.message = status == "Waived" ? e.waiveReason.value_or("") : e.error.value_or("");
      d.latency = latency;
      d.description = e.description.value_or("");
      digest_.entries.push_back(std::move(d));
      return;
    }
    const Grid& values = e.values.present ? e.values : e.strings;
    const char* const* suffixes = e.values.present ? nullptr : stackedSuffixes(name);
    if (suffixes && values.rows == 3 * values.cols) {
      // Upstream's three matrices in one entry: split as --compare splits them.
      for (std::size_t part = 0; part < 3; ++part) {
        Grid slice;
        slice.present = true;
        slice.rows = values.cols;
        slice.cols = values.cols;
        slice.cells.assign(values.cells.begin() + part * values.cols * values.cols,
                           values.cells.begin() + (part + 1) * values.cols * values.cols);
        addMatrix(name + suffixes[part], name, e, slice, Grid(), Grid(), std::nullopt, latency);
      }
      return;
    }
    addMatrix(name, e.testcase.value_or(""), e, values, e.percent, e.peak, e.sum, latency);
  }

  void addMatrix(const std::string& name, const std::string& testcase, const RawEntry& e,
                 const Grid& values, const Grid& percent, const Grid& peak,
                 std::optional<double> reportedSum, bool latency) {
    EntryDigest d;
    d.name = name;
    d.testcase = testcase;
    d.status = "Passed";
    d.latency = latency;
    d.description = e.description.value_or("");
    double sum = 0.0, peakSum = 0.0, valueWithPeakSum = 0.0;
    bool any = false, anyPeak = false;
    for (std::size_t r = 0; r < values.rows; ++r) {
      for (std::size_t c = 0; c < values.cols; ++c) {
        const double v = values.at(r, c);
        if (std::isnan(v)) continue;
        sum += v;
        if (!any || (latency ? v > d.worst : v < d.worst)) {
          d.worst = v;
          d.worstRow = static_cast<std::uint32_t>(r);
          d.worstCol = static_cast<std::uint32_t>(c);
        }
        any = true;
        // A cell's peak: the report's, else what its percent of peak implies.
        double cellPeak = peak.present ? peak.at(r, c) : kNoValue;
        if (std::isnan(cellPeak) && percent.present && percent.at(r, c) > 0.0)
          cellPeak = 100.0 * v / percent.at(r, c);
        if (!std::isnan(cellPeak) && cellPeak > 0.0) {
          peakSum += cellPeak;
          valueWithPeakSum += v;
          anyPeak = true;
        }
      }
    }
    d.hasMatrix = any;
    d.sum = reportedSum.value_or(sum);
    if (any) {
      d.worstCell = cellName(d.description, values.rows, d.worstRow, d.worstCol);
      if (percent.present && !std::isnan(percent.at(d.worstRow, d.worstCol)))
        d.worstPercentOfPeak = percent.at(d.worstRow, d.worstCol);
      if (anyPeak && !latency) d.percentOfPeak = 100.0 * valueWithPeakSum / peakSum;
    }
    digest_.entries.push_back(std::move(d));
  }

  void finishRun() {
    if (!haveTestcases_)
      reject("nvbandwidth", "has no \"testcases\" (an nvbandwidth -j report has)");
    const std::size_t gpus = knownGpus();
    for (const ShapeCheck& s : shapes_) {
      if (gpus == 0)
        reject(s.where, "a matrix in a report without a \"GPU Device list\" (how many GPUs?)");
      if (s.rows > 3 * gpus)
        reject(s.where, "has " + std::to_string(s.rows) + " rows; a report of " +
                            std::to_string(gpus) + " GPUs has 1 to " + std::to_string(3 * gpus));
      if (s.cols > gpus)
        reject(s.where + "[0]", "has " + std::to_string(s.cols) + " cells; a report of " +
                                    std::to_string(gpus) + " GPUs has 1 to " +
                                    std::to_string(gpus));
    }
    digest_.upstream = !schemaVersion_;
    describeGpus();
    nameHost();
    for (EntryDigest& e : digest_.entries)
      if (const auto found = verdicts_.find(e.name); found != verdicts_.end())
        e.verdicts = found->second;
    if (runError_) digest_.notes.push_back("the run reported an error: " + *runError_);
    if (interrupted_) digest_.notes.push_back("the run was interrupted by " + *interrupted_);
  }

  // "0: NVIDIA H200 (00000000:19:00): (gpu-node-01)" -> model "NVIDIA H200", host "gpu-node-01".
  static void splitDevice(const std::string& entry, std::string& model, std::string& host) {
    std::string rest = entry;
    const std::size_t colon = rest.find(": ");
    if (colon != std::string::npos && colon > 0 && rest.find_first_not_of("0123456789") == colon)
      rest.erase(0, colon + 2);
    host.clear();
    const std::size_t hostStart = rest.rfind("): (");
    if (hostStart != std::string::npos && !rest.empty() && rest.back() == ')') {
      host = rest.substr(hostStart + 4, rest.size() - hostStart - 5);
      rest.erase(hostStart + 1);
    }
    const std::size_t bdf = rest.rfind(" (");
    if (bdf != std::string::npos && !rest.empty() && rest.back() == ')') rest.erase(bdf);
    model = rest;
  }

  void describeGpus() {
    std::vector<std::string> models;
    const bool fromDevices = !devices_.empty();
    const std::vector<std::string>& list = fromDevices ? devices_ : processModels_;
    for (const std::string& entry : list) {
      std::string model, host;
      if (fromDevices)
        splitDevice(entry, model, host);
      else
        model = entry;
      if (fromDevices && deviceHost_.empty() && !host.empty()) deviceHost_ = host;
      if (model.empty()) model = "unknown";
      if (std::find(models.begin(), models.end(), model) == models.end()) models.push_back(model);
    }
    digest_.gpuCount = fromDevices ? devices_.size() : processCount_;
    std::string joined;
    for (const std::string& m : models) joined += (joined.empty() ? "" : " + ") + m;
    digest_.gpuModel = joined.empty() ? "unknown" : joined;
  }

  void nameHost() {
    if (!hostname_.empty()) {
      digest_.host = hostname_;
      digest_.hostSource = "hostname";
    } else if (!deviceHost_.empty()) {
      digest_.host = deviceHost_;
      digest_.hostSource = "GPU Device list";
    } else if (!processHost_.empty()) {
      digest_.host = processHost_;
      digest_.hostSource = "processes";
    }
  }

  const std::string& text_;
  JsonScanner scan_;
  const StopRequest& stop_;  // asked every entry and matrix row
  // What the "nvbandwidth" object holds; a repeated key replaces what an earlier one gave, as
  // a repeated "nvbandwidth" replaces all of it (the last wins, as for parseBoundedJson).
  ReportDigest digest_;
  std::string hostname_;
  std::vector<std::string> devices_;
  std::size_t processCount_ = 0;
  std::string processHost_;
  std::vector<std::string> processModels_;
  std::string deviceHost_;
  bool schemaVersion_ = false;
  bool haveTestcases_ = false;
  std::optional<std::string> runError_;
  std::optional<std::string> interrupted_;
  std::vector<ShapeCheck> shapes_;
  std::map<std::string, ReportVerdicts> verdicts_;  // the report's own, by matrix key

  void resetRun() {
    digest_ = ReportDigest();
    hostname_.clear();
    devices_.clear();
    processCount_ = 0;
    processHost_.clear();
    processModels_.clear();
    deviceHost_.clear();
    schemaVersion_ = false;
    haveTestcases_ = false;
    runError_.reset();
    interrupted_.reset();
    shapes_.clear();
    verdicts_.clear();
  }
};

// The word just before `marker` in `text` ("GPU" in "... GPU(row) ..."), or "".
std::string wordBefore(const std::string& text, std::size_t marker) {
  std::size_t start = marker;
  while (start > 0 && text[start - 1] != ' ') --start;
  return text.substr(start, marker - start);
}

}  // namespace

const char* const* stackedSuffixes(const std::string& key) {
  static const char* const read[] = {"_read1", "_read2", "_total"};
  static const char* const write[] = {"_write1", "_write2", "_total"};
  const auto endsWith = [&key](const char* tail) {
    const std::size_t n = std::strlen(tail);
    return key.size() >= n && key.compare(key.size() - n, n, tail) == 0;
  };
  for (const char* tail : {"_read1", "_read2", "_write1", "_write2", "_total"})
    if (endsWith(tail)) return nullptr;
  if (key.find("device_to_device_bidirectional_memcpy_read") != std::string::npos) return read;
  if (key.find("device_to_device_bidirectional_memcpy_write") != std::string::npos) return write;
  return nullptr;
}

std::string cellName(const std::string& description, std::size_t rows, std::size_t row,
                     std::size_t col) {
  const std::size_t rowMark = description.find("(row)");
  const std::size_t colMark = description.find("(column)");
  if (colMark == std::string::npos) return cellSuffix(row, col);
  const std::string colWord = wordBefore(description, colMark);
  const std::string column = (colWord.empty() ? "GPU" : colWord) + " " + std::to_string(col);
  if (rowMark == std::string::npos || rowMark > colMark) return column;
  const std::string rowWord = wordBefore(description, rowMark);
  // Between "(row)" and the column's word: the arrow.
  std::string arrow = description.substr(rowMark + 5, colMark - colWord.size() - rowMark - 5);
  arrow.erase(0, arrow.find_first_not_of(' '));
  arrow.erase(arrow.find_last_not_of(' ') + 1);
  if (arrow.empty()) arrow = "->";
  if (rows == 1) {
    if (rowWord == "CPU") return "CPU " + arrow + " " + column;
    return column;
  }
  return (rowWord.empty() ? "GPU" : rowWord) + " " + std::to_string(row) + " " + arrow + " " +
         column;
}

ReportDigest digestReport(const std::string& text, const StopRequest& stop) {
  return ReportReader(text, stop).read();
}

}  // namespace nvbw::summary
