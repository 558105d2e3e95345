// Plans of the 18 device-to-device testcases against faked topologies: which copies run together,
// between which GPUs, issued by which GPU, and which cell each value lands in.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "fake_topology.h"
#include "plan_text.h"
#include "plans/plan.h"
#include "plans/registry.h"
#include "plans/testcases.h"
#include "platform/topology.h"
#include "upstream_keys.h"

namespace nvbw {
namespace test_testcases_d2d {

using namespace test;

// Every cell of matrix `matrix` that some measurement writes, as "r,c".
std::set<std::string> cellsWritten(const Plan& plan, std::size_t matrix = 0) {
  std::set<std::string> cells;
  for (const Measurement& m : plan.measurements)
    for (const OutputTarget& o : m.outputs)
      if (o.matrix == matrix) cells.insert(std::to_string(o.row) + "," + std::to_string(o.col));
  return cells;
}

// ---- The specification, as a table ------------------------------------------------------------
//
// Pair testcases measure cell [r][c] with A = r and B = c. Fan testcases (all-to-one, one-to-all)
// measure cell [0][d] with A = d (the "one") and B = each peer k. A and B are paired only when
// each can access the other (upstream checks A -> B, then aborts if B -> A cannot be enabled).

enum class Gpu { A, B };
enum class Shape { Pairs, Bidirectional, Fan, Latency };

struct ExpectedCopy {
  Gpu src, dst, exec;
};

struct Case {
  std::string key;
  Shape shape;
  CopyMethod method;
  std::vector<std::string> titles;  // one per matrix
  std::vector<ExpectedCopy> copies;
};

std::ostream& operator<<(std::ostream& os, const Case& c) { return os << c.key; }

const char* const kCeRead = "memcpy CE GPU(row) -> GPU(column) bandwidth (GB/s)";
const char* const kCeWrite = "memcpy CE GPU(row) <- GPU(column) bandwidth (GB/s)";
const char* const kSmRead = "memcpy SM GPU(row) -> GPU(column) bandwidth (GB/s)";
const char* const kSmWrite = "memcpy SM GPU(row) <- GPU(column) bandwidth (GB/s)";

constexpr CopyMethod kCe = CopyMethod::CopyEngine;
constexpr CopyMethod kSm = CopyMethod::SmCopy;
constexpr Gpu A = Gpu::A;
constexpr Gpu B = Gpu::B;

std::vector<std::string> bidirTitles(const std::string& engine, const std::string& label) {
  const std::string head = "memcpy " + engine + " GPU(row) <-> GPU(column) ";
  return {head + label + "1 bandwidth (GB/s)", head + label + "2 bandwidth (GB/s)",
          head + "Total bandwidth (GB/s)"};
}

const std::vector<Case>& cases() {
  // One testcase per entry reads better than one field per line.
  // clang-format off
  static const std::vector<Case> all = {
      // Read: B -> A issued by A. Write: A -> B issued by A.
      {"device_to_device_memcpy_read_ce", Shape::Pairs, kCe, {kCeRead}, {{B, A, A}}},
      {"device_to_device_memcpy_write_ce", Shape::Pairs, kCe, {kCeWrite}, {{A, B, A}}},
      // Same buffers for read and write: [B -> A, A -> B]; read issues each from its
      // destination, write from its source.
      {"device_to_device_bidirectional_memcpy_read_ce", Shape::Bidirectional, kCe,
       bidirTitles("CE", "Read"), {{B, A, A}, {A, B, B}}},
      {"device_to_device_bidirectional_memcpy_write_ce", Shape::Bidirectional, kCe,
       bidirTitles("CE", "Write"), {{B, A, B}, {A, B, A}}},
      {"all_to_one_write_ce", Shape::Fan, kCe, {kCeWrite}, {{B, A, B}}},
      {"all_to_one_read_ce", Shape::Fan, kCe, {kCeRead}, {{A, B, B}}},
      {"one_to_all_write_ce", Shape::Fan, kCe, {kCeRead}, {{A, B, A}}},
      {"one_to_all_read_ce", Shape::Fan, kCe, {kCeWrite}, {{B, A, A}}},
      {"device_to_device_memcpy_read_sm", Shape::Pairs, kSm, {kSmRead}, {{B, A, A}}},
      {"device_to_device_memcpy_write_sm", Shape::Pairs, kSm, {kSmWrite}, {{A, B, A}}},
      {"device_to_device_bidirectional_memcpy_read_sm", Shape::Bidirectional, kSm,
       bidirTitles("SM", "Read"), {{B, A, A}, {A, B, B}}},
      {"device_to_device_bidirectional_memcpy_write_sm", Shape::Bidirectional, kSm,
       bidirTitles("SM", "Write"), {{B, A, B}, {A, B, A}}},
      {"all_to_one_write_sm", Shape::Fan, kSm, {kSmWrite}, {{B, A, B}}},
      // Upstream quirk: the SM read fans are issued by the source, unlike CE.
      {"all_to_one_read_sm", Shape::Fan, kSm, {kSmRead}, {{A, B, A}}},
      {"one_to_all_write_sm", Shape::Fan, kSm, {kSmRead}, {{A, B, A}}},
      {"one_to_all_read_sm", Shape::Fan, kSm, {kSmWrite}, {{B, A, B}}},
      {"device_to_device_latency_sm", Shape::Latency, kSm,
       {"Device to Device Latency SM GPU(row) <-> GPU(column) (ns)"}, {}},
      // The same chase, each access a bulk copy through the TMA (method Tma stands for that).
      {"device_to_device_latency_tma", Shape::Latency, CopyMethod::Tma,
       {"memory latency TMA GPU(row) <-> GPU(column) (ns)"}, {}},
  };
  // clang-format on
  return all;
}

// Plans name matrices by suffix; the runner prepends the testcase key for the SUM line and JSON.
std::vector<std::string> matrixKeySuffixes(const Case& tc) {
  if (tc.shape != Shape::Bidirectional) return {""};
  const std::string label = tc.key.find("_read_") != std::string::npos ? "read" : "write";
  return {"_" + label + "1", "_" + label + "2", "_total"};
}

bool mutualAccess(const Topology& topo, int a, int b) {
  return topo.canAccessPeer(a, b) && topo.canAccessPeer(b, a);
}

// The copies the table predicts for A = a, B = b.
std::string expectedCopies(const Case& tc, int a, int b) {
  std::string s;
  for (std::size_t i = 0; i < tc.copies.size(); ++i) {
    const ExpectedCopy& e = tc.copies[i];
    const int src = e.src == A ? a : b, dst = e.dst == A ? a : b, exec = e.exec == A ? a : b;
    s += (i ? ", " : "") + describe(BufferSpec::onDevice(src, kBytes)) + " -> " +
         describe(BufferSpec::onDevice(dst, kBytes)) + " " + describe(tc.method) + " on " +
         std::to_string(exec);
  }
  return s;
}

std::vector<std::string> expectedPlan(const Case& tc, const Topology& topo) {
  std::vector<std::string> out;
  const int n = topo.deviceCount();
  if (tc.shape == Shape::Fan) {
    for (int d = 0; d < n; ++d) {
      std::string copies;
      for (int k = 0; k < n; ++k)
        if (k != d && mutualAccess(topo, d, k))
          copies += (copies.empty() ? "" : ", ") + expectedCopies(tc, d, k);
      if (!copies.empty()) out.push_back(copies + " | m0[0][" + std::to_string(d) + "]=total");
    }
    return out;
  }
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < n; ++c) {
      if (r == c || !mutualAccess(topo, r, c)) continue;
      const std::string cell = "[" + std::to_string(r) + "][" + std::to_string(c) + "]";
      switch (tc.shape) {
      case Shape::Pairs:
        out.push_back(expectedCopies(tc, r, c) + " | m0" + cell + "=copy0");
        break;
      case Shape::Bidirectional:
        out.push_back(expectedCopies(tc, r, c) + " | m0" + cell + "=copy0 m1" + cell + "=copy1 m2" +
                      cell + "=sum");
        break;
      case Shape::Latency:
        out.push_back(std::string(tc.method == CopyMethod::Tma ? "TMA " : "") + "chase on " +
                      std::to_string(r) + ": gpu" + std::to_string(c) + "[2MiB] | m0" + cell +
                      "=copy0");
        break;
      case Shape::Fan:
        break;
      }
    }
  }
  return out;
}

