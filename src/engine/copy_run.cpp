#include "engine/copy_run.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <vector>

#include "engine/host_check.h"
#include "engine/sample_recording.h"
#include "plans/pattern.h"

namespace nvbw::engine {

Reach reachOf(const BufferSpec& b, const CopySpec& c) {
  if (b.kind == MemoryKind::Host) return Reach::Host;
  if (b.sharing == Sharing::Multicast) return Reach::Peer;
  if (b.sharing == Sharing::Private) return b.device == c.execDevice ? Reach::Local : Reach::Peer;
  return b.process == c.execProcess ? Reach::Local : Reach::Peer;
}

namespace {

constexpr std::size_t kNoSlot = ~std::size_t{0};

// Host memory [from, bytes) of a buffer written with `words` repeated from the buffer's start
// (`from` a multiple of the pattern's period), by the CPU.
void fillOnHost(void* host, std::size_t from, std::size_t bytes,
                const std::vector<std::uint32_t>& words) {
  auto* out = static_cast<std::uint32_t*>(host);
  for (std::size_t w = from / 4; w < bytes / 4; w += words.size())
    std::memcpy(out + w, words.data(), std::min(words.size(), bytes / 4 - w) * 4);
}

}  // namespace

const std::vector<std::uint32_t>& PatternCache::words(int pattern) {
  auto it = words_.find(pattern);
  if (it != words_.end()) return it->second;
  std::vector<std::uint32_t> words;
  if (pattern == kWriteOnlyPattern) {
    words.assign(kPatternWords, kWriteOnlyValue);
  } else {
    words = xorshiftPattern(kSourceSeed);
    for (std::size_t w = 0; w < words.size(); ++w) words[w] ^= patternMask(pattern, w);
  }
  return words_.emplace(pattern, std::move(words)).first->second;
}

CUdeviceptr PatternCache::get(int device, int pattern) {
  const auto key = std::make_pair(device, pattern);
  const auto it = buffers_.find(key);
  if (it != buffers_.end()) return it->second.ptr();
  const std::vector<std::uint32_t>& host = words(pattern);
  DeviceBuffer buf(gpu_, device, kPatternBytes);
  ContextScope scope(gpu_, device);
  NVBW_CU(gpu_.api(), cuMemcpyHtoD, buf.ptr(), host.data(), kPatternBytes);
  // From pageable memory cuMemcpyHtoD may return before its DMA has landed, and the kernels that
  // read the pattern run on non-blocking streams, which do not wait for it (checks then found
  // stale words near the pattern's end). Wait for the legacy stream the copy went to (once per
  // pattern). (Not cuCtxSynchronize: for CUDA 13 the driver hands out its _v2, which takes a
  // context.)
  NVBW_CU(gpu_.api(), cuStreamSynchronize, nullptr);
  return buffers_.emplace(key, std::move(buf)).first->second.ptr();
}

Verifier::Lane& Verifier::laneOf(int device) {
  auto it = lanes_.find(device);
  if (it == lanes_.end())
    it =
        lanes_.emplace(device, Lane{Stream(gpu_, device), Event(gpu_, device), Event(gpu_, device)})
            .first;
  return it->second;
}

std::vector<int> Verifier::launchGpuParts(const std::vector<Check>& checks,
                                          const std::vector<std::size_t>& onGpu,
                                          std::vector<std::size_t>& slot) {
  auto* results = static_cast<kernels::CheckResult*>(results_->data());
  auto* resultsOnGpu = reinterpret_cast<kernels::CheckResult*>(results_->devicePtr());
  std::vector<int> timed;
  std::size_t next = 0;
  for (const bool hostPass : {true, false}) {
    for (std::size_t i = 0; i < checks.size(); ++i) {
      const Check& c = checks[i];
      if (onGpu[i] == 0 || (c.host != nullptr) != hostPass) continue;
      ContextScope scope(gpu_, c.device);
      const CUstream stream = laneOf(c.device).stream.get();
      if (hostPass && std::find(timed.begin(), timed.end(), c.device) == timed.end()) {
        laneOf(c.device).start.record(stream);
        timed.push_back(c.device);
      }
      slot[i] = next++;
      results[slot[i]] = {0, ~0ull};
      // The kernel writes the counters through the registered memory's device address.
      kernels::checkPattern(stream, c.buffer, onGpu[i], patterns_.get(c.device, c.pattern),
                            resultsOnGpu + slot[i]);
    }
    if (!hostPass) continue;
    for (int device : timed) {
      ContextScope scope(gpu_, device);
      laneOf(device).end.record(laneOf(device).stream.get());
    }
  }
  return timed;
}

void Verifier::run(const std::vector<Check>& checks, unsigned sample, bool hostOnGpu) {
  // The bytes of each check its GPU compares: all of device memory, the leading part of host
  // memory (the CPU compares the rest), none of a sum.
  std::vector<std::size_t> onGpu(checks.size(), 0);
  std::size_t launches = 0;
  for (std::size_t i = 0; i < checks.size(); ++i) {
    const Check& c = checks[i];
    if (c.sumExpected) continue;
    onGpu[i] = c.host ? (hostOnGpu ? share_.gpuBytes(c.bytes, kPatternBytes) : 0) : c.bytes;
    launches += onGpu[i] != 0 ? 1 : 0;
  }
  if (launches > capacity_) {
    results_.emplace(gpu_, launches * sizeof(kernels::CheckResult));
    capacity_ = launches;
  }
  std::vector<std::size_t> slot(checks.size(), kNoSlot);
  const std::vector<int> timed =
      launches ? launchGpuParts(checks, onGpu, slot) : std::vector<int>{};
  const std::vector<PatternCheck> onHost = checkOnHost(checks, onGpu, timed);
  const auto* results =
      launches ? static_cast<const kernels::CheckResult*>(results_->data()) : nullptr;
  for (std::size_t i = 0; i < checks.size(); ++i) {
    const Check& c = checks[i];
    if (c.sumExpected) {
      checkSum(c, sample);
      continue;
    }
    PatternCheck found = onHost[i];
    if (slot[i] != kNoSlot) {
      found.mismatches += results[slot[i]].mismatches;
      found.firstWord = std::min<unsigned long long>(found.firstWord, results[slot[i]].firstOffset);
    }
    if (found.mismatches != 0)
      throw VerificationError(
          mismatchMessage(c.what, sample, found.mismatches, c.bytes / 4, found.firstWord));
  }
}

// The CPU's parts of the host checks while the GPUs do theirs; then, once the GPUs are done,
// the share of host checks the GPUs take next time, from how fast each side was.
std::vector<PatternCheck> Verifier::checkOnHost(const std::vector<Check>& checks,
                                                const std::vector<std::size_t>& onGpu,
                                                const std::vector<int>& timed) {
  std::vector<PatternCheck> onHost(checks.size());
  std::size_t cpuBytes = 0;
  const auto cpuStart = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < checks.size(); ++i) {
    const Check& c = checks[i];
    if (!c.host || c.bytes == onGpu[i]) continue;
    const std::size_t skipped = onGpu[i] / 4;
    onHost[i] =
        checkHostPattern(static_cast<const std::uint32_t*>(c.host) + skipped, c.bytes / 4 - skipped,
                         patterns_.words(c.pattern).data(), kPatternWords);
    if (onHost[i].mismatches != 0) onHost[i].firstWord += skipped;
    cpuBytes += c.bytes - onGpu[i];
  }
  const double cpuSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - cpuStart).count();
  for (const auto& [device, lane] : lanes_) lane.stream.synchronize();  // idle ones return at once
  std::size_t gpuHostBytes = 0;
  for (std::size_t i = 0; i < checks.size(); ++i) gpuHostBytes += checks[i].host ? onGpu[i] : 0;
  double gpuSeconds = 0;
  for (int device : timed) {
    const Lane& t = laneOf(device);
    gpuSeconds = std::max(gpuSeconds, t.end.elapsedSince(t.start) / 1e3);
  }
  share_.measured(cpuBytes, cpuSeconds, gpuHostBytes, gpuSeconds);
  return onHost;
}

