#include "fake_platform.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>

#include "engine/buffer_content.h"
#include "engine/buffer_pool.h"
#include "engine/copy_run.h"
#include "engine/kernel_failure.h"
#include "engine/plan_groups.h"
#include "engine/sample_recording.h"
#include "fake_topology.h"
#include "output_fixtures.h"
#include "platform/gpu.h"
#include "platform/logical_gpus.h"
#include "sample_issues.h"

namespace nvbw::test {
namespace {

constexpr int kHostNumber = 9;  // stands for "Host" in the value formula

int endpointNumber(const BufferSpec& b) {
  return b.kind == MemoryKind::Host ? kHostNumber : b.device;
}

double latencyValue(const LatencySpec& l) {
  const double base = l.access == ChaseAccess::TmaBulkCopy ? 800.0 : 500.0;
  return base + 10 * l.chaseDevice + endpointNumber(l.target);
}

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

// An allocator that allocates nothing and fails as the driver would: cuMemAlloc when the buffers
// of one measurement need more than a GPU has, cuMemHostRegister when pinning is to fail. What it
// says about the host's memory is this machine's, read as a real run reads it.
class FakeDriverAllocator final : public Allocator {
 public:
  explicit FakeDriverAllocator(const FakeBehaviour& behaviour) : behaviour_(behaviour) {}

  // The limit applies to each measurement's new buffers on its own.
  void beginMeasurement() { used_.clear(); }

  std::unique_ptr<Allocation> allocate(const BufferSpec& spec) override {
    if (spec.kind == MemoryKind::Host && behaviour_.pinFails)
      throw CudaError(CUDA_ERROR_OUT_OF_MEMORY, "cuMemHostRegister",
                      "CUDA_ERROR_OUT_OF_MEMORY (out of memory)",
                      "cuMemHostRegister(raw, mapped, PORTABLE | DEVICEMAP) in the fake driver");
    if (spec.kind == MemoryKind::Device && behaviour_.gpuMemoryMiB > 0) {
      if (used_[spec.device] + spec.bytes > behaviour_.gpuMemoryMiB * kMiB)
        throw CudaError(CUDA_ERROR_OUT_OF_MEMORY, "cuMemAlloc",
                        "CUDA_ERROR_OUT_OF_MEMORY (out of memory)",
                        "cuMemAlloc(&ptr, bytes) in the fake driver");
      used_[spec.device] += spec.bytes;
    }
    auto a = std::make_unique<Allocation>();
    a->spec = spec;
    return a;
  }

  std::string hostPlacement(int) override { return "anywhere"; }

  MemoryState memoryState(const BufferSpec& spec) override {
    if (spec.kind == MemoryKind::Host) return hostMemoryState();
    MemoryState state;
    if (behaviour_.gpuMemoryMiB > 0) {
      state.totalBytes = behaviour_.gpuMemoryMiB * kMiB;
      state.freeBytes = *state.totalBytes - used_[spec.device];
    }
    return state;
  }

 private:
  const FakeBehaviour& behaviour_;
  std::map<int, std::uint64_t> used_;
};

// The CUDA runtime's description of the errors the fake's launches can fail with.
std::string runtimeErrorText(const std::string& name) {
  if (name == "cudaErrorNoKernelImageForDevice")
    return "no kernel image is available for execution on the device";
  if (name == "cudaErrorLaunchOutOfResources") return "too many resources requested for launch";
  if (name == "cudaErrorUnsupportedPtxVersion")
    return "the provided PTX was compiled with an unsupported toolchain.";
  return "unknown error";
}

const char* kernelOf(CopyMethod method) {
  switch (method) {
  case CopyMethod::SmCopy:
    return "stridingCopyKernel";
  case CopyMethod::SmSplitWarp:
    return "splitWarpCopyKernel";
  case CopyMethod::SmMulticast:
    return "multicastWriteKernel";
  case CopyMethod::Tma:
    return "tmaCopyKernel";
  case CopyMethod::SmReadOnly:
    return "readOnlyKernel";
  case CopyMethod::SmWriteOnly:
    return "writeOnlyKernel";
  case CopyMethod::CopyEngine:
    break;
  }
  return nullptr;
}

// Runs plans as the GPU executor does, group by group (engine/plan_groups.h), through the real
// buffer pool and the real fill and check decisions (engine/buffer_content.h), so that what it
// counts (memory, allocations, fills, checks, copies) is what a real run does; only the values
// come from the formula above instead of a GPU.
class FakeMeasuringExecutor final : public PlanExecutor {
 public:
  FakeMeasuringExecutor(RunSettings settings, ExecHooks hooks, FakeBehaviour behaviour)
      : settings_(settings), hooks_(std::move(hooks)), behaviour_(std::move(behaviour)),
        noise_(behaviour_.noiseSeed), allocator_(behaviour_), pool_(allocator_) {}

