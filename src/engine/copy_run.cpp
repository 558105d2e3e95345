#include "engine/copy_run.h"

#include <algorithm>
#include <vector>

#include "engine/sample_recording.h"
#include "plans/pattern.h"

namespace nvbw::engine {

CUdeviceptr PatternCache::get(int device, std::uint32_t seed) {
  const auto key = std::make_pair(device, seed);
  const auto it = buffers_.find(key);
  if (it != buffers_.end()) return it->second.ptr();
  const std::vector<std::uint32_t> words = seed == kWriteOnlyValue
                                               ? std::vector<std::uint32_t>(kPatternWords, seed)
                                               : xorshiftPattern(seed);
  DeviceBuffer buf(gpu_, device, kPatternBytes);
  ContextScope scope(gpu_, device);
  NVBW_CU(gpu_.api(), cuMemcpyHtoD, buf.ptr(), words.data(), kPatternBytes);
  // From pageable memory cuMemcpyHtoD may return before its DMA has landed, and the kernels that
  // read the pattern run on non-blocking streams, which do not wait for it: checks of write-only
  // passes on the H200 found stale words from 1.86 MiB into the 2 MiB pattern on. Wait for the
  // legacy stream the copy went to (once per pattern). (Not cuCtxSynchronize: for CUDA 13 the
  // driver hands out its _v2, which takes a context.)
  NVBW_CU(gpu_.api(), cuStreamSynchronize, nullptr);
  const CUdeviceptr ptr = buf.ptr();
  buffers_.emplace(key, std::move(buf));
  return ptr;
}

Verifier::Verifier(const Gpu& gpu, PatternCache& patterns)
    : gpu_(gpu), patterns_(patterns), result_(gpu, sizeof(kernels::CheckResult)) {}

void Verifier::check(int device, CUdeviceptr buf, std::size_t bytes, const std::string& what,
                     unsigned sample, std::uint32_t seed) {
  ContextScope scope(gpu_, device);
  auto* result = static_cast<kernels::CheckResult*>(result_.data());
  result->mismatches = 0;
  result->firstOffset = ~0ull;
  auto it = streams_.find(device);
  if (it == streams_.end()) it = streams_.emplace(device, Stream(gpu_, device)).first;
  // The kernel writes the counters through the registered memory's device address.
  kernels::checkPattern(it->second.get(), buf, bytes, patterns_.get(device, seed),
                        reinterpret_cast<kernels::CheckResult*>(result_.devicePtr()));
  it->second.synchronize();
  if (result->mismatches == 0) return;
  throw VerificationError(
      mismatchMessage(what, sample, result->mismatches, bytes / 4, result->firstOffset));
}

namespace {

// The bytes one pass moves, and the launch shape, for each method.
void shape(const Gpu& gpu, CopyRun& c) {
  const CopySpec& s = *c.spec;
  const int sms = gpu.smCount(s.execDevice);
  switch (s.method) {
  case CopyMethod::CopyEngine:
    c.bytes = std::min(s.src.bytes, s.dst.bytes);
    return;
  case CopyMethod::SmCopy:
    c.geometry = smCopyGeometry(std::min(s.src.bytes, s.dst.bytes), sms);
    break;
  case CopyMethod::SmSplitWarp:
    c.geometry = splitWarpGeometry(std::min(s.src.bytes, s.dst.bytes));
    break;
  case CopyMethod::SmMulticast:
    c.geometry = multicastGeometry(std::min(s.src.bytes, s.dst.bytes), sms);
    break;
  case CopyMethod::Tma:
    c.geometry = tmaGeometry(std::min(s.src.bytes, s.dst.bytes), sms);
    break;
  case CopyMethod::SmReadOnly:
    c.geometry = localReadGeometry(s.src.bytes, sms);
    break;
  case CopyMethod::SmWriteOnly:
    c.geometry = localWriteGeometry(s.dst.bytes);
    break;
  }
  c.bytes = c.geometry.bytes();
}

}  // namespace

void prepareCopy(const Gpu& gpu, CopyRun& c) {
  const CopySpec& s = *c.spec;
  // Peer access for every device buffer the executing GPU touches on another GPU of this process
  // (memory of other processes is mapped with its access already set).
  for (const BufferSpec* b : {&s.src, &s.dst})
    if (b->kind == MemoryKind::Device && b->sharing == Sharing::Private &&
        b->device != s.execDevice)
      gpu.enablePeerAccess(s.execDevice, b->device);
  shape(gpu, c);
  c.checked = c.bytes;
  if (s.method == CopyMethod::SmReadOnly)
    c.readSum.emplace(gpu, s.execDevice, sizeof(unsigned long long));
  c.stream.emplace(gpu, s.execDevice);
  c.start.emplace(gpu, s.execDevice);
  c.end.emplace(gpu, s.execDevice);
}

// Fills run on the executing GPU's stream; stream order puts them before the latch.
void fillCopy(const Gpu& gpu, PatternCache& patterns, CopyRun& c, bool withSource) {
  const CopySpec& s = *c.spec;
  ContextScope scope(gpu, s.execDevice);
  const CUstream st = c.stream->get();
  const CUdeviceptr srcPattern = patterns.get(s.execDevice, kSourceSeed);
  const CUdeviceptr dstPattern = patterns.get(s.execDevice, kDestinationSeed);
  switch (s.method) {
  case CopyMethod::SmSplitWarp:
    // Both buffers start as the source pattern; the elements each direction will overwrite are
    // cleared, so a direction that did not copy leaves zeros behind.
    kernels::fillPattern(st, c.src.ptr, c.checked, srcPattern);
    kernels::fillPattern(st, c.dst.ptr, c.checked, srcPattern);
    kernels::clearSplitWarpTargets(st, c.dst.ptr, c.src.ptr, c.geometry);
    return;
  case CopyMethod::SmReadOnly:
    if (withSource) kernels::fillPattern(st, c.src.ptr, c.checked, srcPattern);
    NVBW_CU(gpu.api(), cuMemsetD32Async, c.readSum->ptr(), 0, 2, st);  // the 8-byte sum
    return;
  case CopyMethod::SmWriteOnly:
    kernels::fillPattern(st, c.dst.ptr, c.checked, dstPattern);
    return;
  default:
    if (withSource) kernels::fillPattern(st, c.src.ptr, c.checked, srcPattern);
    kernels::fillPattern(st, c.dst.checked(), c.checked, dstPattern);
  }
}

void enqueueCopy(const Gpu& gpu, CopyRun& c, unsigned long long loops) {
  const CUstream st = c.stream->get();
  switch (c.spec->method) {
  case CopyMethod::CopyEngine:
    for (unsigned long long i = 0; i < loops; ++i)
      NVBW_CU(gpu.api(), cuMemcpyAsync, c.dst.ptr, c.src.ptr, c.bytes, st);
    break;
  case CopyMethod::SmCopy:
    kernels::copy(st, c.dst.ptr, c.src.ptr, c.geometry, loops);
    break;
  case CopyMethod::SmSplitWarp:
    kernels::splitWarpCopy(st, c.dst.ptr, c.src.ptr, c.geometry, loops);
    break;
  case CopyMethod::SmMulticast:
    kernels::multicastWrite(st, c.dst.ptr, c.src.ptr, c.geometry, loops);
    break;
  case CopyMethod::Tma:
    kernels::tmaCopy(st, c.dst.ptr, c.src.ptr, c.geometry, loops);
    break;
  case CopyMethod::SmReadOnly:
    kernels::readOnly(st, c.src.ptr, c.geometry, loops,
                      reinterpret_cast<unsigned long long*>(c.readSum->ptr()));
    break;
  case CopyMethod::SmWriteOnly:
    kernels::writeOnly(st, c.dst.ptr, c.geometry, loops, kWriteOnlyValue);
    break;
  }
}

void verifyCopy(const Gpu& gpu, Verifier& verifier, const CopyRun& c, unsigned sample,
                unsigned long long passes) {
  const CopySpec& s = *c.spec;
  const std::string label = copyLabel(s);
  switch (s.method) {
  case CopyMethod::SmReadOnly: {
    // Every pass of the sample (warm-up and measured) added the buffer's word sum once.
    const unsigned long long expected = passes * sourcePatternSum(c.checked / 4);
    unsigned long long read = 0;
    {
      ContextScope scope(gpu, s.execDevice);
      NVBW_CU(gpu.api(), cuMemcpyDtoH, &read, c.readSum->ptr(), sizeof(read));
    }
    if (read != expected)
      throw VerificationError("data verification failed for the read of " + label + " in sample " +
                              std::to_string(sample) + ": the words read add up to " +
                              std::to_string(read) + " instead of " + std::to_string(expected));
    return;
  }
  case CopyMethod::SmWriteOnly:
    verifier.check(s.execDevice, c.dst.ptr, c.checked, "the destination of " + label, sample,
                   kWriteOnlyValue);
    return;
  case CopyMethod::SmSplitWarp:
    verifier.check(s.execDevice, c.src.ptr, c.checked, "the source of " + label, sample);
    [[fallthrough]];
  default:
    verifier.check(s.execDevice, c.dst.checked(), c.checked, "the destination of " + label, sample);
  }
}

}  // namespace nvbw::engine
