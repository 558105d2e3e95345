#include "engine/buffer_content.h"

#include "plans/pattern.h"

namespace nvbw::engine {
namespace {

bool isVariant(int v) { return v >= 0 && v < kVariants; }

// A pattern of source variants only (what a copy may start from).
bool isSource(int pattern) {
  return pattern != kUnknown && variantOf(pattern, false) < kSourceVariants &&
         variantOf(pattern, true) < kSourceVariants;
}

// The first source variant that differs in every word from `held` (any when nothing is known).
// A pattern holds at most two variants, so one of the three is always left.
int sourceVariantOtherThan(int held) {
  for (int v = 0; v < kSourceVariants; ++v)
    if (held == kUnknown || differEverywhere(v, held)) return v;
  return 0;
}

// Copy engine, SM copy kernel, TMA, multicast: the destination must differ from the source.
SampleFills plainCopy(Reach source, Reach destination, int sourceHolds, int destinationHolds) {
  SampleFills f;
  int expected = isSource(sourceHolds) ? sourceHolds : kUnknown;
  if (destinationHolds == kUnknown) {
    f.destination = kFillVariant;  // differs from every source pattern
    if (expected == kUnknown) f.source = expected = 0;
  } else if (expected == kUnknown) {
    f.source = expected = sourceVariantOtherThan(destinationHolds);
  } else if (!differEverywhere(expected, destinationHolds)) {
    // The destination holds some of what the copy would write (the last sample's copy).
    if (source <= destination)
      f.source = expected = sourceVariantOtherThan(destinationHolds);
    else
      f.destination = kFillVariant;
  }
  f.expected = expected;
  return f;
}

// Split warp: each buffer is source and destination, by warp parity (odd warps read the source
// and write the destination, even warps the other way), so the two must differ in every word.
// After a good sample both hold the same: the source's odd-warp variant and the destination's
// even-warp one. The far buffer is filled only when nothing is known of it; the near one gets
// a variant that differs from it wherever it does not already.
SampleFills splitWarp(Reach source, Reach destination, int sourceHolds, int destinationHolds) {
  SampleFills f;
  const bool nearIsSource = source <= destination;
  int far = nearIsSource ? destinationHolds : sourceHolds;
  int near = nearIsSource ? sourceHolds : destinationHolds;
  if (far == kUnknown) {
    far = 0;
    (nearIsSource ? f.destination : f.source) = far;
  }
  if (near == kUnknown || !differEverywhere(near, far)) {
    near = sourceVariantOtherThan(far);
    (nearIsSource ? f.source : f.destination) = near;
  }
  const int src = nearIsSource ? near : far;
  const int dst = nearIsSource ? far : near;
  f.expected = twoVariants(variantOf(dst, false), variantOf(src, true));
  return f;
}

void addPass(BufferPasses& passes, bool host, std::uint64_t bytes) {
  (host ? passes.hostBytes : passes.deviceBytes) += bytes;
}

}  // namespace

int twoVariants(int evenWarps, int oddWarps) {
  if (!isVariant(evenWarps) || !isVariant(oddWarps)) return kUnknown;
  return evenWarps == oddWarps ? evenWarps : kVariants * (1 + evenWarps) + oddWarps;
}

int variantOf(int pattern, bool oddWarp) {
  if (pattern < 0 || pattern >= kPatterns) return kUnknown;
  if (pattern < kVariants) return pattern;
  return oddWarp ? pattern % kVariants : pattern / kVariants - 1;
}

std::uint32_t patternMask(int pattern, std::size_t word) {
  return variantMask(variantOf(pattern, (word / kWarpParityWords) % 2 == 1));
}

bool differEverywhere(int a, int b) {
  for (const bool odd : {false, true}) {
    const int va = variantOf(a, odd);
    const int vb = variantOf(b, odd);
    if (va == kUnknown || vb == kUnknown || va == vb) return false;
  }
  return true;
}

std::uint32_t variantMask(int variant) {
  static constexpr std::uint32_t kMasks[kVariants] = {0u, 0x55555555u, 0xAAAAAAAAu, 0xFFFFFFFFu};
  return variant >= 0 && variant < kVariants ? kMasks[variant] : 0u;
}

SampleFills planSample(CopyMethod method, Reach source, Reach destination, int sourceHolds,
                       int destinationHolds) {
  switch (method) {
  case CopyMethod::SmSplitWarp:
    return splitWarp(source, destination, sourceHolds, destinationHolds);
  case CopyMethod::SmReadOnly: {
    // The sum checked is that of variant 0; the destination is not used.
    SampleFills f;
    if (sourceHolds != 0) f.source = 0;
    f.expected = 0;
    f.resetSum = true;
    return f;
  }
  case CopyMethod::SmWriteOnly: {
    // The pass writes one value everywhere: what it leaves cannot tell the next pass's writes
    // from none, so the destination is filled every time.
    SampleFills f;
    f.destination = kFillVariant;
    return f;
  }
  default:
    return plainCopy(source, destination, sourceHolds, destinationHolds);
  }
}

TailFill completingFill(const BufferContent& held, std::uint64_t address, std::size_t length) {
  if (held.pattern == kUnknown || held.at != address || held.bytes >= length) return {};
  const std::size_t from = held.bytes / kPatternBytes * kPatternBytes;
  if (from == 0) return {};  // not even one whole period known: a full fill is as cheap
  return {held.pattern, from};
}

SampleFills planFromRecords(CopyMethod method, Reach source, Reach destination, RecordedBuffer src,
                            RecordedBuffer dst, std::size_t length) {
  // What a buffer holds over the whole region once its tail fill (if any) is done.
  struct Completed {
    int holds = kUnknown;
    TailFill tail;
  };
  auto complete = [&](RecordedBuffer b, bool read) {
    Completed c;
    if (!b.held || (read && b.held->readByCpu)) return c;
    c.tail = completingFill(*b.held, b.address, length);
    c.holds = c.tail.pattern != kUnknown ? c.tail.pattern : b.held->over(b.address, length);
    return c;
  };
  // A split-warp copy reads both its buffers, but keeps its far buffer from one sample to the next
  // (buffer_content.h): its own checks leave it as the last sample's copy did, and the figures
  // of these copies match upstream's, which fills both before every sample.
  const bool plain = method != CopyMethod::SmWriteOnly && method != CopyMethod::SmSplitWarp;
  const Completed s = complete(src, plain);
  const Completed d = complete(dst, false);
  SampleFills f = planSample(method, source, destination, s.holds, d.holds);
  if (f.source == kUnknown) f.sourceTail = s.tail;
  if (f.destination == kUnknown) f.destinationTail = d.tail;
  return f;
}

Holdings afterCopy(CopyMethod method, const SampleFills& fills) {
  switch (method) {
  case CopyMethod::SmReadOnly:
    return {fills.expected, kUnknown};
  case CopyMethod::SmWriteOnly:
    return {kUnknown, kUnknown};
  default:
    return {fills.expected, fills.expected};
  }
}

void recordSample(CopyMethod method, const SampleFills& fills, const SampleBuffers& b,
                  std::size_t length, bool verified) {
  const Holdings held = afterCopy(method, fills);
  if (b.source) {
    b.source->set(held.source, b.sourceAt, length);
    b.source->readByCpu = verified && b.sourceOnHost && method == CopyMethod::SmSplitWarp;
  }
  if (b.destination) {
    b.destination->set(held.destination, b.destinationAt, length);
    b.destination->readByCpu = verified && b.destinationOnHost && method != CopyMethod::SmReadOnly;
  }
}

void countSample(CopyMethod method, bool sourceOnHost, bool destinationOnHost,
                 std::size_t checkedBytes, const SampleFills& fills, bool verify,
                 OperationCounts& counts) {
  const std::uint64_t bytes = checkedBytes;
  auto fill = [&](int full, const TailFill& tail, bool host) {
    if (full == kUnknown && tail.pattern == kUnknown) return;
    ++counts.fills.count;
    if (full == kUnknown) ++counts.tailFills;
    addPass(counts.fills, host, full != kUnknown ? bytes : bytes - tail.from);
  };
  fill(fills.source, fills.sourceTail, sourceOnHost);
  fill(fills.destination, fills.destinationTail, destinationOnHost);
  if (!verify) return;
  switch (method) {
  case CopyMethod::SmReadOnly:
    ++counts.checks.count;  // the sum, one word
    return;
  case CopyMethod::SmSplitWarp:
    ++counts.checks.count;
    addPass(counts.checks, sourceOnHost, bytes);
    [[fallthrough]];
  default:
    ++counts.checks.count;
    addPass(counts.checks, destinationOnHost, bytes);
  }
}

}  // namespace nvbw::engine