// ---- Topologies -------------------------------------------------------------------------------

struct NamedTopology {
  std::string name;
  FakeTopology topo;
};

std::vector<NamedTopology> topologies() {
  std::vector<NamedTopology> all;
  all.push_back({"2 GPUs, full peer access", FakeTopology(2)});
  all.push_back({"8 GPUs, full peer access", FakeTopology(8)});
  FakeTopology noPair(4);  // 1 and 2 cannot reach each other, as across two PCIe roots
  noPair.setPeerAccess(1, 2, false);
  noPair.setPeerAccess(2, 1, false);
  all.push_back({"4 GPUs, 1<->2 without access", noPair});
  FakeTopology oneWay(4);  // 3 can access 0, but 0 cannot access 3
  oneWay.setPeerAccess(0, 3, false);
  all.push_back({"4 GPUs, 0->3 without access", oneWay});
  FakeTopology isolated(4);  // GPU 3 has no peer at all
  for (int k = 0; k < 3; ++k) {
    isolated.setPeerAccess(3, k, false);
    isolated.setPeerAccess(k, 3, false);
  }
  all.push_back({"4 GPUs, GPU 3 isolated", isolated});
  return all;
}

// ---- Table-driven tests over every device-to-device testcase ----------------------------------

class D2dTestcase : public ::testing::TestWithParam<Case> {};