  PlanResult run(const Plan& plan, const ProgressSink& progress) override {
    try {
      return measurePlan(plan, progress);
    } catch (...) {
      pool_.clear();  // as the real executor: start afresh after an error
      throw;
    }
  }
  MemoryStats memoryStats() const override { return pool_.stats(); }
  OperationCounts operationCounts() const override { return counts_; }

 private:
  PlanResult measurePlan(const Plan& plan, const ProgressSink& progress) {
    failIfAsked(plan);
    const std::string title = plan.matrices.empty() ? std::string() : plan.matrices.front().title;
    runScale_ = measuredPlans_.insert(title).second ? behaviour_.firstRunScale : 1.0;
    if (plan.multiProcess)
      pool_.clear();
    else
      pool_.allowFor(plan);
    written_.clear();
    const OperationCounts before = counts_;
    engine::GroupSteps steps;
    steps.measure = [&](const std::vector<std::size_t>& group,
                        const std::function<void(unsigned)>& afterSample) {
      return measureGroup(plan, group, afterSample);
    };
    steps.checkStop = [this] {
      if (const int signal = hooks_.stopRequested ? hooks_.stopRequested() : 0)
        throw Interrupted(signal);
    };
    PlanResult result =
        engine::runGroups(plan, steps, settings_.statistic, settings_.samples, progress, counts_);
    logCounts(plan, before);
    return result;
  }

  // NVBW_FAKE_COUNTS=FILE: one line per plan run, what it did (the cost model's input).
  void logCounts(const Plan& plan, const OperationCounts& before) const;

  std::vector<MeasurementSamples> measureGroup(const Plan& plan,
                                               const std::vector<std::size_t>& group,
                                               const std::function<void(unsigned)>& afterSample) {
    std::vector<const Measurement*> ms;
    for (std::size_t i : group) ms.push_back(&plan.measurements.at(i));
    std::optional<BufferPool::Lease> buffers;
    std::vector<engine::BufferContent> own;
    if (!plan.multiProcess) buffers.emplace(acquire(ms));
    for (const Measurement* m : ms) {
      checkCells(*m);
      prepare(*m);
    }
    std::vector<FakeCopy> copies = copiesOf(ms, buffers, own);
    if (behaviour_.confidential) confidentialDevice(plan.timing, ms);
    std::vector<MeasurementSamples> samples;
    for (const Measurement* m : ms) samples.push_back(measure(*m));
    for (unsigned k = 0; k < settings_.samples; ++k) {
      sampleBuffers(copies, k);
      for (const Measurement* m : ms) counts_.chases += m->latency ? 1 : 0;
      std::this_thread::sleep_for(behaviour_.perSample);
      afterSample(k);
    }
    return samples;
  }

