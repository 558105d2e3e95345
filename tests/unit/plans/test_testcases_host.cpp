// Plans of the host <-> device testcases (upstream 0-3, 8-11, 16-19, 24-27), device_local_copy
// (34) and host_device_latency_sm (32) against faked topologies: which copies run together, in
// which order, how big, issued by which GPU, and which copy lands in which cell.
#include <gtest/gtest.h>

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "fake_topology.h"
#include "plan_text.h"
#include "plans/plan.h"
#include "plans/registry.h"
#include "platform/topology.h"

namespace nvbw {
namespace test_testcases_host {

using namespace test;

// ---- The specification (docs/compatibility.md#u4), as a table --------------------------------
//
// Each measurement is for one device d (cell [0][d]). Its copy list is `own` (copies between the
// host and d, the measured one first) followed, for every other device k in increasing order, by
// `perOther` (copies between the host and k). A host buffer's affinity device and a device
// buffer's owner are both the GPU the copy belongs to; every copy touching a GPU is issued by it.

enum class Dir { H2D, D2H, Local };
enum class Size { S, TwoS };

struct ExpectedCopy {
  Dir dir;
  Size size;
};

struct Case {
  std::string key;
  CopyMethod method;
  std::string title;
  std::vector<ExpectedCopy> own;
  std::vector<ExpectedCopy> perOther;
};

std::ostream& operator<<(std::ostream& os, const Case& c) { return os << c.key; }

constexpr CopyMethod kCe = CopyMethod::CopyEngine;
constexpr CopyMethod kSm = CopyMethod::SmCopy;
constexpr CopyMethod kSplit = CopyMethod::SmSplitWarp;
constexpr ExpectedCopy kH2D{Dir::H2D, Size::S};
constexpr ExpectedCopy kD2H{Dir::D2H, Size::S};
constexpr ExpectedCopy kH2D2{Dir::H2D, Size::TwoS};
constexpr ExpectedCopy kD2H2{Dir::D2H, Size::TwoS};
constexpr ExpectedCopy kLocal{Dir::Local, Size::S};

const char* const kCeH2D = "memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)";
const char* const kCeD2H = "memcpy CE CPU(row) <- GPU(column) bandwidth (GB/s)";
const char* const kCeBidir = "memcpy CE CPU(row) <-> GPU(column) bandwidth (GB/s)";
const char* const kSmH2D = "memcpy SM CPU(row) -> GPU(column) bandwidth (GB/s)";
const char* const kSmD2H = "memcpy SM CPU(row) <- GPU(column) bandwidth (GB/s)";
const char* const kSmBidir = "memcpy SM CPU(row) <-> GPU(column) bandwidth (GB/s)";
const char* const kLocalTitle = "memcpy local GPU(column) bandwidth (GB/s)";
const char* const kLatencyTitle = "memory latency SM CPU(row) <-> GPU(column) (ns)";

const std::vector<Case>& cases() {
  // clang-format off
  static const std::vector<Case> all = {
      // 0, 1: one copy, S.
      {"host_to_device_memcpy_ce", kCe, kCeH2D, {kH2D}, {}},
      {"device_to_host_memcpy_ce", kCe, kCeD2H, {kD2H}, {}},
      // 2, 3: measured copy S, opposite-direction interference 2S on the same GPU.
      {"host_to_device_bidirectional_memcpy_ce", kCe, kCeBidir, {kH2D, kD2H2}, {}},
      {"device_to_host_bidirectional_memcpy_ce", kCe, kCeBidir, {kD2H, kH2D2}, {}},
      // 8-11: every other GPU adds 2S interference.
      {"all_to_host_memcpy_ce", kCe, kCeD2H, {kD2H}, {kD2H2}},
      {"all_to_host_bidirectional_memcpy_ce", kCe, kCeBidir, {kD2H, kH2D2}, {kD2H2, kH2D2}},
      {"host_to_all_memcpy_ce", kCe, kCeH2D, {kH2D}, {kH2D2}},
      {"host_to_all_bidirectional_memcpy_ce", kCe, kCeBidir, {kH2D, kD2H2}, {kD2H2, kH2D2}},
      // 16-19: SM kernel; 18 and 19 are the same split-warp host -> device copy (upstream quirk).
      {"host_to_device_memcpy_sm", kSm, kSmH2D, {kH2D}, {}},
      {"device_to_host_memcpy_sm", kSm, kSmD2H, {kD2H}, {}},
      {"host_to_device_bidirectional_memcpy_sm", kSplit, kSmBidir, {kH2D}, {}},
      {"device_to_host_bidirectional_memcpy_sm", kSplit, kSmBidir, {kH2D}, {}},
      // 24, 26: as 8 and 10 with the SM kernel. 25, 27: split-warp, nothing doubled, and the
      // other GPUs always copy device -> host.
      {"all_to_host_memcpy_sm", kSm, kSmD2H, {kD2H}, {kD2H2}},
      {"all_to_host_bidirectional_memcpy_sm", kSplit, kSmBidir, {kD2H}, {kD2H}},
      {"host_to_all_memcpy_sm", kSm, kSmH2D, {kH2D}, {kH2D2}},
      {"host_to_all_bidirectional_memcpy_sm", kSplit, kSmBidir, {kH2D}, {kD2H}},
      // 34: two buffers on d, copy engine.
      {"device_local_copy", kCe, kLocalTitle, {kLocal}, {}},
  };
  // clang-format on
  return all;
}

std::string expectedCopy(const ExpectedCopy& e, int device, CopyMethod method) {
  const std::size_t bytes = e.size == Size::S ? kBytes : 2 * kBytes;
  const BufferSpec host = BufferSpec::host(device, bytes);
  const BufferSpec gpu = BufferSpec::onDevice(device, bytes);
  std::string s;
  switch (e.dir) {
  case Dir::H2D:
    s = describe(host) + " -> " + describe(gpu);
    break;
  case Dir::D2H:
    s = describe(gpu) + " -> " + describe(host);
    break;
  case Dir::Local:
    s = describe(gpu) + " -> " + describe(gpu);
    break;
  }
  return s + " " + describe(method) + " on " + std::to_string(device);
}

std::vector<std::string> expectedPlan(const Case& tc, int n) {
  std::vector<std::string> out;
  for (int d = 0; d < n; ++d) {
    std::vector<std::string> copies;
    for (const ExpectedCopy& e : tc.own) copies.push_back(expectedCopy(e, d, tc.method));
    for (int k = 0; k < n; ++k) {
      if (k == d) continue;
      for (const ExpectedCopy& e : tc.perOther) copies.push_back(expectedCopy(e, k, tc.method));
    }
    std::string s;
    for (std::size_t i = 0; i < copies.size(); ++i) s += (i ? ", " : "") + copies[i];
    out.push_back(s + " | m0[0][" + std::to_string(d) + "]=copy0");
  }
  return out;
}

// ---- Table-driven tests over every host testcase ----------------------------------------------

class HostTestcase : public ::testing::TestWithParam<Case> {};

TEST_P(HostTestcase, IsRegisteredWithPlanAndNeverWaived) {
  const TestcaseDef& d = def(GetParam().key);
  EXPECT_TRUE(d.testcase);
  for (int n : {0, 1, 2, 8}) {
    EXPECT_EQ(waiveReasonFor(d, FakeTopology(n)), std::nullopt) << n << " GPUs";
  }
  FakeTopology noPeers(2);
  noPeers.setPeerAccess(0, 1, false);
  noPeers.setPeerAccess(1, 0, false);
  EXPECT_EQ(waiveReasonFor(d, noPeers), std::nullopt);
}

TEST_P(HostTestcase, HasOneMatrixOneRowByNGpusInGBps) {
  const Case& tc = GetParam();
  for (int n : {1, 2, 8}) {
    SCOPED_TRACE(std::to_string(n) + " GPUs");
    const Plan plan = planFor(tc.key, FakeTopology(n));
    ASSERT_EQ(plan.matrices.size(), 1u);
    const MatrixSpec& m = plan.matrices[0];
    EXPECT_EQ(m.key, "");  // the runner qualifies it with the testcase key
    EXPECT_EQ(m.title, tc.title);
    EXPECT_EQ(m.unit, Unit::GBps);
    EXPECT_EQ(m.rows, 1u);
    EXPECT_EQ(m.cols, static_cast<std::size_t>(n));
  }
}

TEST_P(HostTestcase, PlannedCopiesAndOutputsMatchTheSpecification) {
  const Case& tc = GetParam();
  for (int n : {1, 2, 8}) {
    SCOPED_TRACE(std::to_string(n) + " GPUs");
    EXPECT_EQ(describe(planFor(tc.key, FakeTopology(n))), expectedPlan(tc, n));
  }
}

TEST_P(HostTestcase, ReportsOnlyTheMeasuredFirstCopyOfEachDevice) {
  const Plan plan = planFor(GetParam().key, FakeTopology(8));
  ASSERT_EQ(plan.measurements.size(), 8u);
  for (std::size_t d = 0; d < plan.measurements.size(); ++d) {
    const Measurement& m = plan.measurements[d];
    EXPECT_FALSE(m.latency.has_value());
    ASSERT_EQ(m.outputs.size(), 1u) << describe(m);
    const OutputTarget& o = m.outputs[0];
    EXPECT_EQ(o.matrix, 0u);
    EXPECT_EQ(o.row, 0u);
    EXPECT_EQ(o.col, d);
    EXPECT_EQ(o.source, ValueSource::Copy);
    EXPECT_EQ(o.copyIndex, 0u);
    ASSERT_FALSE(m.copies.empty());
    EXPECT_TRUE(isReportedCopy(m, 0));
    for (std::size_t i = 1; i < m.copies.size(); ++i)
      EXPECT_FALSE(isReportedCopy(m, i)) << "interference copy " << i << ": " << describe(m);
  }
}

TEST_P(HostTestcase, MeasuredCopyIsSizeSOnTheCellsGpu) {
  const std::size_t bytes = std::size_t{512} << 20;
  const Plan plan = planFor(GetParam().key, FakeTopology(4), bytes);
  ASSERT_EQ(plan.measurements.size(), 4u);
  for (std::size_t d = 0; d < 4; ++d) {
    const CopySpec& c = plan.measurements[d].copies.at(0);
    EXPECT_EQ(c.src.bytes, bytes);
    EXPECT_EQ(c.dst.bytes, bytes);
    EXPECT_EQ(c.src.device, static_cast<int>(d));
    EXPECT_EQ(c.dst.device, static_cast<int>(d));
    EXPECT_EQ(c.execDevice, static_cast<int>(d));
    for (const CopySpec& other : plan.measurements[d].copies) {
      EXPECT_TRUE(other.src.bytes == bytes || other.src.bytes == 2 * bytes);
      EXPECT_EQ(other.src.bytes, other.dst.bytes);
    }
  }
}

TEST_P(HostTestcase, ZeroGpusPlanNoMeasurement) {
  const Plan plan = planFor(GetParam().key, FakeTopology(0));
  ASSERT_EQ(plan.matrices.size(), 1u);
  EXPECT_EQ(plan.matrices[0].cols, 0u);
  EXPECT_TRUE(plan.measurements.empty());
}

INSTANTIATE_TEST_SUITE_P(AllHostTestcases, HostTestcase, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return info.param.key; });

// ---- Literal expectations, independent of the table above --------------------------------------

TEST(HostPlans, OneGpuHostToDeviceCe) {
  EXPECT_EQ(describe(planFor("host_to_device_memcpy_ce", FakeTopology(1))),
            (std::vector<std::string>{"host0[S] -> gpu0[S] CE on 0 | m0[0][0]=copy0"}));
  EXPECT_EQ(describe(planFor("device_to_host_memcpy_sm", FakeTopology(1))),
            (std::vector<std::string>{"gpu0[S] -> host0[S] SM on 0 | m0[0][0]=copy0"}));
}

TEST(HostPlans, TwoGpuBidirectionalCeInterferesWithTwiceTheSize) {
  const FakeTopology topo(2);
  EXPECT_EQ(describe(planFor("host_to_device_bidirectional_memcpy_ce", topo)),
            (std::vector<std::string>{
                "host0[S] -> gpu0[S] CE on 0, gpu0[2S] -> host0[2S] CE on 0 | m0[0][0]=copy0",
                "host1[S] -> gpu1[S] CE on 1, gpu1[2S] -> host1[2S] CE on 1 | m0[0][1]=copy0"}));
  EXPECT_EQ(describe(planFor("device_to_host_bidirectional_memcpy_ce", topo)).at(1),
            "gpu1[S] -> host1[S] CE on 1, host1[2S] -> gpu1[2S] CE on 1 | m0[0][1]=copy0");
}

TEST(HostPlans, TwoGpuAllToHostAndHostToAll) {
  const FakeTopology topo(2);
  EXPECT_EQ(describe(planFor("all_to_host_memcpy_ce", topo)),
            (std::vector<std::string>{
                "gpu0[S] -> host0[S] CE on 0, gpu1[2S] -> host1[2S] CE on 1 | m0[0][0]=copy0",
                "gpu1[S] -> host1[S] CE on 1, gpu0[2S] -> host0[2S] CE on 0 | m0[0][1]=copy0"}));
  EXPECT_EQ(describe(planFor("host_to_all_memcpy_sm", topo)).at(1),
            "host1[S] -> gpu1[S] SM on 1, host0[2S] -> gpu0[2S] SM on 0 | m0[0][1]=copy0");
}

TEST(HostPlans, ThreeGpuBidirectionalAllCe) {
  const FakeTopology topo(3);
  EXPECT_EQ(describe(planFor("all_to_host_bidirectional_memcpy_ce", topo)).at(1),
            "gpu1[S] -> host1[S] CE on 1, host1[2S] -> gpu1[2S] CE on 1, "
            "gpu0[2S] -> host0[2S] CE on 0, host0[2S] -> gpu0[2S] CE on 0, "
            "gpu2[2S] -> host2[2S] CE on 2, host2[2S] -> gpu2[2S] CE on 2 | m0[0][1]=copy0");
  EXPECT_EQ(describe(planFor("host_to_all_bidirectional_memcpy_ce", topo)).at(2),
            "host2[S] -> gpu2[S] CE on 2, gpu2[2S] -> host2[2S] CE on 2, "
            "gpu0[2S] -> host0[2S] CE on 0, host0[2S] -> gpu0[2S] CE on 0, "
            "gpu1[2S] -> host1[2S] CE on 1, host1[2S] -> gpu1[2S] CE on 1 | m0[0][2]=copy0");
}

TEST(HostPlans, ThreeGpuSplitWarpAllCopiesAreSizeS) {
  const FakeTopology topo(3);
  EXPECT_EQ(describe(planFor("all_to_host_bidirectional_memcpy_sm", topo)).at(0),
            "gpu0[S] -> host0[S] SM-split on 0, gpu1[S] -> host1[S] SM-split on 1, "
            "gpu2[S] -> host2[S] SM-split on 2 | m0[0][0]=copy0");
  EXPECT_EQ(describe(planFor("host_to_all_bidirectional_memcpy_sm", topo)).at(0),
            "host0[S] -> gpu0[S] SM-split on 0, gpu1[S] -> host1[S] SM-split on 1, "
            "gpu2[S] -> host2[S] SM-split on 2 | m0[0][0]=copy0");
}

TEST(HostPlans, DeviceToHostBidirectionalSmMeasuresTheSameAsHostToDevice) {
  // Upstream quirk (docs/compatibility.md#u4, test 19): identical code to test 18, host -> device
  // split-warp.
  for (int n : {1, 2, 8}) {
    const FakeTopology topo(n);
    EXPECT_EQ(describe(planFor("device_to_host_bidirectional_memcpy_sm", topo)),
              describe(planFor("host_to_device_bidirectional_memcpy_sm", topo)));
  }
  EXPECT_EQ(describe(planFor("device_to_host_bidirectional_memcpy_sm", FakeTopology(2))).at(1),
            "host1[S] -> gpu1[S] SM-split on 1 | m0[0][1]=copy0");
}

TEST(HostPlans, DeviceLocalCopyIsTwoBuffersOnTheSameGpu) {
  EXPECT_EQ(describe(planFor("device_local_copy", FakeTopology(2))),
            (std::vector<std::string>{"gpu0[S] -> gpu0[S] CE on 0 | m0[0][0]=copy0",
                                      "gpu1[S] -> gpu1[S] CE on 1 | m0[0][1]=copy0"}));
}

// ---- host_device_latency_sm ---------------------------------------------------------------------

TEST(HostDeviceLatency, IsRegisteredWithPlanAndNeverWaived) {
  const TestcaseDef& d = def("host_device_latency_sm");
  EXPECT_TRUE(d.testcase);
  for (int n : {0, 1, 2, 8}) {
    EXPECT_EQ(waiveReasonFor(d, FakeTopology(n)), std::nullopt) << n << " GPUs";
  }
}

TEST(HostDeviceLatency, OneMatrixOneRowByNGpusInNanoseconds) {
  for (int n : {1, 2, 8}) {
    SCOPED_TRACE(std::to_string(n) + " GPUs");
    const Plan plan = planFor("host_device_latency_sm", FakeTopology(n));
    ASSERT_EQ(plan.matrices.size(), 1u);
    const MatrixSpec& m = plan.matrices[0];
    EXPECT_EQ(m.key, "");
    EXPECT_EQ(m.title, kLatencyTitle);
    EXPECT_EQ(m.unit, Unit::Nanoseconds);
    EXPECT_EQ(m.rows, 1u);
    EXPECT_EQ(m.cols, static_cast<std::size_t>(n));
  }
}

TEST(HostDeviceLatency, EachGpuChasesA2MiBHostBufferWithItsAffinity) {
  for (int n : {1, 2, 8}) {
    SCOPED_TRACE(std::to_string(n) + " GPUs");
    std::vector<std::string> expected;
    for (int d = 0; d < n; ++d) {
      const std::string dev = std::to_string(d);
      expected.push_back("chase on " + dev + ": host" + dev + "[2MiB] | m0[0][" + dev + "]=copy0");
    }
    const Plan plan = planFor("host_device_latency_sm", FakeTopology(n));
    EXPECT_EQ(describe(plan), expected);
    for (const Measurement& m : plan.measurements) {
      EXPECT_TRUE(m.copies.empty()) << describe(m);
      ASSERT_TRUE(m.latency.has_value());
      EXPECT_EQ(m.latency->target.kind, MemoryKind::Host);
    }
  }
}

TEST(HostDeviceLatency, IgnoresBufferSize) {
  for (std::size_t bytes : {std::size_t{4096}, kBytes, std::size_t{1} << 30}) {
    const Plan plan = planFor("host_device_latency_sm", FakeTopology(2), bytes);
    ASSERT_EQ(plan.measurements.size(), 2u);
    for (const Measurement& m : plan.measurements) {
      ASSERT_TRUE(m.latency.has_value());
      EXPECT_EQ(m.latency->target.bytes, kLatencyBytes) << bytes;
    }
  }
}

}  // namespace test_testcases_host
}  // namespace nvbw
