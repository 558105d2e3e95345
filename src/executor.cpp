// The GPU plan runner: for each measurement of a plan, lease its buffers, run its samples (copies
// through the sample protocol, or a pointer chase), and record its cells and -v lines.
#include "nvbandwidth/executor.h"

#include <algorithm>

#include "copy_run.h"
#include "latency_measurement.h"
#include "nvbandwidth/buffer_pool.h"
#include "nvbandwidth/kernels.h"
#include "nvbandwidth/measurement_record.h"
#include "nvbandwidth/statistics.h"
#include "phase_timer.h"
#include "sample_protocol.h"

namespace nvbw {
namespace {

using detail::CopyRun;
using detail::PhaseTimer;

bool readsTotal(const Measurement& m) {
  return std::any_of(m.outputs.begin(), m.outputs.end(),
                     [](const OutputTarget& t) { return t.source == ValueSource::Total; });
}

// Bandwidth of one copy per the sample's time: bytes moved over it. A split-warp copy moves its
// bytes half each way; one direction's worth is reported, as upstream.
double copyBandwidth(const CopyRun& c, std::uint64_t loops, double seconds) {
  const double bw = bandwidthGBps(static_cast<double>(c.bytes), static_cast<double>(loops), seconds);
  return c.spec->method == CopyMethod::SmSplitWarp ? bw / 2 : bw;
}

class GpuPlanRunner final : public PlanRunner {
 public:
  GpuPlanRunner(const Gpu& gpu, ExecSettings settings, ExecHooks hooks)
      : gpu_(gpu), settings_(settings), hooks_(std::move(hooks)),
        allocator_(makeGpuAllocator(gpu, settings.cpuAffinity, hooks_.note)), pool_(*allocator_),
        patterns_(gpu), verifier_(gpu, patterns_) {
    if (!hooks_.coordinator) hooks_.coordinator = makeLocalCoordinator(gpu);
    if (!hooks_.faults) hooks_.faults = std::make_shared<NoFaults>();
    for (int d = 0; d < gpu.deviceCount(); ++d) {
      ContextScope scope(gpu, d);
      kernels::preload();
    }
  }

  PlanResult run(const Plan& plan, const ProgressSink& progress) override {
    PlanResult result;
    for (const MatrixSpec& m : plan.matrices) result.matrices.emplace_back(m);
    try {
      {
        PhaseTimer timer(times_.release);
        pool_.limitTo(plan);
      }
      for (std::size_t i = 0; i < plan.measurements.size(); ++i) {
        const Measurement& m = plan.measurements[i];
        auto afterSample = [&](unsigned sample) {
          if (progress)
            progress({i, plan.measurements.size(), sample, settings_.samples});
          if (const int signal = hooks_.stopRequested ? hooks_.stopRequested() : 0)
            throw Interrupted(signal);
        };
        MeasurementSamples samples = m.latency ? measureLatency(m, afterSample)
                                               : measureCopies(m, afterSample);
        hooks_.coordinator->combine(m, samples);
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

  PhaseTimes phaseTimes() const override { return times_; }
  MemoryStats memoryStats() const override { return pool_.stats(); }

 private:
  MeasurementSamples measureCopies(const Measurement& m,
                                   const std::function<void(unsigned)>& afterSample);
  MeasurementSamples measureLatency(const Measurement& m,
                                    const std::function<void(unsigned)>& afterSample) {
    PhaseTimer timer(times_.latency);
    MeasurementSamples s;
    s.copies.push_back(
        detail::measureLatency(gpu_, pool_, *m.latency, settings_, afterSample));
    return s;
  }

  const Gpu& gpu_;
  ExecSettings settings_;
  ExecHooks hooks_;
  std::unique_ptr<Allocator> allocator_;
  BufferPool pool_;
  detail::PatternCache patterns_;
  detail::Verifier verifier_;
  PhaseTimes times_;
};

MeasurementSamples GpuPlanRunner::measureCopies(const Measurement& m,
                                                const std::function<void(unsigned)>& afterSample) {
  // This process runs the copies it issues; the coordinator brings in the others' samples.
  std::vector<std::size_t> mine;
  std::vector<BufferSpec> specs;
  for (std::size_t i = 0; i < m.copies.size(); ++i) {
    if (!hooks_.coordinator->executes(m.copies[i])) continue;
    mine.push_back(i);
    specs.push_back(m.copies[i].src);
    specs.push_back(m.copies[i].dst);
  }
  MeasurementSamples samples;
  samples.copies.resize(m.copies.size());
  if (mine.empty()) return samples;

  PhaseTimer allocationTimer(times_.allocation);
  const BufferPool::Lease buffers = pool_.acquire(specs);
  std::vector<CopyRun> runs(mine.size());
  for (std::size_t k = 0; k < mine.size(); ++k) {
    runs[k].spec = &m.copies[mine[k]];
    runs[k].src = detail::viewOf(buffers[2 * k]);
    runs[k].dst = detail::viewOf(buffers[2 * k + 1]);
    detail::prepareCopy(gpu_, runs[k]);
  }
  allocationTimer.stop();
  const bool total = readsTotal(m);
  detail::SampleProtocol protocol({gpu_, *hooks_.coordinator, *hooks_.faults, patterns_, verifier_,
                                   settings_, times_},
                                  runs, total);
  for (unsigned sample = 0; sample < settings_.samples; ++sample) {
    const detail::SampleTimes t = protocol.run(sample);
    double totalBytes = 0.0;
    for (std::size_t k = 0; k < runs.size(); ++k) {
      samples.copies[mine[k]].push_back(copyBandwidth(runs[k], settings_.loopCount, t.copies[k]));
      totalBytes += static_cast<double>(runs[k].bytes);
    }
    if (total)
      samples.total.push_back(
          bandwidthGBps(totalBytes, static_cast<double>(settings_.loopCount), t.total));
    afterSample(sample);
  }
  return samples;
}

}  // namespace

std::unique_ptr<PlanRunner> makeGpuPlanRunner(const Gpu& gpu, ExecSettings settings,
                                              ExecHooks hooks) {
  return std::make_unique<GpuPlanRunner>(gpu, settings, std::move(hooks));
}

}  // namespace nvbw
