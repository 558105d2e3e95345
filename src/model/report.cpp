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

namespace {

std::string gpusOf(const std::string& side, std::optional<std::uint64_t> logical) {
  return logical ? side + " is of " + std::to_string(*logical) +
                       " logical GPUs (NVBW_LOGICAL_GPUS: one GPU presented as several, a testing "
                       "aid)"
                 : side + " is of real GPUs";
}

}  // namespace

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

}  // namespace nvbw
