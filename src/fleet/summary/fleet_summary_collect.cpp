// Finding the reports, reading them a few at a time and gathering their rows (fleet_summary.h).
#include <algorithm>
#include <filesystem>
#include <future>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <utility>

#include "core/error.h"
#include "core/text.h"
#include "fleet/summary/fleet_summary_internal.h"

namespace nvbw {

namespace {

using namespace summary;
namespace fs = std::filesystem;

std::string stemOf(const std::string& file) {
  std::string name = fs::path(file).filename().string();
  if (name.size() > 5 && endsWith(name, ".json")) name.erase(name.size() - 5);
  return name.empty() ? file : name;
}

// Gathers the rows as the reports come, and the columns they name.
class Collector {
 public:
  Collector(FleetSummary& summary, const SummaryOptions& options)
      : summary_(summary), selected_(options.testcases.begin(), options.testcases.end()) {}

  void add(const std::string& file, ReportDigest digest) {
    FleetNode node = std::move(digest.node);
    node.file = file;
    if (node.hostSource.empty()) {
      node.host = stemOf(file);
      node.hostSource = "file name";
    }
    node.name = uniqueName(node.host);
    std::vector<EntryDigest> passed, statuses;
    std::map<std::string, std::size_t> seen;
    for (EntryDigest& e : digest.entries) {
      order(e.column.testcase);
      if (++seen[e.column.key] > 1) continue;  // a repeated key (-t 0 0, a sweep): the first counts
      if (e.cell.status == FleetStatus::Passed) {
        if (!isSelected(e.column.key, e.column.testcase)) continue;
        column(e.column);
        passed.push_back(std::move(e));
      } else {
        statuses.push_back(std::move(e));
      }
    }
    for (const auto& [name, count] : seen)
      if (count > 1)
        node.notes.push_back(name + " appears " + std::to_string(count) +
                             " times; the first is summarized");
    summary_.nodes.push_back(std::move(node));
    passed_.push_back(std::move(passed));
    statuses_.push_back(std::move(statuses));
  }

  void finish() {
    // Entries that did not pass and name no column yet (a testcase no node passed) get one of
    // their own when selected.
    for (const auto& node : statuses_)
      for (const EntryDigest& s : node)
        if (isSelected(s.column.key, s.column.key) && !matchesColumn(s.column.key))
          column({s.column.key, s.column.key, s.column.unit});
    // Columns in the order their testcases first appeared.
    std::vector<FleetColumn>& columns = summary_.columns;
    std::stable_sort(columns.begin(), columns.end(),
                     [this](const FleetColumn& a, const FleetColumn& b) {
                       return order_.at(a.testcase) < order_.at(b.testcase);
                     });
    for (std::size_t c = 0; c < columns.size(); ++c) index_[columns[c].key] = c;
    for (std::size_t n = 0; n < summary_.nodes.size(); ++n) {
      std::vector<FleetCell>& cells = summary_.nodes[n].cells;
      cells.assign(columns.size(), FleetCell());
      for (EntryDigest& p : passed_[n]) cells[index_.at(p.column.key)] = std::move(p.cell);
      for (EntryDigest& s : statuses_[n])
        for (std::size_t c = 0; c < columns.size(); ++c)
          if ((columns[c].testcase == s.column.key || columns[c].key == s.column.key) &&
              cells[c].status == FleetStatus::Missing)
            cells[c] = s.cell;
      passed_[n].clear();
      statuses_[n].clear();
    }
    for (const std::string& name : selected_)
      if (!matchesColumn(name))
        summary_.notes.push_back("selected testcase " + name + " is in no report");
  }

 private:
  bool isSelected(const std::string& key, const std::string& testcase) const {
    return selected_.empty() || selected_.count(key) || selected_.count(testcase);
  }

  bool matchesColumn(const std::string& name) const {
    const std::vector<FleetColumn>& columns = summary_.columns;
    return std::any_of(columns.begin(), columns.end(), [&name](const FleetColumn& c) {
      return c.key == name || c.testcase == name;
    });
  }

  void order(const std::string& testcase) { order_.emplace(testcase, order_.size()); }

  // The column `c` names, added unless a report named it before.
  void column(const FleetColumn& c) {
    if (!index_.emplace(c.key, summary_.columns.size()).second) return;
    order(c.testcase);
    summary_.columns.push_back(c);
  }

  std::string uniqueName(const std::string& host) {
    std::string name = host;
    for (std::size_t n = 2; !names_.insert(name).second; ++n) name = host + "#" + std::to_string(n);
    return name;
  }

  FleetSummary& summary_;
  std::set<std::string> selected_;
  std::set<std::string> names_;
  std::map<std::string, std::size_t> index_;  // into summary_.columns by key
  std::map<std::string, std::size_t> order_;
  std::vector<std::vector<EntryDigest>> passed_;
  std::vector<std::vector<EntryDigest>> statuses_;
};

// One file's digest, or why it has none.
struct Outcome {
  std::optional<ReportDigest> digest;
  std::string why;
};

// The reasons are readReport's, without the file's label (the summary names the file itself).
Outcome readOne(const std::string& file, const StopRequest& stop) {
  const NamedFile named{"--summarize", file};
  Outcome outcome;
  try {
    parseReportFile(named, stop,
                    [&](const std::string& text) { outcome.digest = digestReport(text, stop); });
  } catch (const ReportFileError& e) {
    outcome.why = e.what();
    const std::string prefix = named.label() + ": ";
    if (startsWith(outcome.why, prefix)) outcome.why.erase(0, prefix.size());
  }
  return outcome;
}

// Reading and digesting the files is most of the work: up to one file per core at a time (a
// window of them, so that no more texts are held at once), their rows added in file order. The
// stop request is asked by one thread at a time.
void readAll(const std::vector<std::string>& files, Collector& collector, FleetSummary& summary,
             const StopRequest& stop) {
  std::mutex asking;
  const StopRequest oneAtATime = [&asking, &stop] {
    const std::lock_guard<std::mutex> lock(asking);
    return stop ? stop() : 0;
  };
  const std::size_t window = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  for (std::size_t start = 0; start < files.size(); start += window) {
    throwIfStopped(oneAtATime);
    std::vector<std::future<Outcome>> reads;
    for (std::size_t i = start; i < std::min(files.size(), start + window); ++i)
      reads.push_back(
          std::async(std::launch::async, readOne, std::cref(files[i]), std::cref(oneAtATime)));
    for (std::size_t i = start; i < start + reads.size(); ++i) {
      Outcome outcome = reads[i - start].get();
      if (outcome.digest)
        collector.add(files[i], std::move(*outcome.digest));
      else
        summary.unreadable.push_back({files[i], outcome.why});
    }
  }
}

}  // namespace

FleetSummary summarizeReports(const FoundReports& found, const SummaryOptions& options,
                              const StopRequest& stop) {
  FleetSummary summary;
  for (const UnreadablePath& u : found.unreadable) summary.unreadable.push_back({u.path, u.reason});
  Collector collector(summary, options);
  readAll(found.files, collector, summary, stop);
  summary.reports = found.files.size();
  // Reports of logical GPUs (a testing aid) are never set beside real ones.
  for (const FleetNode& node : summary.nodes)
    if (auto mismatch =
            logicalGpusMismatch(summary.nodes.front().file, summary.nodes.front().logicalGpus,
                                node.file, node.logicalGpus))
      throw UsageError("--summarize: " + *mismatch);
  collector.finish();
  judgeFleet(summary);
  return summary;
}

}  // namespace nvbw
