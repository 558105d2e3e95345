// The GPU plan runner: for each group of a plan (a measurement, or a round of them), get its
// buffers, run its samples (copies through the sample protocol, or pointer chases), and record
// its cells and -v lines (engine/plan_groups.h).
#include "engine/executor.h"

#include <algorithm>

#include "core/statistics.h"
#include "engine/buffer_pool.h"
#include "engine/copy_run.h"
#include "engine/kernels/kernels.h"
#include "engine/latency_measurement.h"
#include "engine/phase_timer.h"
#include "engine/plan_groups.h"
#include "engine/sample_protocol.h"
#include "engine/sample_recording.h"

namespace nvbw {
namespace {

using engine::CopyRun;
using engine::PhaseTimer;

// Bandwidth of one copy per the sample's time: bytes moved over it. A split-warp copy moves its
// bytes half each way; one direction's worth is reported, as upstream.
double copyBandwidth(const CopyRun& c, std::uint64_t loops, double seconds) {
  const double bw =
      bandwidthGBps(static_cast<double>(c.bytes), static_cast<double>(loops), seconds);
  return c.spec->method == CopyMethod::SmSplitWarp ? bw / 2 : bw;
}

// One sample's bandwidths of a measurement's copies (`mine`: their indices in the measurement)
// and of its aggregate.
void recordSample(const std::vector<CopyRun>& runs, const engine::SampleProtocol::Group& g,
                  const std::vector<std::size_t>& mine, const engine::SampleTimes& t,
                  std::uint64_t loops, MeasurementSamples& into) {
  double totalBytes = 0.0;
  for (std::size_t j = 0; j + g.begin < g.end; ++j) {
    const CopyRun& run = runs[g.begin + j];
    into.copies[mine[j]].push_back(copyBandwidth(run, loops, t.copies[j]));
    totalBytes += static_cast<double>(run.bytes);
  }
  if (g.total && g.begin < g.end)
    into.total.push_back(bandwidthGBps(totalBytes, static_cast<double>(loops), t.total));
}

// The buffers of one group as this process sees them: pooled allocations (a single-process plan)
// or buffers shared between the processes (a multi-process plan), and what each holds.
struct GroupBuffers {
  std::optional<BufferPool::Lease> pooled;
  std::unique_ptr<SharedBuffers> shared;
  std::vector<engine::BufferContent> sharedContents;  // shared buffers: known for the group only
  BufferView view(std::size_t i) const {
    if (shared) return shared->view(i);
    const Allocation& a = (*pooled)[i];
    return {a.ptr(), a.spec.kind == MemoryKind::Host ? a.host.data() : nullptr, 0};
  }
  engine::BufferContent* content(std::size_t i) {
    return shared ? &sharedContents.at(i) : &(*pooled)[i].content;
  }
};

class GpuPlanExecutor final : public PlanExecutor {
 public:
  GpuPlanExecutor(const Gpu& gpu, RunSettings settings, ExecHooks hooks, HostPageReserve* reserve)
      : gpu_(gpu), settings_(settings), hooks_(std::move(hooks)),
        allocator_(makeGpuAllocator(gpu, settings.cpuAffinity, hooks_.note, settings.hugePageBytes,
                                    reserve)),
        pool_(*allocator_), patterns_(gpu), verifier_(gpu, patterns_),
        localCoordinator_(makeLocalCoordinator(gpu)) {
    if (!hooks_.faults) hooks_.faults = std::make_shared<NoFaults>();
    for (int d = 0; d < gpu.deviceCount(); ++d) {
      ContextScope scope(gpu, d);
      kernels::preload();
    }
  }

  PlanResult run(const Plan& plan, const ProgressSink& progress) override;
  PhaseTimes phaseTimes() const override { return times_; }
  MemoryStats memoryStats() const override { return pool_.stats(); }
  OperationCounts operationCounts() const override { return counts_; }

