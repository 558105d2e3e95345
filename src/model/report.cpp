#include "model/report.h"

#include <algorithm>

#include "core/text.h"

namespace nvbw {

namespace {

// What the cell (row, col) of a grid the entry may lack holds; nullptr or nullopt: nothing.
template <typename T>
const T* cellOf(const std::optional<Grid<std::optional<T>>>& grid, std::size_t row,
                std::size_t col) {
  return grid && grid->contains(row, col) && grid->at(row, col) ? &*grid->at(row, col) : nullptr;
}

OrNull numberOf(const NumberGrid* grid, std::size_t row, std::size_t col) {
  return grid && grid->contains(row, col) ? grid->at(row, col) : std::nullopt;
}

std::string gpusOf(const std::string& side, std::optional<std::uint64_t> logical) {
  return logical ? side + " is of " + std::to_string(*logical) +
                       " logical GPUs (NVBW_LOGICAL_GPUS: one GPU presented as several, a testing "
                       "aid)"
                 : side + " is of real GPUs";
}

}  // namespace

OrNull MatrixView::value(std::size_t row, std::size_t col) const {
  return numberOf(entry_->matrix(), part_->firstRow + row, col);
}

const CellStatistics* MatrixView::statistics(std::size_t row, std::size_t col) const {
  return cellOf(entry_->cells, part_->firstRow + row, col);
}

const std::string* MatrixView::link(std::size_t row, std::size_t col) const {
  return cellOf(entry_->links, part_->firstRow + row, col);
}

OrNull MatrixView::peak(std::size_t row, std::size_t col) const {
  return numberOf(entry_->peaks ? &*entry_->peaks : nullptr, part_->firstRow + row, col);
}

OrNull MatrixView::percent(std::size_t row, std::size_t col) const {
  return numberOf(entry_->percents ? &*entry_->percents : nullptr, part_->firstRow + row, col);
}

std::vector<MatrixView> Report::matrices() const {
  std::vector<MatrixView> views;
  if (!testcases) return views;
  for (const ReportEntry& entry : *testcases)
    if (entry.passedWithMatrix())
      for (const MatrixPart& part : entry.parts) views.emplace_back(entry, part);
  return views;
}

std::optional<std::string> logicalGpusMismatch(const std::string& aName,
                                               std::optional<std::uint64_t> a,
                                               const std::string& bName,
                                               std::optional<std::uint64_t> b) {
  if (a == b) return std::nullopt;
  return gpusOf(aName, a) + " and " + gpusOf(bName, b) + ": no verdict between them means anything";
}

DeviceListEntry readDeviceListEntry(const std::string& entry) {
  std::string rest = entry;
  const std::size_t colon = rest.find(": ");
  if (colon != std::string::npos && colon > 0 && rest.find_first_not_of("0123456789") == colon)
    rest.erase(0, colon + 2);
  DeviceListEntry out;
  const std::size_t hostStart = rest.rfind("): (");
  if (hostStart != std::string::npos && !rest.empty() && rest.back() == ')') {
    out.host = rest.substr(hostStart + 4, rest.size() - hostStart - 5);
    rest.erase(hostStart + 1);
  }
  const std::size_t bdf = rest.rfind(" (");
  if (bdf != std::string::npos && !rest.empty() && rest.back() == ')') rest.erase(bdf);
  out.model = rest;
  return out;
}

std::string MachineShape::text() const {
  if (models.empty()) return "unknown GPUs";
  return std::to_string(gpus) + " x " + joined(models, " + ");
}

MachineShape machineShapeOf(const Report& r) {
  MachineShape shape;
  std::vector<std::string> names;
  if (r.gpuDeviceList && !r.gpuDeviceList->empty()) {
    for (const std::string& entry : *r.gpuDeviceList)
      names.push_back(readDeviceListEntry(entry).model);
  } else if (r.processes) {
    for (const ProcessRecord& p : *r.processes) names.push_back(p.name.value_or(""));
  }
  shape.gpus = names.size();
  for (std::string& name : names) {
    if (name.empty()) name = "unknown";
    if (std::find(shape.models.begin(), shape.models.end(), name) == shape.models.end())
      shape.models.push_back(name);
  }
  return shape;
}

std::vector<std::string> runNotes(const Report& report) {
  std::vector<std::string> notes;
  if (report.error)
    notes.push_back("the run reported an error" +
                    (report.error->empty() ? std::string() : ": " + *report.error));
  if (report.interrupted)
    notes.push_back("the run was interrupted" +
                    (report.interrupted->empty() ? std::string() : " by " + *report.interrupted));
  return notes;
}

// ---- What an entry's names and titles say ----

namespace {

// The word just before `marker` in `text` ("GPU" in "... GPU(row) ..."), or "".
std::string wordBefore(const std::string& text, std::size_t marker) {
  std::size_t start = marker;
  while (start > 0 && text[start - 1] != ' ') --start;
  return text.substr(start, marker - start);
}

// The title of one part of a stacked entry: upstream's entry carries the last part's ("... Total
// bandwidth (GB/s)"); the parts are titled as this tool titles them ("... Read1 bandwidth ...").
std::string partTitle(std::string title, const std::string& suffix) {
  if (suffix == "_total") return title;
  const std::size_t at = title.find(" Total ");
  if (at == std::string::npos) return title;
  std::string word = suffix.substr(1);
  word[0] = static_cast<char>(word[0] - 'a' + 'A');
  return title.replace(at + 1, 5, word);
}

// Upstream's three matrices of the bidirectional device-to-device testcases (multinode ones
// included) in one entry of 3N rows and N columns: the keys this tool reports them under. nullopt
// for any other key, and for a key that is already one of the three.
std::optional<std::vector<std::string>> stackedSuffixes(const std::string& key) {
  for (const char* tail : {"_read1", "_read2", "_write1", "_write2", "_total"})
    if (endsWith(key, tail)) return std::nullopt;
  if (contains(key, "device_to_device_bidirectional_memcpy_read"))
    return std::vector<std::string>{"_read1", "_read2", "_total"};
  if (contains(key, "device_to_device_bidirectional_memcpy_write"))
    return std::vector<std::string>{"_write1", "_write2", "_total"};
  return std::nullopt;
}

}  // namespace

Unit unitOfEntry(const std::optional<std::string>& unitText, const std::string& key) {
  if (unitText) return *unitText == "ns" ? Unit::Nanoseconds : Unit::GBps;
  return contains(key, "latency") ? Unit::Nanoseconds : Unit::GBps;
}

MatrixAxes axesOfTitle(const std::string* title, const std::string& key) {
  MatrixAxes axes;
  axes.ranks = startsWith(key, "multinode");
  if (!title) return axes;
  const std::string& t = *title;
  axes.rowsNamed = contains(t, "(row");
  axes.colsNamed = contains(t, "(column)");
  const std::size_t colMark = t.find("(column)");
  const std::size_t rowMark = t.find("(row)");
  if (colMark != std::string::npos) axes.colWord = wordBefore(t, colMark);
  if (rowMark != std::string::npos && (colMark == std::string::npos || rowMark < colMark))
    axes.rowWord = wordBefore(t, rowMark);
  if (rowMark != std::string::npos && colMark != std::string::npos && rowMark < colMark) {
    axes.rowBeforeColumn = true;
    // Between "(row)" and the column's word: the arrow.
    std::string arrow = t.substr(rowMark + 5, colMark - axes.colWord.size() - rowMark - 5);
    arrow.erase(0, arrow.find_first_not_of(' '));
    arrow.erase(arrow.find_last_not_of(' ') + 1);
    axes.arrow = arrow;
  }
  return axes;
}

std::vector<MatrixPart> partsOfEntry(const ReportEntry& entry) {
  const NumberGrid* grid = entry.matrix();
  if (!grid) return {};
  const std::string title = entry.description.value_or("");
  const std::string* titled = entry.description ? &title : nullptr;
  const MatrixPart whole{entry.name, entry.testcase.value_or(entry.name), title, 0, grid->rows,
                         grid->cols, axesOfTitle(titled, entry.name)};
  const auto suffixes = entry.values ? std::nullopt : stackedSuffixes(entry.name);
  if (!suffixes || grid->rows == 0 || grid->rows != 3 * grid->cols) return {whole};
  std::vector<MatrixPart> parts;
  for (std::size_t i = 0; i < suffixes->size(); ++i) {
    MatrixPart p = whole;
    p.key = entry.name + (*suffixes)[i];
    p.title = partTitle(title, (*suffixes)[i]);
    p.firstRow = i * grid->cols;
    p.rows = grid->cols;
    p.axes = axesOfTitle(titled ? &p.title : nullptr, p.key);
    p.wholeEntry = false;
    parts.push_back(std::move(p));
  }
  return parts;
}

}  // namespace nvbw
