// The baseline of a comparison (comparison.h's Baseline): its reports merged.
#include <map>
#include <set>

#include "core/error.h"
#include "fleet/comparison/comparison.h"
#include "model/report_writer.h"

namespace nvbw {

using namespace comparison;

namespace {

std::string settingText(const Json* value) {
  if (!value) return "absent";
  return value->is_string() ? value->get_ref<const std::string&>() : compactJson(*value);
}

void mergeCells(const MatrixView& m, Baseline::Matrix& into) {
  if (into.cells.size() < m.rows()) into.cells.resize(m.rows());
  for (std::size_t r = 0; r < m.rows(); ++r) {
    if (into.cells[r].size() < m.cols()) into.cells[r].resize(m.cols());
    for (std::size_t c = 0; c < m.cols(); ++c) {
      const std::optional<double> value = m.value(r, c);
      if (!value) continue;
      into.cells[r][c].values.push_back(*value);
      if (const std::optional<double> spread = cellSpread(m, r, c))
        into.cells[r][c].withinRun.push_back(*spread);
    }
  }
}

}  // namespace

void comparison::noteSettings(const Json& b, const Json& c, const std::string& prefix,
                              std::vector<std::string>& notes) {
  std::set<std::string> keys;
  for (const auto& item : b.items()) keys.insert(item.key());
  for (const auto& item : c.items()) keys.insert(item.key());
  for (const std::string& key : keys) {
    const Json* vb = findMember(b, key);
    const Json* vc = findMember(c, key);
    if (!vb || !vc || *vb != *vc)
      notes.push_back(prefix + key + ": " + settingText(vb) + " vs " + settingText(vc));
  }
}

std::optional<std::string>
Baseline::logicalGpusProblem(const std::string& current,
                             std::optional<std::uint64_t> logicalGpus) const {
  if (reports_ == 0) return std::nullopt;
  return logicalGpusMismatch("the baseline", logicalGpus_, current, logicalGpus);
}

// The later report's differences from the first that make its numbers another machine's or
// another run's kind: its settings, its GPU count, its layout.
void Baseline::noteDifferences(const Side& r, const std::string& label) {
  if (first_.settings && r.settings)
    noteSettings(*r.settings, *first_.settings,
                 label + " against the first baseline report: ", notes_);
  if (first_.gpus && r.gpus && *first_.gpus != *r.gpus)
    notes_.push_back(label + ": " + std::to_string(*r.gpus) + " GPUs, the first baseline report " +
                     std::to_string(*first_.gpus));
}

void Baseline::add(const Report& report, const std::string& label, const StopRequest& stop) {
  throwIfStopped(stop);
  const Side r = sideOf(report, label);
  if (reports_ == 0) {
    logicalGpus_ = report.logicalGpus;
    first_ = r;
  } else if (auto mismatch = logicalGpusMismatch("the first baseline report", logicalGpus_, label,
                                                 report.logicalGpus)) {
    throw UsageError(*mismatch);
  } else {
    noteDifferences(r, label);
  }
  if (r.upstream)
    notes_.push_back(label + ": upstream nvbandwidth v0.8 report: no samples, the prior "
                             "run-to-run spread applies");
  notes_.insert(notes_.end(), r.runNotes.begin(), r.runNotes.end());
  // The n-th matrix of a key in this report joins the n-th of that key so far.
  std::map<std::string, std::vector<std::size_t>> byName;
  for (std::size_t i = 0; i < matrices_.size(); ++i) byName[matrices_[i].name].push_back(i);
  std::map<std::string, std::size_t> seen;
  for (const MatrixView& m : report.matrices()) {
    const std::string unit = unitName(m.unit());
    const std::size_t n = seen[m.key()]++;
    const std::vector<std::size_t>& known = byName[m.key()];
    if (n >= known.size()) matrices_.push_back({m.key(), unit, {}});
    Matrix& into = n < known.size() ? matrices_[known[n]] : matrices_.back();
    if (into.unit != unit) {
      notes_.push_back(label + ": " + m.key() + ": unit " + unit + " vs " + into.unit +
                       " in the first baseline report, left out");
      continue;
    }
    mergeCells(m, into);
  }
  ++reports_;
}

}  // namespace nvbw