 private:
  using AfterSample = std::function<void(unsigned)>;
  std::vector<MeasurementSamples> measureCopies(const Plan& plan,
                                                const std::vector<std::size_t>& group,
                                                const AfterSample& afterSample);
  std::vector<MeasurementSamples> measureLatency(const Plan& plan,
                                                 const std::vector<std::size_t>& group,
                                                 const AfterSample& afterSample);
  // Whether this process takes part in `plan`: every process in a multi-process plan, rank 0
  // alone in the others (so their figures are a single process's).
  bool takesPart(const Plan& plan) const {
    if (!hooks_.processes) {
      if (plan.multiProcess)
        throw Error("this testcase needs several processes, which only the multinode build runs");
      return true;
    }
    return plan.multiProcess || hooks_.processes->rank() == 0;
  }
  SampleCoordinator& coordinator(bool multiProcess) {
    return multiProcess ? hooks_.processes->coordinator() : *localCoordinator_;
  }
  int stopSignal(bool multiProcess) {
    const int local = hooks_.stopRequested ? hooks_.stopRequested() : 0;
    return multiProcess ? hooks_.processes->agreeOnStop(local) : local;
  }
  GroupBuffers buffersFor(const std::vector<BufferSpec>& specs, bool multiProcess);
  // This process's copies of `m`, numbered for its own GPUs.
  std::vector<CopySpec> localCopies(const Measurement& m, bool multiProcess,
                                    std::vector<std::size_t>& indices);

