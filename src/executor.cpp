// The measurement engine (upstream's doMemcpyCore, spec §4), for any list of simultaneous copies.
//
// Per sample: fill the buffers with the pattern, hold every stream behind a spin kernel, enqueue
// warm-up and measured copies with events around them, release the latch, wait, verify, and turn
// the event times into bandwidths. The latch makes all copies start together, after all the
// enqueueing work, so the measurement does not include host-side launch overhead.
#include "nvbandwidth/executor.h"

#include <cuda.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>
#include <sstream>

#include "nvbandwidth/buffer_pool.h"
#include "nvbandwidth/cuda_raii.h"
#include "nvbandwidth/kernels.h"
#include "nvbandwidth/pattern.h"
#include "nvbandwidth/sm_geometry.h"
#include "nvbandwidth/statistics.h"

namespace nvbw {
namespace {

constexpr unsigned kWarmupCopies = 4;

std::string endpointName(const BufferSpec& b) {
  return b.kind == MemoryKind::Host ? "Host" : "Device " + std::to_string(b.device);
}

std::string copyLabel(const CopySpec& c) {
  return endpointName(c.src) + " -> " + endpointName(c.dst);
}

// Mapped pinned memory shared with the kernels: the latch, the spin timeout flag and the
// verification counters.
struct HostSignals {
  volatile int latch;
  int timedOut;
  kernels::CheckResult check;
  unsigned long long chaseSink;
};

// Per-device pattern buffers (2 MiB each, source and destination seeds), made on first use.
class PatternCache {
 public:
  explicit PatternCache(const Gpu& gpu) : gpu_(gpu) {}
  CUdeviceptr get(int device, std::uint32_t seed) {
    auto key = std::make_pair(device, seed);
    auto it = buffers_.find(key);
    if (it != buffers_.end()) return it->second.ptr();
    DeviceBuffer buf(gpu_, device, kPatternBytes);
    std::vector<std::uint32_t> words = xorshiftPattern(seed);
    ContextScope scope(gpu_, device);
    NVBW_CU(gpu_.api(), cuMemcpyHtoD, buf.ptr(), words.data(), kPatternBytes);
    CUdeviceptr ptr = buf.ptr();
    buffers_.emplace(key, std::move(buf));
    return ptr;
  }

 private:
  const Gpu& gpu_;
  std::map<std::pair<int, std::uint32_t>, DeviceBuffer> buffers_;
};

// Releases the spin latch on scope exit, so a failure while enqueueing never leaves a GPU spinning
// (and the streams can still be synchronised and destroyed).
class LatchRelease {
 public:
  explicit LatchRelease(HostSignals* s) : s_(s) {}
  ~LatchRelease() { release(); }
  void release() {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    s_->latch = 1;
    std::atomic_thread_fence(std::memory_order_seq_cst);
  }
  LatchRelease(const LatchRelease&) = delete;
  LatchRelease& operator=(const LatchRelease&) = delete;

 private:
  HostSignals* s_;
};

// What one copy of a measurement needs at run time.
struct CopyRun {
  const CopySpec* spec = nullptr;
  Allocation* src = nullptr;
  Allocation* dst = nullptr;
  SmCopyGeometry geometry;  // SM methods only
  std::size_t bytes = 0;    // bytes moved per iteration (after SM truncation)
  std::size_t checked = 0;  // bytes filled and verified
  std::optional<Stream> stream;
  std::optional<Event> start;
  std::optional<Event> end;
};

class GpuPlanRunner final : public PlanRunner {
 public:
  GpuPlanRunner(const Gpu& gpu, ExecSettings settings, std::function<void(const std::string&)> note)
      : gpu_(gpu), settings_(settings), pool_(gpu, settings.cpuAffinity, std::move(note)),
        patterns_(gpu), signals_(gpu, sizeof(HostSignals)) {
    signals()->latch = 0;
    for (int d = 0; d < gpu.deviceCount(); ++d) {
      ContextScope scope(gpu, d);
      kernels::preload();
    }
  }

