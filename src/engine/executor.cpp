// The GPU plan runner: for each measurement of a plan, get its buffers, run its samples (copies
// through the sample protocol, or a pointer chase), and record its cells and -v lines.
#include "engine/executor.h"

#include <algorithm>

#include "core/statistics.h"
#include "engine/buffer_pool.h"
#include "engine/copy_run.h"
#include "engine/kernels/kernels.h"
#include "engine/latency_measurement.h"
#include "engine/phase_timer.h"
#include "engine/sample_protocol.h"
#include "engine/sample_recording.h"

namespace nvbw {
namespace {

using engine::CopyRun;
using engine::PhaseTimer;

bool readsTotal(const Measurement& m) {
  return std::any_of(m.outputs.begin(), m.outputs.end(),
                     [](const OutputTarget& t) { return t.source == ValueSource::Total; });
}

// Bandwidth of one copy per the sample's time: bytes moved over it. A split-warp copy moves its
// bytes half each way; one direction's worth is reported, as upstream.
double copyBandwidth(const CopyRun& c, std::uint64_t loops, double seconds) {
  const double bw =
      bandwidthGBps(static_cast<double>(c.bytes), static_cast<double>(loops), seconds);
  return c.spec->method == CopyMethod::SmSplitWarp ? bw / 2 : bw;
}

// The buffers of one measurement as this process sees them: pooled allocations (a single-process
// plan) or buffers shared between the processes (a multi-process plan).
struct MeasurementBuffers {
  std::optional<BufferPool::Lease> pooled;
  std::unique_ptr<SharedBuffers> shared;
  BufferView view(std::size_t i) const {
    return shared ? shared->view(i) : engine::viewOf((*pooled)[i]);
  }
};

class GpuPlanExecutor final : public PlanExecutor {
 public:
  GpuPlanExecutor(const Gpu& gpu, RunSettings settings, ExecHooks hooks)
      : gpu_(gpu), settings_(settings), hooks_(std::move(hooks)),
        allocator_(
            makeGpuAllocator(gpu, settings.cpuAffinity, hooks_.note, settings.hugePageBytes)),
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

 private:
  using AfterSample = std::function<void(unsigned)>;
  MeasurementSamples measureCopies(const Measurement& m, bool multiProcess,
                                   const AfterSample& afterSample);
  MeasurementSamples measureLatency(const Measurement& m, const AfterSample& afterSample) {
    PhaseTimer timer(times_.latency);
    MeasurementSamples s;
    s.copies.push_back(engine::measureLatency(gpu_, pool_, *m.latency, settings_, afterSample));
    return s;
  }
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
  MeasurementBuffers buffersFor(const Measurement& m, bool multiProcess);
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
};

PlanResult GpuPlanExecutor::run(const Plan& plan, const ProgressSink& progress) {
  PlanResult result;
  for (const MatrixSpec& m : plan.matrices) result.matrices.emplace_back(m);
  if (!takesPart(plan)) return result;
  try {
    {
      // A multi-process plan's memory is shared, not pooled: the pool lets go of everything.
      PhaseTimer timer(times_.release);
      pool_.limitTo(plan.multiProcess ? Plan{} : plan);
    }
    for (std::size_t i = 0; i < plan.measurements.size(); ++i) {
      const Measurement& m = plan.measurements[i];
      auto afterSample = [&](unsigned sample) {
        if (progress) {
          ProgressEvent e;
          e.measurement = i;
          e.measurements = plan.measurements.size();
          e.sample = sample;
          e.samples = settings_.samples;
          progress(e);
        }
        if (const int signal = stopSignal(plan.multiProcess)) throw Interrupted(signal);
      };
      MeasurementSamples samples = m.latency ? measureLatency(m, afterSample)
                                             : measureCopies(m, plan.multiProcess, afterSample);
      coordinator(plan.multiProcess).combine(m, samples);
      result.measurements.push_back(
          recordMeasurement(m, samples, settings_.statistic, result.matrices));
    }
  } catch (...) {
    // Buffers may be in a state we cannot trust (or their context is broken): start afresh.
    pool_.clear();
    throw;
  }
  return result;
}

MeasurementBuffers GpuPlanExecutor::buffersFor(const Measurement& m, bool multiProcess) {
  std::vector<BufferSpec> specs;
  for (const CopySpec& c : m.copies) {
    specs.push_back(c.src);
    specs.push_back(c.dst);
  }
  MeasurementBuffers buffers;
  if (multiProcess)
    buffers.shared = hooks_.processes->acquire(specs);  // collective: every process, all specs
  else
    buffers.pooled.emplace(pool_.acquire(specs, settings_.sweepSizesMiB.empty()
                                                    ? BufferSizeOrigin::BufferSizeOption
                                                    : BufferSizeOrigin::Sweep));
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

MeasurementSamples GpuPlanExecutor::measureCopies(const Measurement& m, bool multiProcess,
                                                  const AfterSample& afterSample) {
  PhaseTimer allocationTimer(times_.allocation);
  const MeasurementBuffers buffers = buffersFor(m, multiProcess);
  std::vector<std::size_t> mine;
  const std::vector<CopySpec> copies = localCopies(m, multiProcess, mine);
  std::vector<CopyRun> runs(copies.size());
  for (std::size_t k = 0; k < copies.size(); ++k) {
    runs[k].spec = &copies[k];
    runs[k].src = buffers.view(2 * mine[k]);
    runs[k].dst = buffers.view(2 * mine[k] + 1);
    engine::prepareCopy(gpu_, runs[k]);
  }
  allocationTimer.stop();

  MeasurementSamples samples;
  samples.copies.resize(m.copies.size());
  const bool total = readsTotal(m);
  engine::SampleProtocol protocol(
      {gpu_, coordinator(multiProcess), *hooks_.faults, patterns_, verifier_, settings_, times_},
      runs, total);
  for (unsigned sample = 0; sample < settings_.samples; ++sample) {
    const engine::SampleTimes t = protocol.run(sample);
    double totalBytes = 0.0;
    for (std::size_t k = 0; k < runs.size(); ++k) {
      samples.copies[mine[k]].push_back(copyBandwidth(runs[k], settings_.loopCount, t.copies[k]));
      totalBytes += static_cast<double>(runs[k].bytes);
    }
    if (total && !runs.empty())
      samples.total.push_back(
          bandwidthGBps(totalBytes, static_cast<double>(settings_.loopCount), t.total));
    afterSample(sample);
  }
  return samples;
}

}  // namespace

std::unique_ptr<PlanExecutor> makeGpuPlanExecutor(const Gpu& gpu, RunSettings settings,
                                                  ExecHooks hooks) {
  return std::make_unique<GpuPlanExecutor>(gpu, settings, std::move(hooks));
}

}  // namespace nvbw