  const Gpu& gpu_;
  RunSettings settings_;
  ExecHooks hooks_;
  std::unique_ptr<Allocator> allocator_;
  BufferPool pool_;
  engine::PatternCache patterns_;
  engine::Verifier verifier_;
  std::unique_ptr<SampleCoordinator> localCoordinator_;
  PhaseTimes times_;
  OperationCounts counts_;
};

PlanResult GpuPlanExecutor::run(const Plan& plan, const ProgressSink& progress) {
  if (!takesPart(plan))  // its matrices, every cell N/A
    return {std::vector<MatrixResult>(plan.matrices.begin(), plan.matrices.end()), {}};
  try {
    {
      // A multi-process plan's memory is shared, not pooled: the pool lets go of everything.
      PhaseTimer timer(times_.release);
      if (plan.multiProcess)
        pool_.clear();
      else
        pool_.allowFor(plan);
    }
    engine::GroupSteps steps;
    steps.measure = [&](const std::vector<std::size_t>& group, const AfterSample& afterSample) {
      bool latency = false;
      for (std::size_t i : group) latency = latency || plan.measurements.at(i).latency.has_value();
      return latency ? measureLatency(plan, group, afterSample)
                     : measureCopies(plan, group, afterSample);
    };
    steps.combine = [&](const Measurement& m, MeasurementSamples& samples) {
      coordinator(plan.multiProcess).combine(m, samples);
    };
    steps.checkStop = [&] {
      if (const int signal = stopSignal(plan.multiProcess)) throw Interrupted(signal);
    };
    return engine::runGroups(plan, steps, settings_.statistic, settings_.samples, progress,
                             counts_);
  } catch (...) {
    // Buffers may be in a state we cannot trust (or their context is broken): start afresh.
    pool_.clear();
    throw;
  }
}

std::vector<MeasurementSamples>
GpuPlanExecutor::measureLatency(const Plan& plan, const std::vector<std::size_t>& group,
                                const AfterSample& afterSample) {
  PhaseTimer timer(times_.latency);
  std::vector<LatencySpec> specs;
  for (std::size_t i : group) {
    const Measurement& m = plan.measurements.at(i);
    if (!m.latency || !m.copies.empty())
      throw std::logic_error("a round mixes pointer chases with copies");
    specs.push_back(*m.latency);
  }
  if (hooks_.freshBuffers) pool_.clear();
  std::vector<std::vector<double>> chased =
      engine::measureLatency(gpu_, pool_, specs, settings_, counts_, afterSample);
  std::vector<MeasurementSamples> samples(group.size());
  for (std::size_t k = 0; k < group.size(); ++k) samples[k].copies.push_back(std::move(chased[k]));
  return samples;
}

GroupBuffers GpuPlanExecutor::buffersFor(const std::vector<BufferSpec>& specs, bool multiProcess) {
  GroupBuffers buffers;
  if (hooks_.freshBuffers) pool_.clear();
  if (multiProcess) {
    buffers.shared = hooks_.processes->acquire(specs);  // collective: every process, all specs
    buffers.sharedContents.resize(specs.size());
  } else {
    buffers.pooled.emplace(pool_.acquire(
        specs, settings_.sweep ? BufferSizeOrigin::Sweep : BufferSizeOrigin::BufferSizeOption));
  }
  return buffers;
}

std::vector<CopySpec> GpuPlanExecutor::localCopies(const Measurement& m, bool multiProcess,
                                                   std::vector<std::size_t>& indices) {
  std::vector<CopySpec> copies;
  for (std::size_t i = 0; i < m.copies.size(); ++i) {
    CopySpec c = m.copies[i];
    if (multiProcess) {
      if (c.execProcess != hooks_.processes->rank()) continue;
      c.execDevice = hooks_.processes->localDevice();  // the world's GPU r is this process's
    }
    copies.push_back(c);
    indices.push_back(i);
  }
  return copies;
}

bool readsTotal(const Measurement& m) {
  return std::any_of(m.outputs.begin(), m.outputs.end(),
                     [](const OutputTarget& t) { return t.source == ValueSource::Total; });
}

// Every measurement of the group gets its own streams, events and buffers; one sample protocol
// runs them all, so that one latch releases every copy of the round.
std::vector<MeasurementSamples>
GpuPlanExecutor::measureCopies(const Plan& plan, const std::vector<std::size_t>& group,
                               const AfterSample& afterSample) {
  const bool multiProcess = plan.multiProcess;
  PhaseTimer allocationTimer(times_.allocation);
  std::vector<BufferSpec> specs;
  std::vector<std::size_t> firstSpec;  // per measurement of the group, its first spec's index
  for (std::size_t i : group) {
    firstSpec.push_back(specs.size());
    for (const CopySpec& c : plan.measurements.at(i).copies) {
      specs.push_back(c.src);
      specs.push_back(c.dst);
    }
  }
  GroupBuffers buffers = buffersFor(specs, multiProcess);
  std::vector<std::vector<CopySpec>> copies(group.size());
  std::vector<std::vector<std::size_t>> mine(group.size());
  std::vector<engine::SampleProtocol::Group> ranges;
  std::size_t runCount = 0;
  for (std::size_t k = 0; k < group.size(); ++k) {
    copies[k] = localCopies(plan.measurements[group[k]], multiProcess, mine[k]);
    ranges.push_back(
        {runCount, runCount + copies[k].size(), readsTotal(plan.measurements[group[k]])});
    runCount += copies[k].size();
  }
  std::vector<CopyRun> runs(runCount);
  for (std::size_t k = 0, r = 0; k < group.size(); ++k)
    for (std::size_t j = 0; j < copies[k].size(); ++j, ++r) {
      const std::size_t spec = firstSpec[k] + 2 * mine[k][j];
      runs[r].spec = &copies[k][j];
      runs[r].src = buffers.view(spec);
      runs[r].dst = buffers.view(spec + 1);
      runs[r].srcContent = buffers.content(spec);
      runs[r].dstContent = buffers.content(spec + 1);
      engine::prepareCopy(gpu_, runs[r]);
    }
  allocationTimer.stop();

  std::vector<MeasurementSamples> samples(group.size());
  for (std::size_t k = 0; k < group.size(); ++k)
    samples[k].copies.resize(plan.measurements[group[k]].copies.size());
  engine::SampleProtocol protocol({gpu_, coordinator(multiProcess), *hooks_.faults, patterns_,
                                   verifier_, settings_, times_, counts_},
                                  runs, ranges, plan.timing);
  for (unsigned sample = 0; sample < settings_.samples; ++sample) {
    const std::vector<engine::SampleTimes> t = protocol.run(sample);
    for (std::size_t k = 0; k < group.size(); ++k)
      recordSample(runs, ranges[k], mine[k], t[k], settings_.loopCount, samples[k]);
    afterSample(sample);
  }
  return samples;
}

}  // namespace

std::unique_ptr<PlanExecutor> makeGpuPlanExecutor(const Gpu& gpu, RunSettings settings,
                                                  ExecHooks hooks, HostPageReserve* reserve) {
  return std::make_unique<GpuPlanExecutor>(gpu, settings, std::move(hooks), reserve);
}

}  // namespace nvbw