  std::vector<MatrixResult> run(const Plan& plan,
                                const std::function<void(const SampleEvent&)>& sink) override {
    std::vector<MatrixResult> results;
    for (const MatrixSpec& m : plan.matrices) results.emplace_back(m);
    try {
      for (const Measurement& m : plan.measurements) {
        if (m.latency)
          runLatency(m, results, sink);
        else
          runCopies(m, results, sink);
      }
    } catch (...) {
      // Buffers may be in a state we cannot trust (or their context is broken): start afresh.
      pool_.clear();
      throw;
    }
    return results;
  }

 private:
  HostSignals* signals() { return static_cast<HostSignals*>(signals_.data()); }
  template <typename T> T* devicePtr(T* hostField) {
    return hostField;  // mapped portable memory under UVA: the host address works on every GPU
  }

  void emit(const std::function<void(const SampleEvent&)>& sink, unsigned sample, std::string label,
            double value, Unit unit) {
    if (sink) sink(SampleEvent{sample, std::move(label), value, unit});
  }

  // ---- bandwidth ----------------------------------------------------------------------------
  void runCopies(const Measurement& m, std::vector<MatrixResult>& results,
                 const std::function<void(const SampleEvent&)>& sink);
  void prepareCopy(CopyRun& c);
  void fill(CopyRun& c);
  void verify(CopyRun& c, unsigned sample);
  void enqueue(CopyRun& c, unsigned long long loops);
  void checkBuffer(int device, CUdeviceptr buf, std::size_t bytes, const std::string& what,
                   unsigned sample);
  void corrupt(CopyRun& c);

  // ---- latency ------------------------------------------------------------------------------
  void runLatency(const Measurement& m, std::vector<MatrixResult>& results,
                  const std::function<void(const SampleEvent&)>& sink);

  void store(std::vector<MatrixResult>& results, const OutputTarget& t, std::vector<double> samples,
             std::optional<double> value = std::nullopt) {
    CellResult cell;
    cell.value = value ? *value : summarize(samples, settings_.statistic);
    cell.samples = std::move(samples);
    results.at(t.matrix).at(t.row, t.col) = std::move(cell);
  }