TEST_P(D2dTestcase, IsRegisteredWithPeerWaiveAndPlan) {
  const TestcaseDef& d = def(GetParam().key);
  ASSERT_TRUE(d.testcase);
  EXPECT_TRUE(waiveReasonFor(d, FakeTopology(1)));
}

TEST_P(D2dTestcase, WaivedOnOneGpuNamingTheCount) {
  const auto reason = waiveReasonFor(def(GetParam().key), FakeTopology(1));
  ASSERT_TRUE(reason.has_value());
  EXPECT_NE(reason->find("1 GPU"), std::string::npos) << *reason;
}

TEST_P(D2dTestcase, WaivedWhenNoPairHasPeerAccess) {
  FakeTopology topo(2);
  topo.setPeerAccess(0, 1, false);
  topo.setPeerAccess(1, 0, false);
  const auto reason = waiveReasonFor(def(GetParam().key), topo);
  ASSERT_TRUE(reason.has_value());
  EXPECT_NE(reason->find("cuDeviceCanAccessPeer"), std::string::npos) << *reason;
}

TEST_P(D2dTestcase, RunsWithAPeerPair) {
  EXPECT_EQ(waiveReasonFor(def(GetParam().key), FakeTopology(2)), std::nullopt);
}

TEST_P(D2dTestcase, MatrixKeysTitlesAndShapes) {
  const Case& tc = GetParam();
  for (int n : {1, 2, 4, 8}) {
    SCOPED_TRACE(std::to_string(n) + " GPUs");
    const Plan plan = planFor(tc.key, FakeTopology(n));
    const std::vector<std::string> keys = matrixKeySuffixes(tc);
    ASSERT_EQ(plan.matrices.size(), keys.size());
    ASSERT_EQ(tc.titles.size(), keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i) {
      const MatrixSpec& m = plan.matrices[i];
      EXPECT_EQ(m.key, keys[i]);
      EXPECT_EQ(m.title, tc.titles[i]);
      EXPECT_EQ(m.rows, tc.shape == Shape::Fan ? 1u : static_cast<std::size_t>(n));
      EXPECT_EQ(m.cols, static_cast<std::size_t>(n));
      EXPECT_EQ(m.unit, tc.shape == Shape::Latency ? Unit::Nanoseconds : Unit::GBps);
    }
  }
}

