// Plans of the testcases within one GPU's memory (testcases_local.cpp: 52-55) against faked
// topologies: one copy or pass per GPU in column d, its buffers on d and as large as -b, and
// which of them need the TMA.
#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "fake_topology.h"
#include "plan_text.h"
#include "plans/plan.h"
#include "plans/registry.h"
#include "platform/topology.h"

namespace nvbw {
namespace test_testcases_local {

using namespace test;

// "gpu<d>[S] -> gpu<d>[S] <method> on <d> | m0[0][<d>]=copy0" for every GPU d.
std::vector<std::string> localCopies(int n, const std::string& method) {
  std::vector<std::string> out;
  for (int d = 0; d < n; ++d) {
    const std::string g = "gpu" + std::to_string(d) + "[S]";
    out.push_back(g + " -> " + g + " " + method + " on " + std::to_string(d) + " | m0[0][" +
                  std::to_string(d) + "]=copy0");
  }
  return out;
}

TEST(LocalPlans, CopySmIsTheCopyEngineLocalCopyThroughTheSmKernel) {
  for (int n : {1, 2, 8}) {
    SCOPED_TRACE(std::to_string(n) + " GPUs");
    const FakeTopology topo(n);
    EXPECT_EQ(describe(planFor("device_local_copy_sm", topo)), localCopies(n, "SM"));
    // Same buffers, cells and issuing GPU as device_local_copy (34): only the engine differs.
    EXPECT_EQ(describe(planFor("device_local_copy", topo)), localCopies(n, "CE"));
  }
}

TEST(LocalPlans, CopySmIsOneRowOfGpusInGBps) {
  for (int n : {1, 2, 8}) {
    const Plan plan = planFor("device_local_copy_sm", FakeTopology(n));
    ASSERT_EQ(plan.matrices.size(), 1u);
    const MatrixSpec& m = plan.matrices[0];
    EXPECT_EQ(m.key, "");
    // device_local_copy's title ("memcpy local GPU(column) ...") with the engine named, as
    // device_local_copy_tma's.
    EXPECT_EQ(m.title, "memcpy SM local GPU(column) bandwidth (GB/s)");
    EXPECT_EQ(m.unit, Unit::GBps);
    EXPECT_EQ(m.rows, 1u);
    EXPECT_EQ(m.cols, static_cast<std::size_t>(n));
  }
}

// -b sizes both buffers; the SM truncation to the kernel's shape is the executor's business.
TEST(LocalPlans, CopySmHonoursTheBufferSize) {
  for (const std::size_t bytes : {std::size_t{1} << 20, kBytes, std::size_t{1} << 30}) {
    const Plan plan = planFor("device_local_copy_sm", FakeTopology(2), bytes);
    ASSERT_EQ(plan.measurements.size(), 2u);
    for (const Measurement& m : plan.measurements) {
      ASSERT_EQ(m.copies.size(), 1u);
      EXPECT_FALSE(m.latency.has_value());
      EXPECT_EQ(m.copies[0].method, CopyMethod::SmCopy);
      EXPECT_EQ(m.copies[0].src.bytes, bytes);
      EXPECT_EQ(m.copies[0].dst.bytes, bytes);
      EXPECT_EQ(m.copies[0].src.kind, MemoryKind::Device);
      EXPECT_EQ(m.copies[0].dst.kind, MemoryKind::Device);
    }
  }
}

// The SM copy kernel runs on every GPU: no peers, no TMA, no confidential-computing concern.
TEST(LocalPlans, CopySmIsNeverWaived) {
  const TestcaseDef& d = def("device_local_copy_sm");
  for (int n : {0, 1, 2, 8}) EXPECT_EQ(waiveReasonFor(d, FakeTopology(n)), std::nullopt) << n;
  FakeTopology ampere(1);
  ampere.setComputeCapability(0, 80);
  EXPECT_EQ(waiveReasonFor(d, ampere), std::nullopt);
  FakeTopology noPeers(2);
  noPeers.setPeerAccess(0, 1, false);
  noPeers.setPeerAccess(1, 0, false);
  EXPECT_EQ(waiveReasonFor(d, noPeers), std::nullopt);
  FakeTopology cc(1);
  cc.setConfidentialComputing(true);
  EXPECT_EQ(waiveReasonFor(d, cc), std::nullopt);
  // Its TMA sibling needs compute capability 9.0.
  EXPECT_TRUE(waiveReasonFor(def("device_local_copy_tma"), ampere).has_value());
}

TEST(LocalPlans, TheOtherLocalTestcasesKeepTheirShapes) {
  const FakeTopology topo(2);
  EXPECT_EQ(describe(planFor("device_local_copy_tma", topo)), localCopies(2, "TMA"));
  EXPECT_EQ(describe(planFor("device_local_read_sm", topo)).at(1),
            "gpu1[S] -> gpu1[4096B] SM-read on 1 | m0[0][1]=copy0");
  EXPECT_EQ(describe(planFor("device_local_write_sm", topo)).at(0),
            "gpu0[4096B] -> gpu0[S] SM-write on 0 | m0[0][0]=copy0");
}

}  // namespace test_testcases_local
}  // namespace nvbw
