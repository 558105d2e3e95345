#include "engine/buffer_content.h"

namespace nvbw::engine {
namespace {

bool isSource(int variant) { return variant >= 0 && variant < kSourceVariants; }

// The first source variant that is not `avoid`.
int otherThan(int avoid) {
  for (int v = 0; v < kSourceVariants; ++v)
    if (v != avoid) return v;
  return 0;
}

// Copy engine, SM copy kernel, TMA, multicast: the destination must differ from the source.
SampleFills plainCopy(Reach source, Reach destination, int sourceHolds, int destinationHolds) {
  SampleFills f;
  int expected = isSource(sourceHolds) ? sourceHolds : kUnknown;
  if (expected == kUnknown) {
    expected = otherThan(destinationHolds);
    f.source = expected;
  } else if (destinationHolds == expected) {
    // The destination already holds what the copy would write (the last sample's copy).
    if (source <= destination) {
      expected = otherThan(destinationHolds);
      f.source = expected;
    } else {
      f.destination = kFillVariant;
    }
  }
  if (destinationHolds == kUnknown) f.destination = kFillVariant;
  f.expected = expected;
  return f;
}

// Split warp: each buffer is source and destination, element by element. After a good sample
// both hold one variant everywhere: the next writes another into the elements that are read and
// leaves the ones that are written holding the old one, which differs from it in every word.
SampleFills splitWarp(int sourceHolds, int destinationHolds) {
  SampleFills f;
  if (isSource(sourceHolds) && sourceHolds == destinationHolds) {
    f.source = (sourceHolds + 1) % kSourceVariants;
  } else {
    f.source = 0;
    f.destination = kFillVariant;
  }
  f.expected = f.source;
  return f;
}

}  // namespace

std::uint32_t variantMask(int variant) {
  static constexpr std::uint32_t kMasks[kVariants] = {0u, 0x55555555u, 0xAAAAAAAAu, 0xFFFFFFFFu};
  return variant >= 0 && variant < kVariants ? kMasks[variant] : 0u;
}

SampleFills planSample(CopyMethod method, Reach source, Reach destination, int sourceHolds,
                       int destinationHolds) {
  switch (method) {
  case CopyMethod::SmSplitWarp:
    return splitWarp(sourceHolds, destinationHolds);
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
  case CopyMethod::CopyEngine:
  case CopyMethod::SmCopy:
  case CopyMethod::SmMulticast:
  case CopyMethod::Tma:
    break;
  }
  return plainCopy(source, destination, sourceHolds, destinationHolds);
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

namespace {

void addPass(BufferPasses& passes, bool host, std::uint64_t bytes) {
  (host ? passes.hostBytes : passes.deviceBytes) += bytes;
}

}  // namespace

void countSample(CopyMethod method, bool sourceOnHost, bool destinationOnHost,
                 std::size_t checkedBytes, const SampleFills& fills, bool verify,
                 OperationCounts& counts) {
  const std::uint64_t bytes = checkedBytes;
  if (method == CopyMethod::SmSplitWarp) {
    // One launch writes the read elements (half of each buffer) and, when asked, the others.
    const std::uint64_t part = fills.destination == kUnknown ? bytes / 2 : bytes;
    ++counts.fills.count;
    addPass(counts.fills, sourceOnHost, part);
    addPass(counts.fills, destinationOnHost, part);
  } else {
    if (fills.source != kUnknown) {
      ++counts.fills.count;
      addPass(counts.fills, sourceOnHost, bytes);
    }
    if (fills.destination != kUnknown) {
      ++counts.fills.count;
      addPass(counts.fills, destinationOnHost, bytes);
    }
  }
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