TEST_P(D2dTestcase, PlannedCopiesAndOutputsMatchTheSpecification) {
  const Case& tc = GetParam();
  for (const NamedTopology& t : topologies()) {
    SCOPED_TRACE(t.name);
    EXPECT_EQ(describe(planFor(tc.key, t.topo)), expectedPlan(tc, t.topo));
  }
}

TEST_P(D2dTestcase, NoMeasurementsOnOneGpu) {
  EXPECT_TRUE(planFor(GetParam().key, FakeTopology(1)).measurements.empty());
}

TEST_P(D2dTestcase, OutputsStayInsideTheirMatricesAndCellsAreWrittenOnce) {
  const Case& tc = GetParam();
  for (const NamedTopology& t : topologies()) {
    SCOPED_TRACE(t.name);
    const Plan plan = planFor(tc.key, t.topo);
    std::set<std::tuple<std::size_t, std::size_t, std::size_t>> seen;
    for (const Measurement& m : plan.measurements) {
      EXPECT_FALSE(m.outputs.empty()) << describe(m);
      EXPECT_EQ(m.latency.has_value(), tc.shape == Shape::Latency) << describe(m);
      for (const OutputTarget& o : m.outputs) {
        ASSERT_LT(o.matrix, plan.matrices.size());
        EXPECT_LT(o.row, plan.matrices[o.matrix].rows);
        EXPECT_LT(o.col, plan.matrices[o.matrix].cols);
        if (tc.shape != Shape::Fan) {
          EXPECT_NE(o.row, o.col) << "diagonal is N/A";
        }
        if (o.source == ValueSource::Copy && tc.shape != Shape::Latency) {
          EXPECT_LT(o.copyIndex, m.copies.size());
        }
        EXPECT_TRUE(seen.insert({o.matrix, o.row, o.col}).second) << describe(o);
      }
      for (const CopySpec& c : m.copies) {
        EXPECT_EQ(c.method, tc.method);
        EXPECT_EQ(c.src.kind, MemoryKind::Device);
        EXPECT_EQ(c.dst.kind, MemoryKind::Device);
        EXPECT_NE(c.src.device, c.dst.device);
        EXPECT_TRUE(c.execDevice == c.src.device || c.execDevice == c.dst.device);
      }
    }
  }
}

