#include "engine/latency_measurement.h"

#include <algorithm>
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

}  // namespace

std::vector<double> measureLatency(const Gpu& gpu, BufferPool& pool, const LatencySpec& spec,
                                   const RunSettings& settings,
                                   const std::function<void(unsigned)>& afterSample) {
  const int chaser = spec.chaseDevice;
  const bool tma = spec.access == ChaseAccess::TmaBulkCopy;
  if (tma) requireTma(gpu, chaser);
  const BufferPool::Lease buffers = pool.acquire({spec.target}, BufferSizeOrigin::Fixed);
  const Allocation& target = buffers[0];
  if (spec.target.kind == MemoryKind::Device && spec.target.device != chaser)
    gpu.enablePeerAccess(chaser, spec.target.device);
  writeChain(gpu, spec, target);

  // Each launch puts the chase on another SM (only block `b` works).
  const ChaseShape shape = chaseShape(settings.samples, gpu.smCount(chaser));
  const std::size_t nodes = spec.target.bytes / 8;
  const std::uint64_t expectedEnd =
      target.ptr() + 8 * ((shape.perLaunch * kLatencyStrideNodes) % nodes);

  ContextScope scope(gpu, chaser);
  Stream stream(gpu, chaser);
  Event start(gpu, chaser), end(gpu, chaser);
  HostBuffer sinkWord(gpu, sizeof(unsigned long long));
  auto* sink = static_cast<unsigned long long*>(sinkWord.data());
  std::vector<double> samples;
  for (unsigned sample = 0; sample < settings.samples; ++sample) {
    double seconds = 0.0;
    for (unsigned block = 0; block < shape.launches; ++block) {
      *sink = 0;
      start.record(stream.get());
      auto* sinkOnGpu = reinterpret_cast<unsigned long long*>(sinkWord.devicePtr());
      if (tma)
        kernels::tmaPointerChase(stream.get(), target.ptr(), shape.launches, block, shape.perLaunch,
                                 sinkOnGpu);
      else
        kernels::pointerChase(stream.get(), target.ptr(), shape.launches, block, shape.perLaunch,
                              sinkOnGpu);
      end.record(stream.get());
      stream.synchronize();
      seconds += checkedSeconds(end.elapsedSince(start), "a pointer chase");
      if (settings.verify && *sink != expectedEnd) {
        std::ostringstream msg;
        msg << "pointer chase on Device " << chaser << " ended at 0x" << std::hex << *sink
            << " instead of 0x" << expectedEnd;
        throw VerificationError(msg.str());
      }
    }
    samples.push_back(seconds * 1e9 / shape.accessesPerSample());
    afterSample(sample);
  }
  return samples;
}

}  // namespace nvbw::engine