  const Gpu& gpu_;
  ExecSettings settings_;
  BufferPool pool_;
  PatternCache patterns_;
  HostBuffer signals_;
};

void GpuPlanRunner::prepareCopy(CopyRun& c) {
  const CopySpec& s = *c.spec;
  const std::size_t bytes = std::min(s.src.bytes, s.dst.bytes);
  // Peer access for every device buffer the executing GPU touches on another GPU.
  for (const BufferSpec* b : {&s.src, &s.dst})
    if (b->kind == MemoryKind::Device && b->device != s.execDevice)
      gpu_.enablePeerAccess(s.execDevice, b->device);
  switch (s.method) {
  case CopyMethod::CopyEngine:
    c.bytes = c.checked = bytes;
    break;
  case CopyMethod::SmCopy:
    c.geometry = smCopyGeometry(bytes, gpu_.smCount(s.execDevice));
    c.bytes = c.checked = c.geometry.bytes();
    break;
  case CopyMethod::SmSplitWarp:
    c.geometry = splitWarpGeometry(bytes);
    c.bytes = c.checked = c.geometry.bytes();
    break;
  }
  c.stream.emplace(gpu_, s.execDevice);
  c.start.emplace(gpu_, s.execDevice);
  c.end.emplace(gpu_, s.execDevice);
}

// Fills run on the executing GPU's stream; stream order puts them before the latch.
void GpuPlanRunner::fill(CopyRun& c) {
  const CopySpec& s = *c.spec;
  ContextScope scope(gpu_, s.execDevice);
  CUstream st = c.stream->get();
  CUdeviceptr srcPattern = patterns_.get(s.execDevice, kSourceSeed);
  if (s.method == CopyMethod::SmSplitWarp) {
    // Both buffers start as the source pattern; the elements each direction will overwrite are
    // cleared, so a direction that did not copy leaves zeros behind.
    kernels::fillPattern(st, c.src->ptr(), c.checked, srcPattern);
    kernels::fillPattern(st, c.dst->ptr(), c.checked, srcPattern);
    kernels::clearSplitWarpTargets(st, c.dst->ptr(), c.src->ptr(), c.geometry);
  } else {
    kernels::fillPattern(st, c.src->ptr(), c.checked, srcPattern);
    kernels::fillPattern(st, c.dst->ptr(), c.checked,
                         patterns_.get(s.execDevice, kDestinationSeed));
  }
}

void GpuPlanRunner::enqueue(CopyRun& c, unsigned long long loops) {
  const CopySpec& s = *c.spec;
  CUstream st = c.stream->get();
  switch (s.method) {
  case CopyMethod::CopyEngine:
    for (unsigned long long i = 0; i < loops; ++i)
      NVBW_CU(gpu_.api(), cuMemcpyAsync, c.dst->ptr(), c.src->ptr(), c.bytes, st);
    break;
  case CopyMethod::SmCopy:
    kernels::copy(st, c.dst->ptr(), c.src->ptr(), c.geometry, loops);
    break;
  case CopyMethod::SmSplitWarp:
    kernels::splitWarpCopy(st, c.dst->ptr(), c.src->ptr(), c.geometry, loops);
    break;
  }
}

void GpuPlanRunner::checkBuffer(int device, CUdeviceptr buf, std::size_t bytes,
                                const std::string& what, unsigned sample) {
  ContextScope scope(gpu_, device);
  HostSignals* sig = signals();
  sig->check.mismatches = 0;
  sig->check.firstOffset = ~0ull;
  Stream st(gpu_, device);
  kernels::checkPattern(st.get(), buf, bytes, patterns_.get(device, kSourceSeed),
                        devicePtr(&sig->check));
  st.synchronize();
  if (sig->check.mismatches != 0) {
    std::ostringstream msg;
    msg << "data verification failed for " << what << " in sample " << sample << ": "
        << sig->check.mismatches << " of " << bytes / 4
        << " 32-bit words differ, the first at byte " << sig->check.firstOffset * 4;
    throw VerificationError(msg.str());
  }
}

void GpuPlanRunner::verify(CopyRun& c, unsigned sample) {
  const CopySpec& s = *c.spec;
  checkBuffer(s.execDevice, c.dst->ptr(), c.checked, "the destination of " + copyLabel(s), sample);
  if (s.method == CopyMethod::SmSplitWarp)
    checkBuffer(s.execDevice, c.src->ptr(), c.checked, "the source of " + copyLabel(s), sample);
}

void GpuPlanRunner::corrupt(CopyRun& c) {
  const std::size_t offset = c.checked / 2;
  const std::size_t len = std::min<std::size_t>(4096, c.checked - offset);
  if (c.dst->spec.kind == MemoryKind::Host) {
    std::memset(static_cast<char*>(c.dst->host.data()) + offset, 0x5a, len);
    return;
  }
  ContextScope scope(gpu_, c.dst->spec.device);
  NVBW_CU(gpu_.api(), cuMemsetD8, c.dst->ptr() + offset, 0x5a, len);
}

void GpuPlanRunner::runCopies(const Measurement& m, std::vector<MatrixResult>& results,
                              const std::function<void(const SampleEvent&)>& sink) {
  const std::size_t n = m.copies.size();
  if (n == 0) return;
  std::vector<BufferSpec> specs;
  for (const CopySpec& c : m.copies) {
    specs.push_back(c.src);
    specs.push_back(c.dst);
  }
  const BufferPool::Lease buffers = pool_.acquire(specs);

  std::vector<CopyRun> runs(n);
  for (std::size_t i = 0; i < n; ++i) {
    runs[i].spec = &m.copies[i];
    runs[i].src = &buffers[2 * i];
    runs[i].dst = &buffers[2 * i + 1];
    prepareCopy(runs[i]);
  }
  const bool total = std::any_of(m.outputs.begin(), m.outputs.end(), [](const OutputTarget& t) {
    return t.source == ValueSource::Total;
  });
  std::optional<Event> totalEnd;
  totalEnd.emplace(gpu_, runs[0].spec->execDevice);

  const unsigned long long loops = settings_.loopCount;
  std::vector<std::vector<double>> copySamples(n);
  std::vector<double> totalSamples;
  HostSignals* sig = signals();

  for (unsigned sample = 0; sample < settings_.samples; ++sample) {
    for (CopyRun& c : runs) fill(c);
    for (CopyRun& c : runs) c.stream->synchronize();
    sig->latch = 0;
    sig->timedOut = 0;
    {
      LatchRelease latch(sig);
      for (CopyRun& c : runs) {
        ContextScope scope(gpu_, c.spec->execDevice);
        const int khz = gpu_.attribute(c.spec->execDevice, CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
        kernels::spin(c.stream->get(), devicePtr(&sig->latch), devicePtr(&sig->timedOut),
                      static_cast<unsigned long long>(khz) * settings_.spinTimeoutMs);
        enqueue(c, kWarmupCopies);
      }
      // Every stream starts timing when stream 0 does (after its warm-up).
      runs[0].start->record(runs[0].stream->get());
      for (std::size_t i = 1; i < n; ++i) {
        NVBW_CU(gpu_.api(), cuStreamWaitEvent, runs[i].stream->get(), runs[0].start->get(), 0);
        runs[i].start->record(runs[i].stream->get());
      }
      for (std::size_t i = 0; i < n; ++i) {
        ContextScope scope(gpu_, runs[i].spec->execDevice);
        enqueue(runs[i], loops);
        runs[i].end->record(runs[i].stream->get());
        if (total && i != 0)
          NVBW_CU(gpu_.api(), cuStreamWaitEvent, runs[0].stream->get(), runs[i].end->get(), 0);
      }
      totalEnd->record(runs[0].stream->get());
      latch.release();
      for (CopyRun& c : runs) c.stream->synchronize();
    }
    if (sig->timedOut)
      throw SpinTimeoutError("a stream stayed blocked for longer than the " +
                             std::to_string(settings_.spinTimeoutMs) +
                             " ms spin timeout while copies were being queued; the timing would "
                             "include queueing time, so the measurement was discarded");
    if (settings_.corruptForTesting) corrupt(runs[0]);
    if (settings_.verify)
      for (CopyRun& c : runs) verify(c, sample);

    std::size_t totalBytes = 0;
    for (std::size_t i = 0; i < n; ++i) {
      CopyRun& c = runs[i];
      const double seconds = c.end->elapsedSince(*c.start) / 1000.0;
      double bw = bandwidthGBps(static_cast<double>(c.bytes), static_cast<double>(loops), seconds);
      // Split-warp moves `bytes` in total, half in each direction: report one direction's worth.
      if (c.spec->method == CopyMethod::SmSplitWarp) bw /= 2;
      copySamples[i].push_back(bw);
      totalBytes += c.bytes;
      if (isReportedCopy(m, i)) emit(sink, sample, copyLabel(*c.spec), bw, Unit::GBps);
    }
    if (total) {
      const double seconds = totalEnd->elapsedSince(*runs[0].start) / 1000.0;
      const double bw =
          bandwidthGBps(static_cast<double>(totalBytes), static_cast<double>(loops), seconds);
      totalSamples.push_back(bw);
      emit(sink, sample, "Total Bandwidth ", bw, Unit::GBps);
    }
  }

  for (const OutputTarget& t : m.outputs) {
    switch (t.source) {
    case ValueSource::Copy:
      store(results, t, copySamples.at(t.copyIndex));
      break;
    case ValueSource::Total:
      store(results, t, totalSamples);
      break;
    case ValueSource::SumOfCopies: {
      // Upstream reports the sum of the per-copy statistics; the samples are per-sample sums.
      std::vector<double> sums(settings_.samples, 0.0);
      double value = 0.0;
      for (std::size_t i = 0; i < n; ++i) {
        value += summarize(copySamples[i], settings_.statistic);
        for (std::size_t k = 0; k < sums.size(); ++k) sums[k] += copySamples[i][k];
      }
      store(results, t, std::move(sums), value);
      break;
    }
    }
  }
}

void GpuPlanRunner::runLatency(const Measurement& m, std::vector<MatrixResult>& results,
                               const std::function<void(const SampleEvent&)>& sink) {
  const LatencySpec& spec = *m.latency;
  const int chaser = spec.chaseDevice;
  const BufferPool::Lease buffers = pool_.acquire({spec.target});
  Allocation& target = buffers[0];
  if (spec.target.kind == MemoryKind::Device && spec.target.device != chaser)
    gpu_.enablePeerAccess(chaser, spec.target.device);

  // Lay out the chain with the addresses the chasing GPU will dereference (UVA: host pointers of
  // pinned memory are valid device addresses too).
  const std::vector<std::uint64_t> chain = pointerChain(target.ptr(), spec.target.bytes);
  if (spec.target.kind == MemoryKind::Host) {
    std::copy(chain.begin(), chain.end(), static_cast<std::uint64_t*>(target.host.data()));
  } else {
    ContextScope scope(gpu_, spec.target.device);
    NVBW_CU(gpu_.api(), cuMemcpyHtoD, target.ptr(), chain.data(), chain.size() * 8);
  }

  // Each launch puts the chase on another SM (only block `b` works); the total covers
  // smCount x floor(1e6 / smCount) dependent loads on the chasing GPU's own SMs.
  const int sms = gpu_.smCount(chaser);
  const unsigned long long perLaunch = kLatencyAccesses / static_cast<unsigned>(sms);
  const double accesses = static_cast<double>(perLaunch) * sms;
  const std::size_t nodes = spec.target.bytes / 8;
  const std::uint64_t expectedEnd = target.ptr() + 8 * ((perLaunch * kLatencyStrideNodes) % nodes);

  ContextScope scope(gpu_, chaser);
  Stream stream(gpu_, chaser);
  Event start(gpu_, chaser), end(gpu_, chaser);
  HostSignals* sig = signals();
  std::vector<double> samples;
  for (unsigned sample = 0; sample < settings_.samples; ++sample) {
    double totalMs = 0.0;
    for (int block = 0; block < sms; ++block) {
      sig->chaseSink = 0;
      start.record(stream.get());
      kernels::pointerChase(stream.get(), target.ptr(), static_cast<unsigned>(sms),
                            static_cast<unsigned>(block), perLaunch, devicePtr(&sig->chaseSink));
      end.record(stream.get());
      stream.synchronize();
      totalMs += end.elapsedSince(start);
      if (settings_.verify && sig->chaseSink != expectedEnd) {
        std::ostringstream msg;
        msg << "pointer chase on Device " << chaser << " ended at 0x" << std::hex << sig->chaseSink
            << " instead of 0x" << expectedEnd;
        throw VerificationError(msg.str());
      }
    }
    const double ns = totalMs * 1e6 / accesses;
    samples.push_back(ns);
    emit(sink, sample,
         "Device " + std::to_string(chaser) + " reading " +
             (spec.target.kind == MemoryKind::Host
                  ? std::string("Host")
                  : "Device " + std::to_string(spec.target.device)),
         ns, Unit::Nanoseconds);
  }
  for (const OutputTarget& t : m.outputs) store(results, t, samples);
}

}  // namespace

std::unique_ptr<PlanRunner> makeGpuPlanRunner(const Gpu& gpu, ExecSettings settings,
                                              std::function<void(const std::string&)> note) {
  return std::make_unique<GpuPlanRunner>(gpu, settings, std::move(note));
}

}  // namespace nvbw