TEST_P(D2dTestcase, BufferSizeIsPassedThroughExceptForLatency) {
  const Case& tc = GetParam();
  const std::size_t bytes = std::size_t{512} << 20;
  const Plan plan = planFor(tc.key, FakeTopology(4), bytes);
  ASSERT_FALSE(plan.measurements.empty());
  for (const Measurement& m : plan.measurements) {
    if (m.latency) {
      EXPECT_EQ(m.latency->target.bytes, kLatencyBytes);
    }
    for (const CopySpec& c : m.copies) {
      EXPECT_EQ(c.src.bytes, bytes);
      EXPECT_EQ(c.dst.bytes, bytes);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllDeviceToDevice, D2dTestcase, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return info.param.key; });

// ---- Literal expectations, independent of the table above --------------------------------------

TEST(D2dPlans, TwoGpuReadAndWriteCe) {
  const FakeTopology topo(2);
  EXPECT_EQ(describe(planFor("device_to_device_memcpy_read_ce", topo)),
            (std::vector<std::string>{"gpu1[S] -> gpu0[S] CE on 0 | m0[0][1]=copy0",
                                      "gpu0[S] -> gpu1[S] CE on 1 | m0[1][0]=copy0"}));
  EXPECT_EQ(describe(planFor("device_to_device_memcpy_write_ce", topo)),
            (std::vector<std::string>{"gpu0[S] -> gpu1[S] CE on 0 | m0[0][1]=copy0",
                                      "gpu1[S] -> gpu0[S] CE on 1 | m0[1][0]=copy0"}));
}

TEST(D2dPlans, TwoGpuBidirectional) {
  const FakeTopology topo(2);
  // Read1[r][c] is c -> r issued by r; Write1[r][c] is the same copy issued by c (upstream).
  EXPECT_EQ(describe(planFor("device_to_device_bidirectional_memcpy_read_sm", topo)).at(0),
            "gpu1[S] -> gpu0[S] SM on 0, gpu0[S] -> gpu1[S] SM on 1 | "
            "m0[0][1]=copy0 m1[0][1]=copy1 m2[0][1]=sum");
  EXPECT_EQ(describe(planFor("device_to_device_bidirectional_memcpy_write_ce", topo)).at(0),
            "gpu1[S] -> gpu0[S] CE on 1, gpu0[S] -> gpu1[S] CE on 0 | "
            "m0[0][1]=copy0 m1[0][1]=copy1 m2[0][1]=sum");
}

TEST(D2dPlans, FourGpuFansAreTotalsOfAllPeers) {
  const FakeTopology topo(4);
  EXPECT_EQ(describe(planFor("all_to_one_write_ce", topo)).at(2),
            "gpu0[S] -> gpu2[S] CE on 0, gpu1[S] -> gpu2[S] CE on 1, "
            "gpu3[S] -> gpu2[S] CE on 3 | m0[0][2]=total");
  EXPECT_EQ(describe(planFor("all_to_one_read_ce", topo)).at(0),
            "gpu0[S] -> gpu1[S] CE on 1, gpu0[S] -> gpu2[S] CE on 2, "
            "gpu0[S] -> gpu3[S] CE on 3 | m0[0][0]=total");
  EXPECT_EQ(describe(planFor("all_to_one_read_sm", topo)).at(0),
            "gpu0[S] -> gpu1[S] SM on 0, gpu0[S] -> gpu2[S] SM on 0, "
            "gpu0[S] -> gpu3[S] SM on 0 | m0[0][0]=total");
  EXPECT_EQ(describe(planFor("one_to_all_read_ce", topo)).at(3),
            "gpu0[S] -> gpu3[S] CE on 3, gpu1[S] -> gpu3[S] CE on 3, "
            "gpu2[S] -> gpu3[S] CE on 3 | m0[0][3]=total");
  EXPECT_EQ(describe(planFor("one_to_all_read_sm", topo)).at(3),
            "gpu0[S] -> gpu3[S] SM on 0, gpu1[S] -> gpu3[S] SM on 1, "
            "gpu2[S] -> gpu3[S] SM on 2 | m0[0][3]=total");
}

TEST(D2dPlans, PairWithoutAccessIsNotApplicable) {
  FakeTopology topo(4);
  topo.setPeerAccess(1, 2, false);
  topo.setPeerAccess(2, 1, false);
  const std::set<std::string> expected = {"0,1", "0,2", "0,3", "1,0", "1,3",
                                          "2,0", "2,3", "3,0", "3,1", "3,2"};
  for (const char* key : {"device_to_device_memcpy_read_ce", "device_to_device_memcpy_write_sm",
                          "device_to_device_latency_sm", "device_to_device_latency_tma"})
    EXPECT_EQ(cellsWritten(planFor(key, topo)), expected) << key;
  const Plan bidir = planFor("device_to_device_bidirectional_memcpy_read_ce", topo);
  for (std::size_t m = 0; m < 3; ++m) EXPECT_EQ(cellsWritten(bidir, m), expected) << m;
  // The fans into and out of GPU 1 leave GPU 2 out.
  EXPECT_EQ(describe(planFor("all_to_one_write_sm", topo)).at(1),
            "gpu0[S] -> gpu1[S] SM on 0, gpu3[S] -> gpu1[S] SM on 3 | m0[0][1]=total");
}

TEST(D2dPlans, AccessMissingInOneDirectionDropsThePairBothWays) {
  FakeTopology topo(4);
  topo.setPeerAccess(0, 3, false);  // 3 could still access 0
  // Upstream would measure [3][0] but abort enabling 0 -> 3; we leave both cells N/A.
  for (const Case& tc : cases()) {
    if (tc.shape == Shape::Fan) continue;
    const Plan plan = planFor(tc.key, topo);
    for (std::size_t m = 0; m < plan.matrices.size(); ++m) {
      const std::set<std::string> cells = cellsWritten(plan, m);
      EXPECT_EQ(cells.size(), 10u) << tc.key;
      EXPECT_EQ(cells.count("0,3") + cells.count("3,0"), 0u) << tc.key;
    }
  }
  // one_to_all_write: GPU 0 writes to 1 and 2 only, GPU 3 to 1 and 2 only.
  const std::vector<std::string> fan = describe(planFor("one_to_all_write_ce", topo));
  ASSERT_EQ(fan.size(), 4u);
  EXPECT_EQ(fan[0], "gpu0[S] -> gpu1[S] CE on 0, gpu0[S] -> gpu2[S] CE on 0 | m0[0][0]=total");
  EXPECT_EQ(fan[3], "gpu3[S] -> gpu1[S] CE on 3, gpu3[S] -> gpu2[S] CE on 3 | m0[0][3]=total");
  EXPECT_EQ(describe(planFor("all_to_one_write_ce", topo)).at(3),
            "gpu1[S] -> gpu3[S] CE on 1, gpu2[S] -> gpu3[S] CE on 2 | m0[0][3]=total");
}

TEST(D2dPlans, GpuWithoutPeersHasNoFanMeasurement) {
  FakeTopology topo(4);
  for (int k = 0; k < 3; ++k) {
    topo.setPeerAccess(3, k, false);
    topo.setPeerAccess(k, 3, false);
  }
  for (const Case& tc : cases()) {
    if (tc.shape != Shape::Fan) continue;
    EXPECT_EQ(cellsWritten(planFor(tc.key, topo)), (std::set<std::string>{"0,0", "0,1", "0,2"}))
        << tc.key;
  }
}

TEST(D2dPlans, LatencyIgnoresBufferSize) {
  const Plan plan = planFor("device_to_device_latency_sm", FakeTopology(2), std::size_t{1} << 30);
  EXPECT_EQ(describe(plan), (std::vector<std::string>{"chase on 0: gpu1[2MiB] | m0[0][1]=copy0",
                                                      "chase on 1: gpu0[2MiB] | m0[1][0]=copy0"}));
  for (const Measurement& m : plan.measurements) EXPECT_TRUE(m.copies.empty());
}

// The TMA chase: the same cells, chain and size as the SM chase (-b ignored), each access a bulk
// copy; waived below compute capability 9.0 on any GPU and without a peer pair, like its SM and
// TMA neighbours.
TEST(D2dPlans, TmaLatencyIsTheSmChaseThroughTheTma) {
  for (const std::size_t bytes : {std::size_t{1} << 20, std::size_t{1} << 30}) {
    const Plan plan = planFor("device_to_device_latency_tma", FakeTopology(2), bytes);
    EXPECT_EQ(describe(plan),
              (std::vector<std::string>{"TMA chase on 0: gpu1[2MiB] | m0[0][1]=copy0",
                                        "TMA chase on 1: gpu0[2MiB] | m0[1][0]=copy0"}));
    for (const Measurement& m : plan.measurements) {
      ASSERT_TRUE(m.latency.has_value());
      EXPECT_EQ(m.latency->target.bytes, kLatencyBytes);
      EXPECT_EQ(m.latency->target.kind, MemoryKind::Device);
      EXPECT_TRUE(m.copies.empty());
    }
  }
  for (const Measurement& m : planFor("device_to_device_latency_sm", FakeTopology(2)).measurements)
    EXPECT_EQ(m.latency->access, ChaseAccess::SmLoad);
}

TEST(D2dPlans, TmaLatencyWaivers) {
  const TestcaseDef& tma = def("device_to_device_latency_tma");
  const auto oneGpu = waiveReasonFor(tma, FakeTopology(1));
  ASSERT_TRUE(oneGpu.has_value());
  EXPECT_EQ(*oneGpu, *waiveReasonFor(def("device_to_device_latency_sm"), FakeTopology(1)));
  EXPECT_NE(oneGpu->find("this system has 1 GPU"), std::string::npos) << *oneGpu;

  FakeTopology noAccess(2);
  noAccess.setPeerAccess(0, 1, false);
  noAccess.setPeerAccess(1, 0, false);
  const auto blocked = waiveReasonFor(tma, noAccess);
  ASSERT_TRUE(blocked.has_value());
  EXPECT_NE(blocked->find("cuDeviceCanAccessPeer"), std::string::npos) << *blocked;

  FakeTopology ampere(2);
  ampere.setComputeCapability(0, 80);
  const auto old = waiveReasonFor(tma, ampere);
  ASSERT_TRUE(old.has_value());
  EXPECT_NE(old->find("compute capability 9.0 or later); GPU 0 is 8.0"), std::string::npos) << *old;
  // Below 9.0 the TMA reason wins even where peers are missing too: it says what to change.
  FakeTopology ampereAlone(1);
  ampereAlone.setComputeCapability(0, 80);
  EXPECT_NE(waiveReasonFor(tma, ampereAlone)->find("GPU 0 is 8.0"), std::string::npos);

  EXPECT_EQ(waiveReasonFor(tma, FakeTopology(2)), std::nullopt);
  EXPECT_EQ(waiveReasonFor(tma, FakeTopology(8)), std::nullopt);
}

TEST(D2dPlans, RejectsSplitWarp) {
  const FakeTopology topo(2);
  const PlanContext ctx{topo, kBytes};
  EXPECT_THROW(plans::deviceToDeviceRead(ctx, CopyMethod::SmSplitWarp), std::invalid_argument);
  EXPECT_THROW(plans::fan(CopyMethod::SmSplitWarp, plans::Flow::OutOfEach,
                          ContextPreference::PreferSrc)(ctx),
               std::invalid_argument);
}

// ---- Registry ---------------------------------------------------------------------------------

TEST(Registry, StartsWithTheUpstreamKeysInOrder) {
  // Upstream v0.8 `-l` (tests/golden/upstream/list.txt): index = position.
  std::vector<std::string> keys;
  for (const TestcaseDef& d : registry()) keys.push_back(d.key);
  keys.resize(kUpstreamKeys.size());
  EXPECT_EQ(keys, kUpstreamKeys);
}

TEST(Registry, DeviceToDeviceTestcasesAreExactlyThePeerWaivedOnes) {
  std::set<std::string> d2d;
  for (const Case& tc : cases()) d2d.insert(tc.key);
  ASSERT_EQ(d2d.size(), 18u);
  for (const char* tma : {"device_to_device_memcpy_read_tma", "device_to_device_memcpy_write_tma",
                          "device_to_device_bidirectional_memcpy_read_tma",
                          "device_to_device_bidirectional_memcpy_write_tma"})
    d2d.insert(tma);
  const FakeTopology one(1);
  for (const TestcaseDef& d : registry()) {
    const bool waived = waiveReasonFor(d, one).has_value();
    EXPECT_EQ(waived, d2d.count(d.key) == 1) << d.key;
  }
}

}  // namespace test_testcases_d2d
}  // namespace nvbw