void Verifier::checkSum(const Check& c, unsigned sample) {
  unsigned long long read = 0;
  {
    ContextScope scope(gpu_, c.device);
    NVBW_CU(gpu_.api(), cuMemcpyDtoH, &read, c.buffer, sizeof(read));
  }
  if (read != *c.sumExpected)
    throw VerificationError("data verification failed for " + c.what + " in sample " +
                            std::to_string(sample) + ": the words read add up to " +
                            std::to_string(read) + " instead of " + std::to_string(*c.sumExpected));
}

CopyShape copyShape(const CopySpec& s, int sms) {
  CopyShape shape;
  switch (s.method) {
  case CopyMethod::CopyEngine:
    shape.bytes = std::min(s.src.bytes, s.dst.bytes);
    return shape;
  case CopyMethod::SmCopy:
    shape.geometry = smCopyGeometry(std::min(s.src.bytes, s.dst.bytes), sms);
    break;
  case CopyMethod::SmSplitWarp:
    shape.geometry = splitWarpGeometry(std::min(s.src.bytes, s.dst.bytes));
    break;
  case CopyMethod::SmMulticast:
    shape.geometry = multicastGeometry(std::min(s.src.bytes, s.dst.bytes), sms);
    break;
  case CopyMethod::Tma:
    shape.geometry = tmaGeometry(std::min(s.src.bytes, s.dst.bytes), sms);
    break;
  case CopyMethod::SmReadOnly:
    shape.geometry = localReadGeometry(s.src.bytes, sms);
    break;
  case CopyMethod::SmWriteOnly:
    shape.geometry = localWriteGeometry(s.dst.bytes);
    break;
  }
  shape.bytes = shape.geometry.bytes();
  return shape;
}

