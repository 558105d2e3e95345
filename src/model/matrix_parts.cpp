#include "core/text.h"
#include "model/report.h"

namespace nvbw {

namespace {

bool contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

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
  axes.ranks = key.compare(0, 9, "multinode") == 0;
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
  MatrixPart whole;
  whole.key = entry.name;
  whole.testcase = entry.testcase.value_or(entry.name);
  whole.title = title;
  whole.rows = grid->rows;
  whole.cols = grid->cols;
  whole.axes = axesOfTitle(titled, entry.name);
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
