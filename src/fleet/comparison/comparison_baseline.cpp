#include "fleet/comparison/comparison_baseline.h"

#include <map>
#include <set>
#include <utility>

#include "core/error.h"
#include "model/report_writer.h"

namespace nvbw {

using namespace comparison;

namespace {

std::string settingText(const Json* value) {
  if (!value) return "absent";
  return value->is_string() ? value->get_ref<const std::string&>() : compactJson(*value);
}

}  // namespace

namespace comparison {

void noteSettings(const Json& b, const Json& c, const std::string& prefix,
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

}  // namespace comparison

namespace {

void mergeCells(const Matrix& m, HealthyMatrix& into) {
  if (into.cells.size() < m.values.size()) into.cells.resize(m.values.size());
  for (std::size_t r = 0; r < m.values.size(); ++r) {
    if (into.cells[r].size() < m.values[r].size()) into.cells[r].resize(m.values[r].size());
    for (std::size_t c = 0; c < m.values[r].size(); ++c) {
      const std::optional<double> value = m.values[r][c];
      if (!value) continue;
      into.cells[r][c].values.push_back(*value);
      if (const std::optional<double> spread = at(m.spread, r, c))
        into.cells[r][c].withinRun.push_back(*spread);
    }
  }
}

// The later report's differences from the first that make its numbers another machine's or
// another run's kind: its settings, its GPU count, its layout.
void noteDifferences(BaselineReports& side, const Side& r, const std::string& label) {
  std::vector<std::string>& notes = side.notes;
  if (side.settings && r.settings)
    noteSettings(*r.settings, *side.settings,
                 label + " against the first baseline report: ", notes);
  if (side.gpus && r.gpus && *side.gpus != *r.gpus)
    notes.push_back(label + ": " + std::to_string(*r.gpus) + " GPUs, the first baseline report " +
                    std::to_string(*side.gpus));
}

}  // namespace

void comparison::addBaselineReport(BaselineReports& side, const Report& report,
                                   const std::string& label, const StopRequest& stop) {
  throwIfStopped(stop);
  const Side r = sideOf(report, label);
  if (side.reports > 0)
    if (auto mismatch = logicalGpusMismatch("the first baseline report", side.logicalGpus, label,
                                            report.logicalGpus))
      throw UsageError(*mismatch);
  if (side.reports == 0) {
    side.logicalGpus = report.logicalGpus;
    side.machine = r.machine;
    side.statuses = r.statuses;
    side.settings = r.settings;
    side.gpus = r.gpus;
  } else {
    noteDifferences(side, r, label);
  }
  if (r.upstream)
    side.notes.push_back(label + ": upstream nvbandwidth v0.8 report: no samples, the prior "
                                 "run-to-run spread applies");
  side.notes.insert(side.notes.end(), r.runNotes.begin(), r.runNotes.end());
  // The n-th matrix of a key in this report joins the n-th of that key so far.
  std::map<std::string, std::vector<std::size_t>> byName;
  for (std::size_t i = 0; i < side.matrices.size(); ++i) byName[side.matrices[i].name].push_back(i);
  std::map<std::string, std::size_t> seen;
  for (const Matrix& m : r.matrices) {
    const std::size_t n = seen[m.name]++;
    const std::vector<std::size_t>& known = byName[m.name];
    if (n >= known.size()) {
      side.matrices.push_back({m.name, m.unit, {}});
      mergeCells(m, side.matrices.back());
      continue;
    }
    HealthyMatrix& into = side.matrices[known[n]];
    if (into.unit != m.unit) {
      side.notes.push_back(label + ": " + m.name + ": unit " + m.unit + " vs " + into.unit +
                           " in the first baseline report, left out");
      continue;
    }
    mergeCells(m, into);
  }
  ++side.reports;
}

}  // namespace nvbw
