// What a sample fills (engine/buffer_content.h) and how host memory is checked
// (engine/host_check.h): whatever the buffers held, after a sample's fills every word a copy
// writes differs from what the copy will write there (so every word the copy fails to write is
// caught), the check's pattern is what a good copy leaves, and a kept buffer is not filled again
// where it already holds what is needed. The copies are simulated word by word on patterns' masks.
#include <gtest/gtest.h>

#include <vector>

#include "engine/buffer_content.h"
#include "engine/host_check.h"
#include "plans/pattern.h"

namespace nvbw::engine {
namespace test_buffer_content {

const Reach kReaches[] = {Reach::Local, Reach::Peer, Reach::Host};
const CopyMethod kPlainMethods[] = {CopyMethod::CopyEngine, CopyMethod::SmCopy, CopyMethod::Tma,
                                    CopyMethod::SmMulticast};

// Every holding a buffer can be recorded with: nothing known, and every pattern.
std::vector<int> allHoldings() {
  std::vector<int> h = {kUnknown};
  for (int p = 0; p < kPatterns; ++p)
    if (p < kVariants || variantOf(p, false) != variantOf(p, true)) h.push_back(p);
  return h;
}

// A buffer of four warp-parity periods, as the masks of the pattern it holds (kUnknown: a word
// that matches no variant, which no fill rule may rely on).
constexpr std::size_t kWords = 4 * 2 * kWarpParityWords;
using Words = std::vector<long long>;

Words holding(int pattern) {
  Words w(kWords, -1);
  if (pattern != kUnknown)
    for (std::size_t i = 0; i < kWords; ++i) w[i] = patternMask(pattern, i);
  return w;
}

Words filled(int fill, int held) { return holding(fill != kUnknown ? fill : held); }

// A split-warp pass as the kernel makes it: odd warps copy source to destination, even warps the
// other way (16-byte elements, 32 to a warp). `skip`: a word it fails to write.
void splitWarpCopy(Words& src, Words& dst, std::size_t skip) {
  for (std::size_t i = 0; i < kWords; ++i) {
    if (i == skip) continue;
    const bool odd = (i / kWarpParityWords) % 2 == 1;
    (odd ? dst : src)[i] = (odd ? src : dst)[i];
  }
}

bool holds(const Words& w, int pattern) { return w == holding(pattern); }

TEST(BufferContent, VariantsDifferInEveryWord) {
  for (int a = 0; a < kVariants; ++a)
    for (int b = 0; b < kVariants; ++b)
      if (a != b) {
        // Two variants of one pattern differ by the XOR of their masks in every word: no bit
        // pattern of a word survives a non-zero mask.
        EXPECT_NE(variantMask(a) ^ variantMask(b), 0u) << a << " " << b;
      }
}

TEST(BufferContent, PatternsOfTwoVariantsFollowTheWarpParity) {
  EXPECT_EQ(twoVariants(2, 2), 2);
  EXPECT_EQ(twoVariants(kUnknown, 1), kUnknown);
  for (int even = 0; even < kVariants; ++even)
    for (int odd = 0; odd < kVariants; ++odd) {
      const int p = twoVariants(even, odd);
      ASSERT_GE(p, 0);
      ASSERT_LT(p, kPatterns);
      EXPECT_EQ(variantOf(p, false), even);
      EXPECT_EQ(variantOf(p, true), odd);
      EXPECT_EQ(patternMask(p, 0), variantMask(even));
      EXPECT_EQ(patternMask(p, kWarpParityWords - 1), variantMask(even));
      EXPECT_EQ(patternMask(p, kWarpParityWords), variantMask(odd));
      EXPECT_EQ(patternMask(p, 3 * kWarpParityWords + 5), variantMask(odd));
    }
  for (int a : allHoldings())
    for (int b : allHoldings()) {
      bool everywhere = a != kUnknown && b != kUnknown;
      for (std::size_t w = 0; everywhere && w < 2 * kWarpParityWords; ++w)
        everywhere = patternMask(a, w) != patternMask(b, w);
      EXPECT_EQ(differEverywhere(a, b), everywhere) << a << " " << b;
    }
  // The 2 MiB pattern holds whole parity periods, so it can carry any of them.
  EXPECT_EQ((std::size_t{2} << 20) / 4 % (2 * kWarpParityWords), 0u);
}

TEST(BufferContent, PlainCopiesStartFromASourceAndADifferentDestination) {
  for (CopyMethod method : kPlainMethods)
    for (Reach rs : kReaches)
      for (Reach rd : kReaches)
        for (int s : allHoldings())
          for (int d : allHoldings()) {
            const SampleFills f = planSample(method, rs, rd, s, d);
            SCOPED_TRACE(std::to_string(s) + " " + std::to_string(d));
            const int source = f.source != kUnknown ? f.source : s;
            const int destination = f.destination != kUnknown ? f.destination : d;
            ASSERT_NE(source, kUnknown);
            EXPECT_LT(variantOf(source, false), kSourceVariants);
            EXPECT_LT(variantOf(source, true), kSourceVariants);
            EXPECT_EQ(f.expected, source);
            EXPECT_TRUE(differEverywhere(source, destination));
            EXPECT_EQ(afterCopy(method, f).destination, source);
          }
}

TEST(BufferContent, AfterAGoodCopyOneBufferIsRefilledTheNearerOne) {
  // The last sample left both holding variant 1: the buffer nearer the issuing GPU gets another.
  SampleFills f = planSample(CopyMethod::CopyEngine, Reach::Local, Reach::Host, 1, 1);
  EXPECT_NE(f.source, kUnknown);
  EXPECT_EQ(f.destination, kUnknown);  // host memory is not filled again
  f = planSample(CopyMethod::CopyEngine, Reach::Host, Reach::Local, 1, 1);
  EXPECT_EQ(f.source, kUnknown);
  EXPECT_EQ(f.destination, kFillVariant);
  // A destination that holds the source's variant in half its words is not good enough either.
  f = planSample(CopyMethod::CopyEngine, Reach::Local, Reach::Host, 1, twoVariants(0, 1));
  EXPECT_EQ(f.source, 2);
  EXPECT_EQ(f.destination, kUnknown);
}

TEST(BufferContent, KeptBuffersThatAlreadyDifferAreNotFilled) {
  SampleFills f = planSample(CopyMethod::SmCopy, Reach::Local, Reach::Peer, 2, kFillVariant);
  EXPECT_EQ(f.source, kUnknown);
  EXPECT_EQ(f.destination, kUnknown);
  EXPECT_EQ(f.expected, 2);
  // What a split-warp copy left in a host buffer is a source for the next testcase's copy.
  f = planSample(CopyMethod::CopyEngine, Reach::Host, Reach::Local, twoVariants(0, 2), 1);
  EXPECT_EQ(f.source, kUnknown);
  EXPECT_EQ(f.destination, kUnknown);
  EXPECT_EQ(f.expected, twoVariants(0, 2));
}

TEST(BufferContent, SamplesInARowFillOneBufferEachAfterTheFirst) {
  for (CopyMethod method : kPlainMethods) {
    int s = kUnknown, d = kUnknown;
    for (int sample = 0; sample < 5; ++sample) {
      const SampleFills f = planSample(method, Reach::Local, Reach::Local, s, d);
      const int fills = (f.source != kUnknown) + (f.destination != kUnknown);
      EXPECT_EQ(fills, sample == 0 ? 2 : 1) << sample;
      const Holdings h = afterCopy(method, f);
      s = h.source;
      d = h.destination;
      EXPECT_EQ(s, f.expected);
    }
  }
}

TEST(BufferContent, SplitWarpChecksCatchEveryWordNotWritten) {
  for (Reach rs : kReaches)
    for (Reach rd : kReaches)
      for (int s : allHoldings())
        for (int d : allHoldings()) {
          SCOPED_TRACE(std::to_string(s) + " " + std::to_string(d));
          const SampleFills f = planSample(CopyMethod::SmSplitWarp, rs, rd, s, d);
          ASSERT_NE(f.expected, kUnknown);
          const Words src = filled(f.source, s);
          const Words dst = filled(f.destination, d);
          Words a = src, b = dst;
          splitWarpCopy(a, b, kWords);  // a good pass: both hold what the checks expect
          EXPECT_TRUE(holds(a, f.expected));
          EXPECT_TRUE(holds(b, f.expected));
          const Holdings h = afterCopy(CopyMethod::SmSplitWarp, f);
          EXPECT_EQ(h.source, f.expected);
          EXPECT_EQ(h.destination, f.expected);
          // A word left unwritten, in either direction, is found by one of the two checks.
          for (std::size_t skip : {std::size_t{0}, kWarpParityWords + 3, kWords - 1}) {
            Words x = src, y = dst;
            splitWarpCopy(x, y, skip);
            EXPECT_FALSE(holds(x, f.expected) && holds(y, f.expected)) << skip;
          }
        }
}

TEST(BufferContent, SplitWarpFillsTheFarBufferOnlyWhenNothingIsKnownOfIt) {
  // Host to device (the far buffer is the source) and device to host (the destination).
  for (const bool farIsSource : {true, false}) {
    const Reach rs = farIsSource ? Reach::Host : Reach::Local;
    const Reach rd = farIsSource ? Reach::Local : Reach::Host;
    int s = kUnknown, d = kUnknown;
    for (int sample = 0; sample < 5; ++sample) {
      const SampleFills f = planSample(CopyMethod::SmSplitWarp, rs, rd, s, d);
      const int farFill = farIsSource ? f.source : f.destination;
      const int nearFill = farIsSource ? f.destination : f.source;
      EXPECT_EQ(farFill != kUnknown, sample == 0) << sample;
      EXPECT_NE(nearFill, kUnknown) << sample;
      s = d = f.expected;
    }
  }
  // A far buffer kept from an earlier testcase is not filled; a near one that already differs
  // from it in every word neither.
  const int kept = twoVariants(0, 2);
  SampleFills f = planSample(CopyMethod::SmSplitWarp, Reach::Host, Reach::Local, kept, kUnknown);
  EXPECT_EQ(f.source, kUnknown);
  EXPECT_EQ(f.destination, 1);
  f = planSample(CopyMethod::SmSplitWarp, Reach::Host, Reach::Local, kept, 1);
  EXPECT_EQ(f.source, kUnknown);
  EXPECT_EQ(f.destination, kUnknown);
}

// ---- Records that reach less far than the copy (a truncated SM copy wrote the buffer before)

TEST(BufferContent, AShortRecordIsCompletedFromThePeriodWhereItEnds) {
  const std::size_t length = std::size_t{512} << 20;
  const std::size_t truncated = length - (std::size_t{2} << 19) - 4096;  // ends mid-period
  BufferContent held;
  held.set(2, 4096, truncated);
  const TailFill t = completingFill(held, 4096, length);
  EXPECT_EQ(t.pattern, 2);
  EXPECT_EQ(t.from, truncated / kPatternBytes * kPatternBytes);
  EXPECT_EQ(t.from % kPatternBytes, 0u);
  EXPECT_LE(t.from, truncated);
  EXPECT_GT(t.from + kPatternBytes, truncated);
  // Nothing to complete: a record that reaches far enough, another address, nothing known, or
  // less than one whole period known (a full fill costs the same).
  EXPECT_EQ(completingFill(held, 4096, truncated).pattern, kUnknown);
  EXPECT_EQ(completingFill(held, 0, length).pattern, kUnknown);
  EXPECT_EQ(completingFill(BufferContent{}, 4096, length).pattern, kUnknown);
  BufferContent small;
  small.set(1, 0, kPatternBytes - 4);
  EXPECT_EQ(completingFill(small, 0, length).pattern, kUnknown);
}

// A word of the 2 MiB pattern buffer of `pattern` as the fill kernel reads it: which word of the
// xorshift sequence it is and the mask of its variant.
long long patternWord(int pattern, std::size_t k) {
  return static_cast<long long>(k % kPatternWords) << 32 | patternMask(pattern, k);
}

// A buffer `periods` pattern periods long holding `pattern` over its first `knownWords` (the rest
// matches nothing).
Words shortRecord(int pattern, std::size_t periods, std::size_t knownWords) {
  Words w(periods * kPatternWords, -1);
  for (std::size_t i = 0; i < knownWords; ++i) w[i] = patternWord(pattern, i);
  return w;
}

// As the fill kernel writes from `at + from`: word w of that range gets the pattern's word w.
void fillFrom(Words& w, int pattern, std::size_t fromWord) {
  for (std::size_t i = fromWord; i < w.size(); ++i) w[i] = patternWord(pattern, i - fromWord);
}

TEST(BufferContent, ATailFillLeavesTheWholeRegionHoldingThePattern) {
  const std::size_t periods = 3;
  const std::size_t length = periods * kPatternBytes;
  for (int pattern : {1, twoVariants(0, 2)}) {
    const std::size_t knownWords = 2 * kPatternWords + 5000;
    BufferContent held;
    held.set(pattern, 0, knownWords * 4);
    const TailFill t = completingFill(held, 0, length);
    ASSERT_EQ(t.pattern, pattern);
    Words w = shortRecord(pattern, periods, knownWords);
    fillFrom(w, t.pattern, t.from / 4);
    for (std::size_t i = 0; i < w.size(); ++i) ASSERT_EQ(w[i], patternWord(pattern, i)) << i;
  }
}

TEST(BufferContent, ASplitWarpFarBufferRecordedShortGetsOnlyItsTail) {
  // Host to device: the host source was last written by a truncated SM copy.
  const std::size_t length = std::size_t{512} << 20;
  BufferContent host, device;
  host.set(1, 0, length - 700 * 1024);
  const SampleFills f = planFromRecords(CopyMethod::SmSplitWarp, Reach::Host, Reach::Local,
                                        {&host, 0}, {&device, 64}, length);
  EXPECT_EQ(f.source, kUnknown);  // not filled in full
  EXPECT_EQ(f.sourceTail.pattern, 1);
  EXPECT_EQ(f.sourceTail.from, length - kPatternBytes);
  EXPECT_NE(f.destination, kUnknown);
  EXPECT_EQ(f.destinationTail.pattern, kUnknown);
  EXPECT_EQ(f.expected, twoVariants(variantOf(f.destination, false), 1));
  OperationCounts c;
  countSample(CopyMethod::SmSplitWarp, true, false, length, f, false, c);
  EXPECT_EQ(c.fills.count, 2u);
  EXPECT_EQ(c.fills.hostBytes, kPatternBytes);
  EXPECT_EQ(c.fills.deviceBytes, length);
  // Without a record the far buffer is filled in full, as before.
  const SampleFills none = planFromRecords(CopyMethod::SmSplitWarp, Reach::Host, Reach::Local,
                                           {nullptr, 0}, {&device, 64}, length);
  EXPECT_NE(none.source, kUnknown);
  EXPECT_EQ(none.sourceTail.pattern, kUnknown);
}

// A host buffer the CPU read to check it is written again in full before a GPU reads it: a
// device-to-host copy's verified destination, read next as a host-to-device source.
TEST(BufferContent, AHostBufferTheCpuCheckedIsRefilledBeforeAGpuReadsIt) {
  const std::size_t length = 4 * kPatternBytes;
  BufferContent host, device;
  device.set(0, 0, length);
  SampleFills d2h = planFromRecords(CopyMethod::CopyEngine, Reach::Local, Reach::Host, {&device, 0},
                                    {&host, 0}, length);
  recordSample(CopyMethod::CopyEngine, d2h, {&device, 0, false, &host, 0, true}, length, true);
  EXPECT_TRUE(host.readByCpu);
  EXPECT_FALSE(device.readByCpu);
  EXPECT_EQ(host.pattern, d2h.expected);
  // The next sample of the same copy writes the destination: nothing more to fill.
  d2h = planFromRecords(CopyMethod::CopyEngine, Reach::Local, Reach::Host, {&device, 0}, {&host, 0},
                        length);
  EXPECT_EQ(d2h.destination, kUnknown);
  // A copy that reads it fills it in full, though it holds a source pattern already.
  BufferContent target;
  const SampleFills h2d = planFromRecords(CopyMethod::CopyEngine, Reach::Host, Reach::Local,
                                          {&host, 0}, {&target, 0}, length);
  EXPECT_NE(h2d.source, kUnknown);
  EXPECT_EQ(h2d.sourceTail.pattern, kUnknown);
  recordSample(CopyMethod::CopyEngine, h2d, {&host, 0, true, &target, 0, false}, length, true);
  EXPECT_FALSE(host.readByCpu);  // the GPU wrote it; its source is not checked
  EXPECT_EQ(planFromRecords(CopyMethod::CopyEngine, Reach::Host, Reach::Local, {&host, 0},
                            {&target, 0}, length)
                .source,
            kUnknown);
}

TEST(BufferContent, WithoutVerificationTheCpuReadsNothing) {
  const std::size_t length = 4 * kPatternBytes;
  BufferContent host, device;
  device.set(0, 0, length);
  const SampleFills d2h = planFromRecords(CopyMethod::CopyEngine, Reach::Local, Reach::Host,
                                          {&device, 0}, {&host, 0}, length);
  recordSample(CopyMethod::CopyEngine, d2h, {&device, 0, false, &host, 0, true}, length, false);
  EXPECT_FALSE(host.readByCpu);
  BufferContent target;
  EXPECT_EQ(planFromRecords(CopyMethod::CopyEngine, Reach::Host, Reach::Local, {&host, 0},
                            {&target, 0}, length)
                .source,
            kUnknown);
}

// A split-warp copy's host buffer, checked by the CPU after every sample, keeps what it holds
// from one sample to the next (its far buffer is written once); but a plain copy that reads it
// later has it written again first.
TEST(BufferContent, ASplitWarpHostBufferIsRefilledOnlyForAPlainCopy) {
  const std::size_t length = 4 * kPatternBytes;
  BufferContent host, device;
  for (int sample = 0; sample < 3; ++sample) {
    const SampleFills f = planFromRecords(CopyMethod::SmSplitWarp, Reach::Host, Reach::Local,
                                          {&host, 0}, {&device, 0}, length);
    EXPECT_EQ(f.source != kUnknown, sample == 0) << sample;
    recordSample(CopyMethod::SmSplitWarp, f, {&host, 0, true, &device, 0, false}, length, true);
    EXPECT_TRUE(host.readByCpu);
    EXPECT_FALSE(device.readByCpu);
  }
  BufferContent target;
  EXPECT_NE(planFromRecords(CopyMethod::CopyEngine, Reach::Host, Reach::Local, {&host, 0},
                            {&target, 0}, length)
                .source,
            kUnknown);
}

TEST(BufferContent, ABufferFilledInFullGetsNoTailFill) {
  // A short record of the fill variant in a source: not a source pattern, so it is refilled.
  const std::size_t length = 4 * kPatternBytes;
  BufferContent src;
  src.set(kFillVariant, 0, 3 * kPatternBytes + 8);
  const SampleFills f = planFromRecords(CopyMethod::SmCopy, Reach::Local, Reach::Host, {&src, 0},
                                        {nullptr, 0}, length);
  EXPECT_NE(f.source, kUnknown);
  EXPECT_EQ(f.sourceTail.pattern, kUnknown);
  // The same record in a destination only needs its tail: it differs from every source.
  BufferContent dst = src;
  BufferContent source;
  source.set(0, 0, length);
  const SampleFills g = planFromRecords(CopyMethod::CopyEngine, Reach::Host, Reach::Local,
                                        {&source, 0}, {&dst, 0}, length);
  EXPECT_EQ(g.source, kUnknown);
  EXPECT_EQ(g.destination, kUnknown);
  EXPECT_EQ(g.destinationTail.pattern, kFillVariant);
  EXPECT_EQ(g.destinationTail.from, 3 * kPatternBytes);
  EXPECT_EQ(g.expected, 0);
}

TEST(BufferContent, ReadOnlyFillsOnceWriteOnlyEverySample) {
  SampleFills f = planSample(CopyMethod::SmReadOnly, Reach::Local, Reach::Local, kUnknown, 0);
  EXPECT_EQ(f.source, 0);
  EXPECT_TRUE(f.resetSum);
  const Holdings h = afterCopy(CopyMethod::SmReadOnly, f);
  f = planSample(CopyMethod::SmReadOnly, Reach::Local, Reach::Local, h.source, h.destination);
  EXPECT_EQ(f.source, kUnknown);
  EXPECT_EQ(
      planSample(CopyMethod::SmReadOnly, Reach::Local, Reach::Local, twoVariants(0, 1), 0).source,
      0);
  for (int d : allHoldings())
    EXPECT_EQ(planSample(CopyMethod::SmWriteOnly, Reach::Local, Reach::Local, 0, d).destination,
              kFillVariant);
}

TEST(BufferContent, CountsOnePassPerFillAndCheck) {
  OperationCounts c;
  SampleFills both;
  both.source = 0;
  both.destination = kFillVariant;
  countSample(CopyMethod::CopyEngine, true, false, 1024, both, true, c);
  EXPECT_EQ(c.fills.count, 2u);
  EXPECT_EQ(c.fills.hostBytes, 1024u);
  EXPECT_EQ(c.fills.deviceBytes, 1024u);
  EXPECT_EQ(c.checks.count, 1u);
  EXPECT_EQ(c.checks.deviceBytes, 1024u);
  OperationCounts unverified;
  countSample(CopyMethod::CopyEngine, true, false, 1024, both, false, unverified);
  EXPECT_EQ(unverified.checks.count, 0u);
  // A split-warp sample after the first: the near (device) buffer is filled, both are checked.
  OperationCounts split;
  SampleFills nearOnly;
  nearOnly.destination = 1;
  countSample(CopyMethod::SmSplitWarp, true, false, 1024, nearOnly, true, split);
  EXPECT_EQ(split.fills.count, 1u);
  EXPECT_EQ(split.fills.deviceBytes, 1024u);
  EXPECT_EQ(split.fills.hostBytes, 0u);
  EXPECT_EQ(split.checks.count, 2u);
  EXPECT_EQ(split.checks.hostBytes, 1024u);
  EXPECT_EQ(split.checks.deviceBytes, 1024u);
}

// ---- Host checks
// ---------------------------------------------------------------------------------

std::vector<std::uint32_t> periodic(const std::vector<std::uint32_t>& pattern, std::size_t words) {
  std::vector<std::uint32_t> data(words);
  for (std::size_t i = 0; i < words; ++i) data[i] = pattern[i % pattern.size()];
  return data;
}

TEST(HostCheck, AMatchingBufferHasNoMismatch) {
  const std::vector<std::uint32_t> pattern = {1, 2, 3, 4, 5, 6, 7};
  const std::vector<std::uint32_t> data = periodic(pattern, 1000);  // not whole periods
  const PatternCheck r = checkHostPattern(data.data(), data.size(), pattern.data(), 7);
  EXPECT_EQ(r.mismatches, 0u);
  EXPECT_EQ(r.firstWord, ~0ull);
}

TEST(HostCheck, CountsMismatchesAndFindsTheFirstOnManyThreads) {
  // 96 MiB of words: up to twelve threads of at least 8 MiB each.
  const std::vector<std::uint32_t> pattern = {0xdeadbeef, 0x01234567, 0x89abcdef};
  std::vector<std::uint32_t> data = periodic(pattern, std::size_t{24} << 20);
  const std::size_t last = data.size() - 1;
  for (std::size_t w : {std::size_t{20} << 20, last, std::size_t{9} << 20}) data[w] ^= 1;
  const PatternCheck r = checkHostPattern(data.data(), data.size(), pattern.data(), 3);
  EXPECT_EQ(r.mismatches, 3u);
  EXPECT_EQ(r.firstWord, std::size_t{9} << 20);
}

TEST(HostCheckShare, TheGpuTakesWholePeriodsOfHalfAtFirst) {
  const HostCheckShare share;
  EXPECT_EQ(share.gpuBytes(512 << 20, 2 << 20), std::size_t{256} << 20);
  EXPECT_EQ(share.gpuBytes(7 << 20, 2 << 20), std::size_t{2} << 20);  // 1 of 3 whole periods
  EXPECT_EQ(share.gpuBytes(3 << 20, 2 << 20), 0u);  // less than two periods: all on the CPU
  EXPECT_EQ(share.gpuBytes(1 << 20, 2 << 20), 0u);
  EXPECT_EQ(share.gpuBytes(64, 0), 0u);
}

TEST(HostCheckShare, FollowsTheSpeedsOfTheLastCheckBothTookPartIn) {
  HostCheckShare share;
  // The CPU compared 300 MB in 3 ms (100 GB/s), the GPU 100 MB in 2 ms (50 GB/s): a third.
  share.measured(300000000, 0.003, 100000000, 0.002);
  EXPECT_EQ(share.gpuBytes(600 << 20, 2 << 20), std::size_t{200} << 20);
  // A check one side took no part in says nothing: the share stays.
  share.measured(0, 0.0, 100000000, 0.001);
  share.measured(100000000, 0.001, 0, 0.0);
  share.measured(100000000, 0.0, 100000000, 0.001);
  EXPECT_EQ(share.gpuBytes(600 << 20, 2 << 20), std::size_t{200} << 20);
  // Neither side is ever left out: a very slow or very fast GPU still takes 5 to 95%.
  share.measured(100000000, 0.001, 1, 1.0);
  EXPECT_EQ(share.gpuBytes(200 << 20, 2 << 20), std::size_t{10} << 20);  // 5 of 100 periods
  share.measured(1, 1.0, 100000000, 0.001);
  EXPECT_EQ(share.gpuBytes(200 << 20, 2 << 20), std::size_t{190} << 20);  // 95 of 100
}

TEST(HostCheck, EmptyInputsHaveNothingToCheck) {
  const std::uint32_t word = 1;
  EXPECT_EQ(checkHostPattern(&word, 0, &word, 1).mismatches, 0u);
  EXPECT_EQ(checkHostPattern(&word, 1, &word, 0).mismatches, 0u);
}

}  // namespace test_buffer_content
}  // namespace nvbw::engine