void prepareCopy(const Gpu& gpu, CopyRun& c) {
  const CopySpec& s = *c.spec;
  // Peer access for every device buffer the executing GPU touches on another GPU of this process
  // (memory of other processes is mapped with its access already set).
  for (const BufferSpec* b : {&s.src, &s.dst})
    if (b->kind == MemoryKind::Device && b->sharing == Sharing::Private &&
        b->device != s.execDevice)
      gpu.enablePeerAccess(s.execDevice, b->device);
  const CopyShape shape = copyShape(s, gpu.smCount(s.execDevice));
  c.geometry = shape.geometry;
  c.bytes = shape.bytes;
  c.checked = c.bytes;
  if (s.method == CopyMethod::SmReadOnly)
    c.readSum.emplace(gpu, s.execDevice, sizeof(unsigned long long));
  c.stream.emplace(gpu, s.execDevice);
  c.start.emplace(gpu, s.execDevice);
  c.end.emplace(gpu, s.execDevice);
  c.filled.emplace(gpu, s.execDevice);
}

void planFills(CopyRun& c, bool verify, OperationCounts& counts) {
  const CopySpec& s = *c.spec;
  c.fills = planFromRecords(s.method, reachOf(s.src, s), reachOf(s.dst, s),
                            {c.srcContent, c.src.ptr}, {c.dstContent, c.dst.checked()}, c.checked);
  countSample(s.method, s.src.kind == MemoryKind::Host, s.dst.kind == MemoryKind::Host, c.checked,
              c.fills, verify, counts);
  // Until the sample has gone well nothing is known of what they hold.
  if (c.srcContent) *c.srcContent = {};
  if (c.dstContent) *c.dstContent = {};
}

// Stream order puts the fills before the latch.
void fillCopy(const Gpu& gpu, PatternCache& patterns, CopyRun& c, bool hostByCpu) {
  const CopySpec& s = *c.spec;
  const SampleFills& f = c.fills;
  ContextScope scope(gpu, s.execDevice);
  const CUstream st = c.stream->get();
  auto pattern = [&](int variant) { return patterns.get(s.execDevice, variant); };
  auto fill = [&](CUdeviceptr at, void* host, int full, const TailFill& tail) {
    if (hostByCpu && host) {
      if (full != kUnknown) fillOnHost(host, 0, c.checked, patterns.words(full));
      if (tail.pattern != kUnknown)
        fillOnHost(host, tail.from, c.checked, patterns.words(tail.pattern));
      return;
    }
    if (full != kUnknown) kernels::fillPattern(st, at, c.checked, pattern(full));
    if (tail.pattern != kUnknown)
      kernels::fillPattern(st, at + tail.from, c.checked - tail.from, pattern(tail.pattern));
  };
  fill(c.src.ptr, c.src.host, f.source, f.sourceTail);
  fill(c.dst.checked(), c.dst.checkPtr ? nullptr : c.dst.host, f.destination, f.destinationTail);
  if (f.resetSum) NVBW_CU(gpu.api(), cuMemsetD32Async, c.readSum->ptr(), 0, 2, st);  // 8 bytes
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

void addChecks(const CopyRun& c, unsigned long long passes, std::vector<Check>& checks) {
  const CopySpec& s = *c.spec;
  const std::string label = copyLabel(s);
  auto check = [&](const char* role, CUdeviceptr at, const void* host, int pattern) {
    checks.push_back({s.execDevice, at, host, c.checked, pattern, role + label, std::nullopt});
  };
  switch (s.method) {
  case CopyMethod::SmReadOnly:
    // Every pass of the sample (warm-up and measured) added the buffer's word sum once.
    checks.push_back({s.execDevice, c.readSum->ptr(), nullptr, sizeof(unsigned long long), 0,
                      "the read of " + label, passes * sourcePatternSum(c.checked / 4)});
    return;
  case CopyMethod::SmWriteOnly:
    check("the destination of ", c.dst.ptr, c.dst.host, kWriteOnlyPattern);
    return;
  case CopyMethod::SmSplitWarp:
    check("the source of ", c.src.ptr, c.src.host, c.fills.expected);
    [[fallthrough]];
  default:
    // A multicast object is checked through this process's own backing, on its GPU.
    check("the destination of ", c.dst.checked(), c.dst.checkPtr ? nullptr : c.dst.host,
          c.fills.expected);
  }
}

void recordCopied(CopyRun& c, bool verified) {
  const CopySpec& s = *c.spec;
  recordSample(s.method, c.fills,
               {c.srcContent, c.src.ptr, s.src.kind == MemoryKind::Host, c.dstContent,
                c.dst.checked(), s.dst.kind == MemoryKind::Host},
               c.checked, verified);
}

}  // namespace nvbw::engine
