// The prior run-to-run and within-run spreads (healthy_band.h), in percent: per testcase the
// largest of any of its cells, per family the largest of its testcases. Generated from the runs
// of tests/golden/run_to_run*/README.md, and checked against them by the ctest run_to_run_priors:
//   tools/run_to_run_priors.py tests/golden/run_to_run tests/golden/run_to_run_x2
#include "fleet/comparison/healthy_band.h"

namespace nvbw {

const std::vector<PriorRow>& testcasePriors() {
  static const std::vector<PriorRow> rows = {
      {"all_to_host_bidirectional_memcpy_ce", 10.87, 8.39},
      {"all_to_host_bidirectional_memcpy_sm", 1.70, 1.55},
      {"all_to_host_memcpy_ce", 3.44, 8.30},
      {"all_to_host_memcpy_sm", 8.51, 10.60},
      {"all_to_one_read_ce", 0.04, 0.05},
      {"all_to_one_read_sm", 0.07, 0.20},
      {"all_to_one_write_ce", 0.02, 0.04},
      {"all_to_one_write_sm", 0.10, 0.11},
      {"device_local_copy", 0.12, 0.15},
      {"device_local_copy_tma", 0.30, 0.62},
      {"device_local_read_sm", 0.27, 1.52},
      {"device_local_write_sm", 0.15, 0.30},
      {"device_to_device_bidirectional_memcpy_read_ce", 0.05, 0.08},
      {"device_to_device_bidirectional_memcpy_read_sm", 0.04, 0.08},
      {"device_to_device_bidirectional_memcpy_read_tma", 0.06, 0.08},
      {"device_to_device_bidirectional_memcpy_write_ce", 0.04, 0.07},
      {"device_to_device_bidirectional_memcpy_write_sm", 0.14, 0.12},
      {"device_to_device_bidirectional_memcpy_write_tma", 0.12, 0.12},
      {"device_to_device_latency_sm", 0.59, 0.94},
      {"device_to_device_memcpy_read_ce", 0.04, 0.06},
      {"device_to_device_memcpy_read_sm", 0.06, 0.06},
      {"device_to_device_memcpy_read_tma", 0.05, 0.05},
      {"device_to_device_memcpy_write_ce", 0.02, 0.07},
      {"device_to_device_memcpy_write_sm", 0.12, 0.17},
      {"device_to_device_memcpy_write_tma", 0.08, 0.12},
      {"device_to_host_bidirectional_memcpy_ce", 2.14, 0.77},
      {"device_to_host_bidirectional_memcpy_sm", 0.72, 0.91},
      {"device_to_host_memcpy_ce", 0.46, 0.35},
      {"device_to_host_memcpy_sm", 0.74, 1.10},
      {"host_device_latency_sm", 3.31, 3.80},
      {"host_to_all_bidirectional_memcpy_ce", 11.27, 7.63},
      {"host_to_all_bidirectional_memcpy_sm", 0.67, 0.70},
      {"host_to_all_memcpy_ce", 8.40, 4.48},
      {"host_to_all_memcpy_sm", 4.91, 4.64},
      {"host_to_device_bidirectional_memcpy_ce", 11.44, 11.72},
      {"host_to_device_bidirectional_memcpy_sm", 3.98, 2.12},
      {"host_to_device_memcpy_ce", 1.21, 0.90},
      {"host_to_device_memcpy_sm", 2.94, 2.94},
      {"one_to_all_read_ce", 0.02, 0.09},
      {"one_to_all_read_sm", 0.07, 0.10},
      {"one_to_all_write_ce", 0.03, 0.04},
      {"one_to_all_write_sm", 0.15, 0.10},
  };
  return rows;
}

const std::vector<PriorRow>& familyPriors() {
  static const std::vector<PriorRow> rows = {
      {"host", 8.51, 10.60},
      {"host bidirectional", 11.44, 11.72},
      {"host latency", 3.31, 3.80},
      {"device-to-device", 0.15, 0.20},
      {"device-to-device latency", 0.59, 0.94},
      {"device local", 0.30, 1.52},
      {"other", 11.44, 11.72},
  };
  return rows;
}

}  // namespace nvbw