  // A confidential-computing device (NVBW_FAKE_CONFIDENTIAL=1): a copy between host and device
  // memory blocks the thread that issues it until its stream is idle, so a sample issued in an
  // order that waits for itself never ends (sample_issues.h: the order the sample
  // protocol issues, replayed here); and a copy kernel that touches host memory reads and writes
  // it through encrypted bounce buffers, so what it wrote is wrong.
  void confidentialDevice(SampleTiming timing, const std::vector<const Measurement*>& ms) const {
    std::vector<std::size_t> sizes;
    std::vector<bool> hostCopy;
    for (const Measurement* m : ms) {
      sizes.push_back(m->copies.size());
      for (const CopySpec& c : m->copies) {
        const bool host = c.src.kind == MemoryKind::Host || c.dst.kind == MemoryKind::Host;
        hostCopy.push_back(host && c.method == CopyMethod::CopyEngine);
        if (host && c.method != CopyMethod::CopyEngine)
          throw VerificationError("data verification failed for the destination of " +
                                  copyLabel(c) +
                                  ": a copy kernel read host memory through the confidential "
                                  "computing bounce buffers");
      }
    }
    if (const auto hang = engine::confidentialHang(engine::sampleIssues(timing, sizes), hostCopy))
      throw Error("the sample never ends on this confidential-computing host: " + *hang +
                  " (the fake stops it instead of hanging)");
  }

  // A copy of the group and its buffers' records (the pool's, or the group's own).
  struct FakeCopy {
    const CopySpec* spec;
    std::size_t checked;
    engine::BufferContent* src;
    engine::BufferContent* dst;
    engine::SampleFills fills;
  };

  std::vector<FakeCopy> copiesOf(const std::vector<const Measurement*>& ms,
                                 const std::optional<BufferPool::Lease>& buffers,
                                 std::vector<engine::BufferContent>& own) {
    std::size_t count = 0;
    for (const Measurement* m : ms) count += m->copies.size() + (m->latency ? 1 : 0);
    own.assign(2 * count, {});
    std::vector<FakeCopy> copies;
    std::size_t spec = 0;
    for (const Measurement* m : ms) {
      if (m->latency) {
        if (buffers) (*buffers)[spec].content = {};  // a chain, no pattern
        ++spec;
        continue;
      }
      for (const CopySpec& c : m->copies) {
        const int sms = smCount(c.execDevice);
        auto content = [&](std::size_t i) { return buffers ? &(*buffers)[i].content : &own[i]; };
        copies.push_back(
            {&c, engine::copyShape(c, sms).bytes, content(spec), content(spec + 1), {}});
        spec += 2;
      }
    }
    return copies;
  }

  int smCount(int device) const {
    const std::size_t d = static_cast<std::size_t>(device);
    return d < behaviour_.smCounts.size() ? behaviour_.smCounts[d] : 132;
  }

  // One sample's fills, copies and checks as the sample protocol decides and counts them; a copy
  // the behaviour says fails is reported as its check would report it.
  void sampleBuffers(std::vector<FakeCopy>& copies, unsigned sample) {
    if (copies.empty()) return;
    std::uint64_t longest = 0;
    for (FakeCopy& c : copies) {
      const CopySpec& s = *c.spec;
      c.fills =
          engine::planFromRecords(s.method, engine::reachOf(s.src, s), engine::reachOf(s.dst, s),
                                  {c.src, 0}, {c.dst, 0}, c.checked);
      engine::countSample(s.method, s.src.kind == MemoryKind::Host, s.dst.kind == MemoryKind::Host,
                          c.checked, c.fills, settings_.verify, counts_);
      ++counts_.copies;
      counts_.copyBytes += c.checked;
      longest = std::max<std::uint64_t>(longest, c.checked);
    }
    ++counts_.samples;
    counts_.longestCopyBytes += longest;
    for (const FakeCopy& c : copies)
      if (settings_.verify &&
          behaviour_.failingCopies.count({endpoint(c.spec->src), endpoint(c.spec->dst)}))
        throw VerificationError(mismatchMessage("the destination of " + copyLabel(*c.spec), sample,
                                                7, c.checked / 4, 1024));
    for (FakeCopy& c : copies) {
      const CopySpec& s = *c.spec;
      engine::recordSample(
          s.method, c.fills,
          {c.src, 0, s.src.kind == MemoryKind::Host, c.dst, 0, s.dst.kind == MemoryKind::Host},
          c.checked, settings_.verify);
    }
  }

