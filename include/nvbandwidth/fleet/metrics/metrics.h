// The metrics view of a report: the Prometheus text exposition format (version 0.0.4) for
// node_exporter's textfile collector, rendered from the Report alone (model/report.h). Pure: no
// clock, no host name, no locale; the same report always gives the same bytes.
//
// Families (all gauges, each with # HELP and # TYPE, samples of a family contiguous, a family
// without samples left out; tests/metrics/README.md lists them with an example each):
//   per cell    nvbandwidth_bandwidth_bytes_per_second, nvbandwidth_latency_seconds (by
//               the entry's unit; the report's `values`, or upstream's string
//               `bandwidth_matrix`; N/A cells have no sample),
//               nvbandwidth_bandwidth_peak_bytes_per_second,
//               nvbandwidth_bandwidth_of_peak_ratio, nvbandwidth_cell_cv_ratio,
//               nvbandwidth_cell_outlier (0/1, where the entry lists `outliers`)
//   per matrix  nvbandwidth_bandwidth_sum_bytes_per_second,
//               nvbandwidth_latency_sum_seconds (the SUM line),
//               nvbandwidth_matrix_info (title and unit)
//   per entry   nvbandwidth_testcase_status{status="Passed|Waived|ERROR|Running"} 1
//   comparison  nvbandwidth_comparison_verdict{verdict=...} 1 per compared cell,
//               nvbandwidth_comparison_change_percent, nvbandwidth_comparison_band_percent,
//               nvbandwidth_comparison_healthy_spread_percent,
//               nvbandwidth_comparison_spread_percent,
//               nvbandwidth_comparison_unstable_limit_percent,
//               nvbandwidth_comparison_cells{verdict=...} (counts; 0 for every known verdict),
//               nvbandwidth_comparison_unmatched{side=...},
//               nvbandwidth_comparison_tolerance_percent
//   run         nvbandwidth_run_info, nvbandwidth_run_start_timestamp_seconds (top-level
//               `started_at`, ISO 8601 with Z or an offset; left out without it),
//               nvbandwidth_run_duration_seconds (timing.wall_seconds),
//               nvbandwidth_run_interrupted (0, or 1 with the signal), nvbandwidth_run_error
//               (0/1), nvbandwidth_process_info (multinode: rank -> host, GPU)
// Prometheus' base units: bytes per second (the report's decimal GB/s x 10^9), seconds (its ns /
// 10^9), ratios (its percent of peak / 100); percents of a comparison keep their name
// (`_percent`). Each value is the report's number through one IEEE operation.
//
// Labels, in dcgm-exporter's style, each left out where unknown (never an empty value):
//   gpu        the device index of the GPU a cell is about (rule below)
//   UUID       that GPU's UUID: environment.gpus[] entry with `device` == gpu and a `uuid`; else
//              processes[] of rank 0 when its `device` is that index (rank 0 measures the
//              single-process testcases with its own device numbering); multi-process cells:
//              processes[rank].uuid
//   modelName  the GPU's name from its "GPU Device list" line ("0: NVIDIA H200 (...): (host)");
//              multi-process cells: processes[rank].name
//   Hostname   the top-level `hostname`, else the host in the device list's last parentheses,
//              else processes[] of rank 0; multi-process cells: processes[rank].host
//   testcase   the matrix key (an entry's `name`: "..._read1" for a matrix of several)
//   peer       the other end of a cell: a GPU index, or "CPU" for host cells
//   rank, peer_rank   multi-process matrices: the ranks of a cell (processes[] maps them)
//   row, col   the explicit fallback where the title does not say what rows and columns are
//   link       the entry's `links` cell ("PCIe Gen5 x16", "NVLink 4 x18", "unknown")
//   buffer_size_mib   the entry's `bufferSize_MiB` (--sweep reports)
//   repeat     "2", "3", ...: the second and later entries of one key (and size), as `-t 0 0` makes
//   duplicate  "2", "3", ...: never in a document the tool writes; where a hostile one would give
//              two series one label set (a compared cell that no matrix has, labelled like a
//              matrix's cell), the later ones, so that the file stays valid and no value is lost
//
// What rows and columns mean, from the matrix's axes (MatrixAxes: what the model read of the
// entry's title, `bandwidth_description`) and its shape:
//   rows "CPU", columns named, 1 row               gpu = column, peer = "CPU"
//   rows "GPU", columns "GPU", N x N               gpu = row, peer = column. In every such title
//        (read, write, bidirectional, latency) the row GPU is the one that issues the copy or
//        the pointer chase, and the column GPU the one whose memory it reads or writes.
//   rows "GPU", columns "GPU", 1 row               gpu = column, no peer (all-to-one and
//        one-to-all: the column is the one GPU, its partners are all the others)
//   columns "GPU", rows not named, 1 row            gpu = column, no peer (device-local copies)
//   axes of ranks (keys "multinode..."): rows and columns are ranks, not devices:
//        square, rows and columns named            rank = row, peer_rank = column
//        1 row, only the columns named             rank = column
//        1 column with `row_labels` "<from>-><to>" rank = from (the writer), peer_rank = to
//   a 1 x 1 matrix whose title names no row or column   no position label
//   anything else (an unknown title, a shape the title does not fit)   row and col
// Upstream stacks the three matrices of a bidirectional device-to-device testcase in one entry of
// 3N rows; the model splits it into its parts ("_read1", "_read2", "_total", or "_write1",
// "_write2", "_total": the keys this tool reports), and each part is a matrix here.
//
// Comparison cells (`comparison.cells`, name/row/col) carry the labels of the cell they compare:
// the n-th compared cell of (name, row, col) is a cell of the n-th matrix named `name` in this
// document; where there is no such matrix (`--compare -j` documents have none) they carry
// testcase, row and col.
//
// Label values are escaped as the format requires (\\, \", \n); other control characters, DEL and
// bytes that are not UTF-8 are written as the four characters \xNN (the tool's terminal escaping),
// so a value never holds a byte that a consumer could take for the end of a line. Numbers are the
// shortest text that reads back as the same double, in the C locale; no NaN or Inf is written.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/stop_request.h"
#include "fleet/metrics/metrics_exposition.h"
#include "model/report.h"

namespace nvbw {

// The metrics of a report (a run of this tool or of upstream v0.8, or the output of `--compare
// -j`), as the model's reader or a run made it. In pieces, in order (joined, they are the file): a
// large file is written piece by piece and never held whole twice. Memory besides the report: the
// text (at most kMaxMetricsBytes) and a few hundred bytes per matrix (its cells are read where the
// report holds them). A report whose cells alone, each with the labels all of its series
// carry, would take more than kMaxMetricsBytes is refused before anything is made; one that gets
// there on the way as soon as it does. `stop` is asked before each row of cells and every 256
// compared cells. Throws MetricsTooLarge or Interrupted.
std::vector<std::string> metricsPieces(const Report& report, const StopRequest& stop);

namespace metrics {

// With a budget other than kMaxMetricsBytes (tests).
std::vector<std::string> metricsPiecesWithin(const Report& report, std::size_t maxBytes,
                                             const StopRequest& stop);

}  // namespace metrics

}  // namespace nvbw
