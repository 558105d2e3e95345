// The metrics view of a report: the Prometheus text exposition format (version 0.0.4) for
// node_exporter's textfile collector, rendered from the Report alone (model/report.h). Pure: no
// clock, no host name, no locale; the same report always gives the same bytes. The families,
// their units, the labels (dcgm-exporter's style), what a matrix's rows and columns become, and
// the escaping of hostile reports: tests/metrics/README.md.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/stop_request.h"
#include "model/report.h"

namespace nvbw {

// The largest metrics text: as large as the largest report read (kMaxReportBytes); why only a
// hostile report gets near: tests/metrics/README.md, "Hostile reports".
inline constexpr std::size_t kMaxMetricsBytes = 256u << 20;

// The metrics of a report would be larger than kMaxMetricsBytes.
class MetricsTooLarge : public Error {
 public:
  using Error::Error;
};

// The metrics of a report (a run of this tool or of upstream v0.8, or the output of `--compare
// -j`), in pieces that joined are the file, so that a large file is never held whole twice; its
// memory and when it is refused (over `maxBytes`): tests/metrics/README.md, "Hostile reports".
// `stop` is asked before each row of cells and every 256 compared cells. Throws MetricsTooLarge
// or Interrupted.
std::vector<std::string> metricsPieces(const Report& report, const StopRequest& stop,
                                       std::size_t maxBytes = kMaxMetricsBytes);

}  // namespace nvbw