  // Peer access and kernel launches, failing where the behaviour says.
  void prepare(const Measurement& m) const {
    std::vector<std::pair<int, int>> peers;
    if (m.latency && m.latency->target.kind == MemoryKind::Device &&
        m.latency->target.device != m.latency->chaseDevice)
      peers.emplace_back(m.latency->chaseDevice, m.latency->target.device);
    for (const CopySpec& c : m.copies)
      for (const BufferSpec* b : {&c.src, &c.dst})
        if (b->kind == MemoryKind::Device && b->device != c.execDevice)
          peers.emplace_back(c.execDevice, b->device);
    for (const auto& [a, b] : peers)
      for (const auto& [from, to] : {std::make_pair(a, b), std::make_pair(b, a)})
        if (behaviour_.peerFails.count({from, to}))
          throw PeerAccessError(
              peerAccessFailureMessage(from, to, CUDA_ERROR_PEER_ACCESS_UNSUPPORTED,
                                       "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED (peer access is not "
                                       "supported between these two devices)"),
              "cuCtxEnablePeerAccess(context(" + std::to_string(to) + "), 0) in the fake driver");
    if (behaviour_.launchFails.empty()) return;
    for (const CopySpec& c : m.copies) {
      const char* kernel = kernelOf(c.method);
      if (!kernel) continue;
      KernelFailure f;
      f.kernel = kernel;
      f.device = c.execDevice;
      const std::size_t device = static_cast<std::size_t>(c.execDevice);
      f.computeCapability = device < behaviour_.computeCapabilities.size()
                                ? behaviour_.computeCapabilities[device]
                                : 0;
      f.errorName = behaviour_.launchFails;
      f.errorText = runtimeErrorText(f.errorName);
      f.buildArchitectures = "900";
      throw KernelError(kernelFailureMessage(f),
                        std::string("cudaGetLastError() after launching ") + kernel +
                            " in the fake driver");
    }
  }

  void failIfAsked(const Plan& plan) const {
    if (plan.matrices.empty()) return;
    for (const std::string& title : behaviour_.failingTitles)
      if (plan.matrices.front().title.find(title) != std::string::npos)
        throw VerificationError(
            mismatchMessage("the destination of a faked copy", 0, 12, 1u << 20, 1024));
  }

  static int endpoint(const BufferSpec& b) { return b.kind == MemoryKind::Host ? -1 : b.device; }

  void checkCells(const Measurement& m) {
    EXPECT_FALSE(m.outputs.empty()) << "a measurement reports no cell";
    for (const OutputTarget& t : m.outputs)
      EXPECT_TRUE(written_.insert({t.matrix, t.row, t.col}).second)
          << "cell [" << t.row << "][" << t.col << "] of matrix " << t.matrix << " written twice";
  }

  BufferPool::Lease acquire(const std::vector<const Measurement*>& ms) {
    allocator_.beginMeasurement();
    std::vector<BufferSpec> specs;
    bool latency = false;
    for (const Measurement* m : ms) {
      if (m->latency) {
        specs.push_back(m->latency->target);
        latency = true;
      }
      for (const CopySpec& c : m->copies) {
        specs.push_back(c.src);
        specs.push_back(c.dst);
      }
    }
    if (latency) return pool_.acquire(specs, BufferSizeOrigin::Fixed);
    return pool_.acquire(specs, settings_.sweep ? BufferSizeOrigin::Sweep
                                                : BufferSizeOrigin::BufferSizeOption);
  }

  // The samples of one series: `value` shaped by the behaviour, then each sample's noise.
  std::vector<double> series(double value, bool latency, std::size_t bytes = 0) {
    value *= behaviour_.scale * runScale_;
    value *= latency ? 1.0 + behaviour_.slowdown : 1.0 - behaviour_.slowdown;
    if (behaviour_.rampMiB > 0 && bytes > 0) {
      const double mib = static_cast<double>(bytes) / 1048576.0;
      value *= mib / (mib + behaviour_.rampMiB);
    }
    std::vector<double> s;
    for (unsigned k = 0; k < settings_.samples; ++k)
      s.push_back(value * (1.0 + behaviour_.jitter * (static_cast<int>(k % 3) - 1)) *
                  noiseFactor(latency));
    return s;
  }

