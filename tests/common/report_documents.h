// The tests write the reports they give the comparison as JSON documents; these read each as the
// tool reads a report file (the report reader: its checks, its messages) and hand over the Report.
#pragma once

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include "fleet/comparison/comparison.h"
#include "json_documents.h"
#include "model/report_writer.h"

namespace nvbw {

// GPUs enough for the matrices of `entries` (upstream's stacked ones have three rows a GPU).
inline nlohmann::json gpusFor(const nlohmann::json& entries) {
  std::size_t gpus = 1;
  if (entries.is_array())
    for (const nlohmann::json& e : entries)
      for (const char* key : {"values", "bandwidth_matrix"})
        if (e.is_object() && e.contains(key) && e[key].is_array())
          for (const nlohmann::json& row : e[key])
            if (row.is_array()) gpus = std::max(gpus, row.size());
  nlohmann::json devices = nlohmann::json::array();
  for (std::size_t i = 0; i < gpus; ++i) devices.push_back(std::to_string(i) + ": GPU");
  return devices;
}

// The tests' documents name no GPUs unless a test is about them; a report does (the reader
// checks matrices against them), so one without gets as many as its matrices need.
inline Report asReport(nlohmann::json document) {
  if (document.is_object() && document.contains("nvbandwidth") &&
      document["nvbandwidth"].is_object()) {
    nlohmann::json& run = document["nvbandwidth"];
    if (!run.contains("GPU Device list") && !run.contains("processes") && run.contains("testcases"))
      run["GPU Device list"] = gpusFor(run["testcases"]);
  }
  return reportOfDocument(document);
}

// A comparison with a baseline of one report (the tool's commands build their Baseline).
inline ComparisonSection compareReports(const Report& baseline, const Report& current,
                                        double tolerancePercent = kDefaultTolerancePercent,
                                        const StopRequest& stop = {}) {
  Baseline b;
  b.add(baseline, "baseline", stop);
  return compareWithBaseline(b, current, tolerancePercent, stop);
}

inline ComparisonSection compareReports(const nlohmann::json& baseline,
                                        const nlohmann::json& current,
                                        double tolerancePercent = kDefaultTolerancePercent,
                                        const StopRequest& stop = {}) {
  return compareReports(asReport(baseline), asReport(current), tolerancePercent, stop);
}

inline ComparisonSection compareWithBaseline(const Baseline& baseline,
                                             const nlohmann::json& current,
                                             double tolerancePercent = kDefaultTolerancePercent,
                                             const StopRequest& stop = {}) {
  return compareWithBaseline(baseline, asReport(current), tolerancePercent, stop);
}

inline void addDocument(Baseline& baseline, const nlohmann::json& document,
                        const std::string& label = "baseline") {
  baseline.add(asReport(document), label);
}

// Confirmation entries as a run's report holds them, beside GPUs enough for their matrices.
inline void applyConfirmations(ComparisonSection& c, const nlohmann::json& entries,
                               const ConfirmationRecord& summary) {
  const nlohmann::json document = {{"nvbandwidth",
                                    {{"schema_version", "1.0"},
                                     {"GPU Device list", gpusFor(entries)},
                                     {"testcases", nlohmann::json::array()},
                                     {"confirmations", entries}}}};
  applyConfirmations(c, asReport(document).confirmations.value(), summary);
}

}  // namespace nvbw
