// The buffer pool without a GPU: a counting allocator stands in for the GPU allocations.
// The bound: never more pinned host memory, or memory on any GPU, than one measurement of the
// testcases run so far needs (the largest), checked over every testcase of the registry on 8
// faked GPUs at -b 4096; buffers kept from one testcase to the next.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

#include "engine/buffer_pool.h"
#include "fake_topology.h"
#include "plans/registry.h"

namespace nvbw {
namespace test_buffer_pool {

constexpr std::size_t kMiB = std::size_t{1} << 20;

// Counts allocations; host placement by a GPU -> NUMA node table (default: one node).
class CountingAllocator final : public Allocator {
 public:
  std::map<int, int> numaNodeOf;
  int allocations = 0;

  std::unique_ptr<Allocation> allocate(const BufferSpec& spec) override {
    ++allocations;
    auto a = std::make_unique<Allocation>();
    a->spec = spec;
    return a;
  }
  std::string hostPlacement(int device) override {
    const auto it = numaNodeOf.find(device);
    return "node" + std::to_string(it == numaNodeOf.end() ? 0 : it->second);
  }
};

Plan onePlan(std::vector<std::vector<BufferSpec>> measurements) {
  Plan plan;
  for (const auto& specs : measurements) {
    Measurement m;
    for (std::size_t i = 0; i + 1 < specs.size(); i += 2)
      m.copies.push_back(makeCopy(specs[i], specs[i + 1], CopyMethod::CopyEngine));
    plan.measurements.push_back(m);
  }
  return plan;
}

std::vector<BufferSpec> specsOf(const Measurement& m) {
  std::vector<BufferSpec> specs;
  for (const CopySpec& c : m.copies) {
    specs.push_back(c.src);
    specs.push_back(c.dst);
  }
  if (m.latency) specs.push_back(m.latency->target);
  return specs;
}

TEST(BufferPool, ReusesBuffersAcrossMeasurementsAndTestcases) {
  CountingAllocator alloc;
  BufferPool pool(alloc);
  const auto h = BufferSpec::host(0, 64 * kMiB);
  const auto d = BufferSpec::onDevice(0, 64 * kMiB);
  const Plan plan = onePlan({{h, d}, {h, d}});
  pool.allowFor(plan);
  for (int i = 0; i < 2; ++i) pool.acquire({h, d});
  pool.allowFor(onePlan({{d, h}}));
  pool.acquire({d, h});
  EXPECT_EQ(alloc.allocations, 2);
  EXPECT_EQ(pool.heldHostBytes(), 64 * kMiB);
  EXPECT_EQ(pool.heldDeviceBytes(0), 64 * kMiB);
}

TEST(BufferPool, HostBuffersAreSharedBetweenGpusOfOnePlacementOnly) {
  CountingAllocator alloc;
  alloc.numaNodeOf = {{0, 0}, {1, 0}, {2, 1}};
  BufferPool pool(alloc);
  const Plan plan = onePlan({{BufferSpec::host(0, kMiB), BufferSpec::onDevice(0, kMiB)},
                             {BufferSpec::host(1, kMiB), BufferSpec::onDevice(1, kMiB)},
                             {BufferSpec::host(2, kMiB), BufferSpec::onDevice(2, kMiB)}});
  pool.allowFor(plan);
  for (const Measurement& m : plan.measurements) {
    const BufferPool::Lease lease = pool.acquire(specsOf(m));
    EXPECT_EQ(lease[0].spec, m.copies[0].src);  // the lease names the plan's buffer
  }
  // GPU 1 reused GPU 0's host buffer; GPU 2 (another NUMA node) needed its own, and the limit
  // of one host buffer at a time freed the first.
  EXPECT_EQ(alloc.allocations, 5);
  EXPECT_EQ(pool.heldHostBytes(), kMiB);
}

TEST(BufferPool, KeepsBuffersForLaterTestcasesAndFreesOnlyToMakeRoom) {
  CountingAllocator alloc;
  BufferPool pool(alloc);
  const auto big = BufferSpec::host(0, 1024 * kMiB);
  const auto bigger = BufferSpec::host(0, 2048 * kMiB);
  pool.allowFor(onePlan({{big, bigger}}));
  pool.acquire({big, bigger});
  EXPECT_EQ(pool.heldHostBytes(), 3072 * kMiB);
  // A testcase that needs less leaves them in place, for a later one that needs them again.
  pool.allowFor(onePlan({{BufferSpec::host(0, kMiB), BufferSpec::onDevice(0, kMiB)}}));
  EXPECT_EQ(pool.heldHostBytes(), 3072 * kMiB);
  pool.acquire({big, BufferSpec::onDevice(0, kMiB)});
  EXPECT_EQ(alloc.allocations, 3);
  // One that needs a buffer of another size (among others: no borrowing, see below) gets it
  // within the bound: a kept one makes room.
  pool.acquire({BufferSpec::host(0, 1536 * kMiB), BufferSpec::onDevice(0, kMiB)});
  EXPECT_EQ(alloc.allocations, 4);
  EXPECT_LE(pool.heldHostBytes(), 3072 * kMiB);
  EXPECT_EQ(pool.stats().peakHostBytes, 3072 * kMiB);
  EXPECT_EQ(pool.stats().hostAllocations, 3u);
  EXPECT_EQ(pool.stats().deviceAllocations, 1u);
  // clear() lets go of everything and of the bound.
  pool.clear();
  EXPECT_EQ(pool.heldHostBytes(), 0u);
  EXPECT_EQ(pool.heldDeviceBytes(0), 0u);
}

TEST(BufferPool, ASmallBufferWithoutRoomBorrowsTheSmallestLargerOne) {
  CountingAllocator alloc;
  BufferPool pool(alloc);
  const auto a = BufferSpec::host(0, 512 * kMiB);
  const auto b = BufferSpec::host(0, 256 * kMiB);
  pool.allowFor(onePlan({{a, b}}));
  pool.acquire({a, b});
  EXPECT_EQ(alloc.allocations, 2);
  {
    // A pointer chain's 2 MiB: no room beside the kept 768 MiB, so the 256 MiB one serves.
    const BufferPool::Lease chain = pool.acquire({BufferSpec::host(0, 2 * kMiB)});
    EXPECT_EQ(chain[0].spec.bytes, 256 * kMiB);  // the allocation's size, not the request's
    EXPECT_EQ(alloc.allocations, 2);
    EXPECT_EQ(pool.heldHostBytes(), 768 * kMiB);
    // A second one at once gets the next larger, the 512 MiB one.
    const BufferPool::Lease other = pool.acquire({BufferSpec::host(0, 2 * kMiB)});
    EXPECT_EQ(other[0].spec.bytes, 512 * kMiB);
    EXPECT_EQ(alloc.allocations, 2);
  }
  // The borrowed buffers went back under their own sizes: the first measurement finds them.
  pool.acquire({a, b});
  EXPECT_EQ(alloc.allocations, 2);
  // Where a new buffer fits, it is allocated: a larger kept one is not borrowed.
  BufferPool roomy(alloc);
  roomy.allowFor(onePlan({{a, a}}));
  roomy.acquire({a});
  const BufferPool::Lease small = roomy.acquire({BufferSpec::host(0, 2 * kMiB)});
  EXPECT_EQ(small[0].spec.bytes, 2 * kMiB);
  EXPECT_EQ(roomy.heldHostBytes(), 514 * kMiB);
}

TEST(BufferPool, KeptBuffersKeepWhatTheyHold) {
  CountingAllocator alloc;
  BufferPool pool(alloc);
  const auto h = BufferSpec::host(0, 64 * kMiB);
  pool.allowFor(onePlan({{h, BufferSpec::onDevice(0, 64 * kMiB)}}));
  {
    const BufferPool::Lease lease = pool.acquire({h});
    lease[0].content.set(2, 0, 64 * kMiB);
  }
  const BufferPool::Lease again = pool.acquire({h});
  EXPECT_EQ(again[0].content.over(0, 64 * kMiB), 2);
  EXPECT_EQ(again[0].content.over(0, 65 * kMiB), engine::kUnknown);  // more than it holds
}

TEST(BufferPool, MemoryNeedOfAPlanIsItsLargestMeasurementPerResource) {
  const Plan plan = onePlan({{BufferSpec::host(0, 3), BufferSpec::onDevice(0, 5)},
                             {BufferSpec::onDevice(1, 7), BufferSpec::onDevice(0, 1),
                              BufferSpec::host(1, 2), BufferSpec::host(0, 2)}});
  const MemoryNeed need = memoryNeedOf(plan);
  EXPECT_EQ(need.host, 4u);
  EXPECT_EQ(need.device.at(0), 5u);
  EXPECT_EQ(need.device.at(1), 7u);
}

struct Peak {
  std::size_t host = 0;
  std::size_t device = 0;  // on the busiest GPU
};

// Runs every testcase of the registry through the pool the way the executor does, checking after
// each acquisition that the pool holds no more than the largest need of the testcases so far.
// --sweep runs each testcase at every size before the next testcase: `sizes` in that order.
Peak runWholeRegistry(int gpus, std::size_t bufferBytes,
                      const std::vector<std::size_t>& sweepBytes = {}) {
  CountingAllocator alloc;
  BufferPool pool(alloc);
  const FakeTopology topo(gpus);
  Peak peak;
  MemoryNeed need;  // the largest of the testcases so far, per resource
  const std::vector<std::size_t> sizes =
      sweepBytes.empty() ? std::vector<std::size_t>{bufferBytes} : sweepBytes;
  for (const TestcaseDef& def : makeRegistry())
    for (std::size_t size : sizes) {
      if (waiveReasonFor(def, topo)) continue;
      const Plan plan = def.plan(PlanContext{topo, size});
      const MemoryNeed one = memoryNeedOf(plan);
      need.host = std::max(need.host, one.host);
      for (const auto& [d, bytes] : one.device) need.device[d] = std::max(need.device[d], bytes);
      pool.allowFor(plan);
      for (const Measurement& m : plan.measurements) {
        const BufferPool::Lease lease = pool.acquire(specsOf(m));
        EXPECT_LE(pool.heldHostBytes(), need.host) << def.key;
        peak.host = std::max(peak.host, pool.heldHostBytes());
        for (int d = 0; d < gpus; ++d) {
          const auto it = need.device.find(d);
          EXPECT_LE(pool.heldDeviceBytes(d), it == need.device.end() ? 0 : it->second) << def.key;
          peak.device = std::max(peak.device, pool.heldDeviceBytes(d));
        }
      }
    }
  return peak;
}

// docs/memory-and-time.md: with N GPUs and S = -b MiB, pinned host memory peaks at (4N-1)·S (the
// bidirectional all-to-host/host-to-all copy engine testcases) and each GPU's memory at
// max(4S, (N-1)·S) (those testcases, and the all-to-one/one-to-all fans), 3S on one GPU. That is
// what upstream allocates for its largest cell too.
TEST(BufferPool, PeakMemoryOfAWholeRunOnEightGpusAt4GiB) {
  const std::size_t s = 4096 * kMiB;
  const Peak peak = runWholeRegistry(8, s);
  EXPECT_EQ(peak.host, 31 * s);  // 124 GiB, not the 160 GiB an unbounded pool kept
  EXPECT_EQ(peak.device, 7 * s);
}

TEST(BufferPool, PeakMemoryFollowsTheReadmeFormula) {
  const std::size_t s = 512 * kMiB;
  for (int n : {1, 2, 3, 4, 8}) {
    const Peak peak = runWholeRegistry(n, s);
    EXPECT_EQ(peak.host, static_cast<std::size_t>(4 * n - 1) * s) << n << " GPUs";
    const std::size_t device = n == 1 ? 3 * s : std::max<std::size_t>(4, n - 1) * s;
    EXPECT_EQ(peak.device, device) << n << " GPUs";
  }
}

// A sweep changes the size every run: the pool holds no more than the largest size so far needs
// (checked after every acquisition above), so the peak is the largest size's, whichever way
// sizes go.
TEST(BufferPool, SweepsPeakAtTheLargestSizesNeed) {
  const std::size_t s = 64 * kMiB;
  const Peak largest = runWholeRegistry(2, s);
  std::vector<std::size_t> up;
  for (std::size_t size = kMiB; size <= s; size *= 2) up.push_back(size);
  const std::vector<std::size_t> down(up.rbegin(), up.rend());
  for (const auto& sizes : {up, down}) {
    const Peak sweep = runWholeRegistry(2, s, sizes);
    EXPECT_EQ(sweep.host, largest.host);
    EXPECT_EQ(sweep.device, largest.device);
  }
}

}  // namespace test_buffer_pool
}  // namespace nvbw