  // 1 without noise; else 1 + noiseCv x z, and now and then an outlier that much worse again.
  double noiseFactor(bool latency) {
    const double cv = behaviour_.noiseCv;
    if (cv <= 0.0) return 1.0;
    double factor = 1.0 + cv * std::normal_distribution<double>(0.0, 1.0)(noise_);
    if (std::uniform_int_distribution<unsigned>(1, kFakeOutlierEvery)(noise_) == 1)
      factor += (latency ? 1.0 : -1.0) * kFakeOutlierCvs * cv;
    return std::max(factor, 0.05);  // a copy never takes forever nor no time at all
  }

  // With shareLinks: how many copies of `m` write into the GPU `copy` writes into, or read the
  // GPU it reads (the larger); else 1.
  double sharing(const Measurement& m, const CopySpec& copy) const {
    if (!behaviour_.shareLinks) return 1.0;
    const auto onDevice = [](const BufferSpec& b, const BufferSpec& other) {
      return b.kind != MemoryKind::Host && other.kind != MemoryKind::Host &&
             b.device == other.device;
    };
    std::size_t into = 0, from = 0;
    for (const CopySpec& c : m.copies) {
      into += onDevice(c.dst, copy.dst) ? 1 : 0;
      from += onDevice(c.src, copy.src) ? 1 : 0;
    }
    return static_cast<double>(std::max<std::size_t>({into, from, 1}));
  }

  MeasurementSamples measure(const Measurement& m) {
    MeasurementSamples s;
    if (m.latency) {
      s.copies.push_back(series(latencyValue(*m.latency), true));
      return s;
    }
    double all = 0.0;
    for (std::size_t i = 0; i < m.copies.size(); ++i) {
      const CopySpec& copy = m.copies[i];
      const bool host = copy.src.kind == MemoryKind::Host || copy.dst.kind == MemoryKind::Host;
      const double value = fakeCopyValue(copy.src, copy.dst, i) *
                           (host ? behaviour_.hostScale : 1.0) / sharing(m, copy);
      s.copies.push_back(series(value, false, m.copies[i].src.bytes));
      all += value;
    }
    const bool total = std::any_of(m.outputs.begin(), m.outputs.end(), [](const OutputTarget& t) {
      return t.source == ValueSource::Total;
    });
    if (total) s.total = series(all, false, m.copies.empty() ? 0 : m.copies.front().src.bytes);
    return s;
  }

