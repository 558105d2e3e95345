#include "fleet/comparison/comparison.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include "fleet/comparison/comparison_report.h"

namespace nvbw {

using nlohmann::json;
using namespace comparison;

const char* verdictName(Verdict v) {
  switch (v) {
  case Verdict::Slower:
    return "SLOWER";
  case Verdict::Faster:
    return "FASTER";
  case Verdict::Same:
    break;
  }
  return "SAME";
}

std::size_t Comparison::count(Verdict v) const {
  return static_cast<std::size_t>(std::count_if(
      cells.begin(), cells.end(), [v](const CellComparison& c) { return c.verdict == v; }));
}

namespace {

// ---- Comparing ----

double changePercent(double baseline, double current) {
  if (baseline != 0.0) return (current - baseline) / baseline * 100.0;
  if (current == 0.0) return 0.0;
  return std::copysign(std::numeric_limits<double>::infinity(), current);
}

Verdict judge(double change, double band, bool lowerIsBetter) {
  if (std::fabs(change) <= band) return Verdict::Same;
  return (change > 0.0) != lowerIsBetter ? Verdict::Faster : Verdict::Slower;
}

CellComparison compareCell(const Matrix& b, const Matrix& c, std::size_t row, std::size_t col,
                           double tolerancePercent) {
  CellComparison cell;
  cell.name = b.name;
  cell.row = row;
  cell.col = col;
  cell.unit = b.unit;
  cell.baseline = *at(b.values, row, col);
  cell.current = *at(c.values, row, col);
  cell.changePercent = changePercent(cell.baseline, cell.current);
  const auto noiseB = at(b.noise, row, col);
  const auto noiseC = at(c.noise, row, col);
  const bool sampled = noiseB && noiseC;
  cell.basis = sampled ? "noise" : "tolerance";
  cell.bandPercent =
      sampled ? std::max({*noiseB, *noiseC, kRunToRunFloorPercent}) : tolerancePercent;
  cell.verdict = judge(cell.changePercent, cell.bandPercent, cell.unit == "ns");
  cell.noisy = sampled && std::max(*noiseB, *noiseC) > kNoisyBandPercent;
  return cell;
}

void compareMatrices(const Matrix& b, const Matrix& c, Comparison& out) {
  if (b.unit != c.unit) {
    out.notes.push_back(b.name + ": unit " + b.unit + " vs " + c.unit + ", not compared");
    out.onlyInBaseline.push_back(b.name);
    out.onlyInCurrent.push_back(c.name);
    return;
  }
  for (std::size_t r = 0; r < std::max(b.values.size(), c.values.size()); ++r) {
    const std::size_t cols = std::max(r < b.values.size() ? b.values[r].size() : 0,
                                      r < c.values.size() ? c.values[r].size() : 0);
    for (std::size_t col = 0; col < cols; ++col) {
      const bool inB = at(b.values, r, col).has_value();
      const bool inC = at(c.values, r, col).has_value();
      if (inB && inC)
        out.cells.push_back(compareCell(b, c, r, col, out.tolerancePercent));
      else if (inB)
        out.onlyInBaseline.push_back(b.name + cellSuffix(r, col));
      else if (inC)
        out.onlyInCurrent.push_back(c.name + cellSuffix(r, col));
    }
  }
}

// Pairs the matrices by key, a repeated key (`-t 0 0`) occurrence by occurrence.
void compareAllMatrices(const Report& b, const Report& c, Comparison& out) {
  std::map<std::string, std::deque<std::size_t>> unmatched;
  for (std::size_t i = 0; i < c.matrices.size(); ++i) unmatched[c.matrices[i].name].push_back(i);
  for (const Matrix& m : b.matrices) {
    auto& candidates = unmatched[m.name];
    if (candidates.empty()) {
      out.onlyInBaseline.push_back(m.name);
      continue;
    }
    compareMatrices(m, c.matrices[candidates.front()], out);
    candidates.pop_front();
  }
  std::vector<bool> left(c.matrices.size(), false);
  for (const auto& entry : unmatched)
    for (std::size_t i : entry.second) left[i] = true;
  for (std::size_t i = 0; i < c.matrices.size(); ++i)
    if (left[i]) out.onlyInCurrent.push_back(c.matrices[i].name);
}

std::string statusLabel(const StatusEntry& s) {
  const std::string name = s.name.empty() ? "\"\"" : s.name;  // an ERROR for `-t ""`
  return name + ": " + (s.status == "Passed" ? std::string("Passed, no matrix") : s.status);
}

// The status entries of `side` that the other side has no entry of the same key and status for.
void listUnmatchedStatuses(const std::vector<StatusEntry>& side,
                           const std::vector<StatusEntry>& other, std::vector<std::string>& out) {
  std::map<std::pair<std::string, std::string>, std::size_t> available;
  for (const StatusEntry& s : other) ++available[{s.name, s.status}];
  for (const StatusEntry& s : side) {
    std::size_t& n = available[{s.name, s.status}];
    if (n > 0)
      --n;
    else
      out.push_back(statusLabel(s));
  }
}

std::string settingText(const json* value) {
  if (!value) return "absent";
  return value->is_string() ? value->get<std::string>() : value->dump();
}

void noteSettings(const json& b, const json& c, std::vector<std::string>& notes) {
  std::set<std::string> keys;
  for (const auto& item : b.items()) keys.insert(item.key());
  for (const auto& item : c.items()) keys.insert(item.key());
  for (const std::string& key : keys) {
    const json* vb = findMember(b, key.c_str());
    const json* vc = findMember(c, key.c_str());
    if (!vb || !vc || *vb != *vc)
      notes.push_back(key + ": " + settingText(vb) + " vs " + settingText(vc));
  }
}

void noteDocuments(const Report& b, const Report& c, std::vector<std::string>& notes) {
  if (b.upstream)
    notes.push_back("baseline: upstream nvbandwidth v0.8 report: no samples, tolerance applies");
  if (c.upstream)
    notes.push_back("current: upstream nvbandwidth v0.8 report: no samples, tolerance applies");
  notes.insert(notes.end(), b.runNotes.begin(), b.runNotes.end());
  notes.insert(notes.end(), c.runNotes.begin(), c.runNotes.end());
  if (b.gpus && c.gpus && *b.gpus != *c.gpus)
    notes.push_back("GPUs: " + std::to_string(*b.gpus) + " vs " + std::to_string(*c.gpus));
  if (b.settings && c.settings) noteSettings(*b.settings, *c.settings, notes);
}

}  // namespace

Comparison compareReports(const json& baseline, const json& current, double tolerancePercent) {
  if (!std::isfinite(tolerancePercent) || tolerancePercent < 0.0)
    throw std::invalid_argument("the tolerance must be a percentage of 0 or more");
  const Report b = readReport(baseline, "baseline");
  const Report c = readReport(current, "current");
  Comparison out;
  out.tolerancePercent = tolerancePercent;
  noteDocuments(b, c, out.notes);
  compareAllMatrices(b, c, out);
  listUnmatchedStatuses(b.statuses, c.statuses, out.onlyInBaseline);
  listUnmatchedStatuses(c.statuses, b.statuses, out.onlyInCurrent);
  return out;
}

}  // namespace nvbw
