#include "engine/latency_measurement.h"

#include <algorithm>
#include <memory>
#include <sstream>
#include <string>

#include "core/statistics.h"
#include "engine/kernels/kernels.h"
#include "plans/pattern.h"
#include "platform/cuda_raii.h"

namespace nvbw::engine {

namespace {

// Lays out the chain with the addresses the chasing GPU will dereference (UVA: host pointers of
// pinned memory are valid device addresses too).
void writeChain(const Gpu& gpu, const LatencySpec& spec, const Allocation& target) {
  const std::vector<std::uint64_t> chain = pointerChain(target.ptr(), spec.target.bytes);
  if (spec.target.kind == MemoryKind::Host) {
    std::copy(chain.begin(), chain.end(), static_cast<std::uint64_t*>(target.host.data()));
    return;
  }
  ContextScope scope(gpu, spec.target.device);
  NVBW_CU(gpu.api(), cuMemcpyHtoD, target.ptr(), chain.data(), chain.size() * 8);
}

// The testcases that chase through the TMA are waived below compute capability 9.0; a plan that
// asks for it anyway gets an error here instead of a kernel that traps.
void requireTma(const Gpu& gpu, int device) {
  const int major = gpu.attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  if (major >= 9) return;
  const int minor = gpu.attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  throw Error("a pointer chase through the TMA needs compute capability 9.0 or later; Device " +
              std::to_string(device) + " is " + std::to_string(major) + "." +
              std::to_string(minor));
}

// One chase as it runs: its chain in the target buffer, its stream, events and sink word.
struct Chase {
  Chase(const Gpu& gpu, const LatencySpec& s, Allocation& target, const RunSettings& settings)
      : spec(s), shape(chaseShape(settings.samples, gpu.smCount(s.chaseDevice))),
        start(gpu, s.chaseDevice), end(gpu, s.chaseDevice), stream(gpu, s.chaseDevice),
        sinkWord(gpu, sizeof(unsigned long long)), base(target.ptr()) {
    const std::size_t nodes = spec.target.bytes / 8;
    expectedEnd = base + 8 * ((shape.perLaunch * kLatencyStrideNodes) % nodes);
  }
  unsigned long long* sink() { return static_cast<unsigned long long*>(sinkWord.data()); }
  void launch(const Gpu& gpu, unsigned block) {
    ContextScope scope(gpu, spec.chaseDevice);
    *sink() = 0;
    start.record(stream.get());
    auto* sinkOnGpu = reinterpret_cast<unsigned long long*>(sinkWord.devicePtr());
    if (spec.access == ChaseAccess::TmaBulkCopy)
      kernels::tmaPointerChase(stream.get(), base, shape.launches, block, shape.perLaunch,
                               sinkOnGpu);
    else
      kernels::pointerChase(stream.get(), base, shape.launches, block, shape.perLaunch, sinkOnGpu);
    end.record(stream.get());
  }
  // After the launch has finished: its time, and the check that it ended where the chain does.
  double finish(bool verify) {
    stream.synchronize();
    const double seconds = checkedSeconds(end.elapsedSince(start), "a pointer chase");
    if (verify && *sink() != expectedEnd) {
      std::ostringstream msg;
      msg << "pointer chase on Device " << spec.chaseDevice << " ended at 0x" << std::hex << *sink()
          << " instead of 0x" << expectedEnd;
      throw VerificationError(msg.str());
    }
    return seconds;
  }

  LatencySpec spec;
  ChaseShape shape;
  Event start, end;
  Stream stream;
  HostBuffer sinkWord;
  std::uint64_t base;
  std::uint64_t expectedEnd = 0;
};

}  // namespace

std::vector<std::vector<double>> measureLatency(const Gpu& gpu, BufferPool& pool,
                                                const std::vector<LatencySpec>& specs,
                                                const RunSettings& settings,
                                                OperationCounts& counts,
                                                const std::function<void(unsigned)>& afterSample) {
  std::vector<BufferSpec> targets;
  for (const LatencySpec& spec : specs) {
    if (spec.access == ChaseAccess::TmaBulkCopy) requireTma(gpu, spec.chaseDevice);
    targets.push_back(spec.target);
  }
  const BufferPool::Lease buffers = pool.acquire(targets, BufferSizeOrigin::Fixed);
  std::vector<std::unique_ptr<Chase>> chases;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const LatencySpec& spec = specs[i];
    Allocation& target = buffers[i];
    target.content = {};  // a chain, no pattern
    if (spec.target.kind == MemoryKind::Device && spec.target.device != spec.chaseDevice)
      gpu.enablePeerAccess(spec.chaseDevice, spec.target.device);
    writeChain(gpu, spec, target);
    chases.push_back(std::make_unique<Chase>(gpu, spec, target, settings));
  }
  // Each launch puts the chase on another SM (only block `b` works); a round's chases launch
  // together and are waited for together.
  std::vector<std::vector<double>> samples(specs.size());
  for (unsigned sample = 0; sample < settings.samples; ++sample) {
    std::vector<double> seconds(specs.size(), 0.0);
    unsigned launches = 0;
    for (const auto& c : chases) launches = std::max(launches, c->shape.launches);
    for (unsigned block = 0; block < launches; ++block) {
      for (auto& c : chases)
        if (block < c->shape.launches) c->launch(gpu, block);
      for (std::size_t i = 0; i < chases.size(); ++i)
        if (block < chases[i]->shape.launches) seconds[i] += chases[i]->finish(settings.verify);
    }
    for (std::size_t i = 0; i < chases.size(); ++i)
      samples[i].push_back(seconds[i] * 1e9 / chases[i]->shape.accessesPerSample());
    counts.chases += chases.size();
    afterSample(sample);
  }
  return samples;
}

}  // namespace nvbw::engine