  RunSettings settings_;
  ExecHooks hooks_;
  FakeBehaviour behaviour_;
  FakeDriverAllocator allocator_;
  BufferPool pool_;
  OperationCounts counts_;
  std::set<std::tuple<std::size_t, std::size_t, std::size_t>> written_;  // this plan's cells
  std::set<std::string> measuredPlans_;  // the titles of the plans measured so far
  double runScale_ = 1.0;                // firstRunScale for a plan's first measurement
  std::mt19937 noise_;                   // the samples' noise (FakeBehaviour::noiseCv)
};

// How many copies the first cell's value stands for: 1 where it is one copy's bandwidth, every
// copy of its measurement where it is their sum or aggregate (a fan's).
std::size_t cellCopies(const Plan& plan) {
  if (plan.measurements.empty() || plan.measurements.front().outputs.empty()) return 1;
  const Measurement& m = plan.measurements.front();
  return m.outputs.front().source == ValueSource::Copy ? 1
                                                       : std::max<std::size_t>(1, m.copies.size());
}

void FakeMeasuringExecutor::logCounts(const Plan& plan, const OperationCounts& before) const {
  if (behaviour_.countsFile.empty()) return;
  const OperationCounts& now = counts_;
  std::ofstream out(behaviour_.countsFile, std::ios::app);
  out << "{\"title\": \"" << (plan.matrices.empty() ? "" : plan.matrices.front().title)
      << "\", \"measurements\": " << plan.measurements.size()
      << ", \"cell_copies\": " << cellCopies(plan) << ", \"rounds\": " << now.rounds - before.rounds
      << ", \"samples\": " << now.samples - before.samples
      << ", \"copies\": " << now.copies - before.copies
      << ", \"copy_bytes\": " << now.copyBytes - before.copyBytes
      << ", \"longest_copy_bytes\": " << now.longestCopyBytes - before.longestCopyBytes
      << ", \"chases\": " << now.chases - before.chases
      << ", \"fills\": " << now.fills.count - before.fills.count
      << ", \"fill_host_bytes\": " << now.fills.hostBytes - before.fills.hostBytes
      << ", \"fill_device_bytes\": " << now.fills.deviceBytes - before.fills.deviceBytes
      << ", \"checks\": " << now.checks.count - before.checks.count
      << ", \"check_host_bytes\": " << now.checks.hostBytes - before.checks.hostBytes
      << ", \"check_device_bytes\": " << now.checks.deviceBytes - before.checks.deviceBytes
      << ", \"host_allocations\": " << pool_.stats().hostAllocations
      << ", \"device_allocations\": " << pool_.stats().deviceAllocations
      << ", \"host_bytes_allocated\": " << pool_.stats().hostBytesAllocated
      << ", \"device_bytes_allocated\": " << pool_.stats().deviceBytesAllocated
      << ", \"peak_host_bytes\": " << pool_.stats().peakHostBytes
      << ", \"peak_device_bytes\": " << pool_.stats().peakDeviceBytes << "}\n";
}

}  // namespace

double fakeCopyValue(const BufferSpec& src, const BufferSpec& dst, std::size_t copyIndex) {
  return 100.0 + 10 * endpointNumber(src) + endpointNumber(dst) +
         0.25 * static_cast<double>(copyIndex);
}

namespace {

// The one GPU of `physical` as `count` logical GPUs: its facts on every one, the links between
// them those logicalLinkFacts gives.
FakeTopology logicalTopology(const FakeTopology& physical, int count) {
  FakeTopology logical(count, physical.smCount(0));
  logical.setConfidentialComputing(physical.confidentialComputing());
  logical.setProcessFacts(physical.processFacts());
  for (int d = 0; d < count; ++d) {
    logical.setComputeCapability(d, physical.computeCapability(0));
    logical.setLinkFacts(d, logicalLinkFacts(physical.linkFacts(0)));
  }
  return logical;
}

}  // namespace

FakePlatform::FakePlatform(FakeTopology topology, FakeBehaviour behaviour)
    : topology_(std::move(topology)), behaviour_(std::move(behaviour)) {
  logicalGpus_ = logicalGpusRequested(behaviour_.logicalGpus);
  checkOnePhysicalGpu(logicalGpus_, topology_.deviceCount());
  if (logicalGpus_ > 0) topology_ = logicalTopology(topology_, logicalGpus_);
}

EnvironmentSnapshot FakePlatform::environment() const {
  const std::vector<EnvironmentSnapshot>& e = behaviour_.environments;
  const std::size_t call = environmentCalls_++;
  if (e.empty()) return {};
  return e[std::min(call, e.size() - 1)];
}

SystemFacts FakePlatform::systemFacts() const {
  SystemFacts info = systemWith(topology_.deviceCount());
  if (!behaviour_.release.empty()) info.release = behaviour_.release;
  info.confidentialComputing = topology_.confidentialComputing();
  if (logicalGpus_ > 0) {
    info.devices.assign(static_cast<std::size_t>(logicalGpus_), systemWith(1).devices.front());
    info.logicalGpus = logicalGpus_;
  }
  return info;
}

std::unique_ptr<PlanExecutor> FakePlatform::makePlanExecutor(const RunSettings& settings,
                                                             ExecHooks hooks) {
  if (!behaviour_.executorFailure.empty()) throw std::runtime_error(behaviour_.executorFailure);
  FakeBehaviour behaviour = behaviour_;
  behaviour.confidential = topology_.confidentialComputing();
  behaviour.computeCapabilities.clear();
  behaviour.smCounts.clear();
  for (int d = 0; d < topology_.deviceCount(); ++d) {
    behaviour.computeCapabilities.push_back(topology_.computeCapability(d));
    behaviour.smCounts.push_back(topology_.smCount(d));
  }
  return makeFakeExecutor(settings, std::move(hooks), std::move(behaviour));
}

std::unique_ptr<PlanExecutor> makeFakeExecutor(const RunSettings& settings, ExecHooks hooks,
                                               FakeBehaviour behaviour) {
  return std::make_unique<FakeMeasuringExecutor>(settings, std::move(hooks), std::move(behaviour));
}

PlatformFactory fakePlatform(FakeTopology topology, FakeBehaviour behaviour) {
  return [topology, behaviour](const PlatformStart&) -> std::unique_ptr<Platform> {
    return std::make_unique<FakePlatform>(topology, behaviour);
  };
}

AppRun runApp(const std::vector<std::string>& args, const PlatformFactory& platform,
              StopRequest stop) {
  std::ostringstream out, err;
  AppContext context{platform, out, err, std::move(stop), {}, nullptr, RegistryScope::SingleNode};
  AppRun run;
  run.exitCode = runCommandLine(args, context);
  run.out = out.str();
  run.err = err.str();
  return run;
}

namespace {

std::string fakeBusId(int device) {
  char text[32];
  std::snprintf(text, sizeof text, "00000000:%02X:00.0", 0x19 + 0x10 * device);
  return text;
}

std::vector<NvlinkLink> fakeNvlinks(int device, int devices, const std::string& kind) {
  if (kind == "nvswitch")
    return std::vector<NvlinkLink>(18,
                                   {40, 26.5625, NvlinkLink::Remote::Switch, "00000000:C0:00.0"});
  if (kind == "direct" && devices == 2)
    return std::vector<NvlinkLink>(18,
                                   {40, 26.5625, NvlinkLink::Remote::Gpu, fakeBusId(1 - device)});
  return {};
}

}  // namespace

FakeTopology withH200Links(FakeTopology topology, const std::string& nvlinks) {
  for (int d = 0; d < topology.deviceCount(); ++d) {
    GpuLinkFacts f;
    f.busId = fakeBusId(d);
    f.pcie = PcieLinkState{32.0, 16, 32.0, 16};
    f.memory = MemoryFacts{3201000, 6016};
    if (nvlinks != "none") {
      f.c2c = false;
      f.nvlinks = fakeNvlinks(d, topology.deviceCount(), nvlinks);
    }
    topology.setLinkFacts(d, f);
  }
  return topology;
}

EnvironmentSnapshot h200Environment(int gpus) {
  EnvironmentSnapshot s;
  s.host.cpuModel = "Intel(R) Xeon(R) Platinum 8480C";
  s.host.numaNodes = "0-1";
  for (int d = 0; d < gpus; ++d) {
    GpuEnvironment g;
    g.smClockMHz = g.smClockMaxMHz = 1980u;
    g.memoryClockMHz = g.memoryClockMaxMHz = 3201u;
    g.clocksLocked = false;
    g.powerLimitW = 700.0;
    g.powerDrawW = 121.5;
    g.temperatureC = 41;
    g.eccEnabled = g.persistenceMode = true;
    g.migEnabled = false;
    g.computeMode = "Default";
    g.throttleNs = 0;
    g.pcie = PcieLinkState{32.0, 16, 32.0, 16};
    g.numaNode = d < gpus / 2 ? 0 : 1;
    g.hostBufferCpus = d < gpus / 2 ? "0-55" : "56-111";
    s.gpus.push_back(g);
  }
  return s;
}

}  // namespace nvbw::test
