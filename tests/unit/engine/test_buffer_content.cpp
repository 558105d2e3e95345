// What a sample fills (engine/buffer_content.h) and how host memory is checked
// (engine/host_check.h): whatever the buffers held, after a sample's fills the source holds the
// variant its check expects and the destination a different one (so every word the copy fails to
// write is caught), and a kept buffer is not filled again where it already holds what is needed.
#include <gtest/gtest.h>

#include <vector>

#include "engine/buffer_content.h"
#include "engine/host_check.h"

namespace nvbw::engine {
namespace test_buffer_content {

const int kHoldings[] = {kUnknown, 0, 1, 2, kFillVariant};
const Reach kReaches[] = {Reach::Local, Reach::Peer, Reach::Host};
const CopyMethod kPlainMethods[] = {CopyMethod::CopyEngine, CopyMethod::SmCopy, CopyMethod::Tma,
                                    CopyMethod::SmMulticast};

int after(int fill, int held) { return fill != kUnknown ? fill : held; }

TEST(BufferContent, VariantsDifferInEveryWord) {
  for (int a = 0; a < kVariants; ++a)
    for (int b = 0; b < kVariants; ++b)
      if (a != b) {
        // Two variants of one pattern differ by the XOR of their masks in every word: no bit
        // pattern of a word survives a non-zero mask.
        EXPECT_NE(variantMask(a) ^ variantMask(b), 0u) << a << " " << b;
      }
}

TEST(BufferContent, PlainCopiesStartFromASourceAndADifferentDestination) {
  for (CopyMethod method : kPlainMethods)
    for (Reach rs : kReaches)
      for (Reach rd : kReaches)
        for (int s : kHoldings)
          for (int d : kHoldings) {
            const SampleFills f = planSample(method, rs, rd, s, d);
            const int source = after(f.source, s);
            const int destination = after(f.destination, d);
            SCOPED_TRACE(std::to_string(s) + " " + std::to_string(d));
            EXPECT_GE(source, 0);
            EXPECT_LT(source, kSourceVariants);
            EXPECT_EQ(f.expected, source);
            EXPECT_NE(destination, kUnknown);
            EXPECT_NE(destination, source);
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
}

TEST(BufferContent, KeptBuffersThatAlreadyDifferAreNotFilled) {
  const SampleFills f = planSample(CopyMethod::SmCopy, Reach::Local, Reach::Peer, 2, kFillVariant);
  EXPECT_EQ(f.source, kUnknown);
  EXPECT_EQ(f.destination, kUnknown);
  EXPECT_EQ(f.expected, 2);
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

TEST(BufferContent, SplitWarpReadsOneVariantAndOverwritesAnother) {
  for (int s : kHoldings)
    for (int d : kHoldings) {
      const SampleFills f = planSample(CopyMethod::SmSplitWarp, Reach::Local, Reach::Peer, s, d);
      EXPECT_EQ(f.expected, f.source);
      ASSERT_NE(f.source, kUnknown);
      if (f.destination == kUnknown) {
        // The written elements keep what both held, which is not what is read now.
        EXPECT_EQ(s, d);
        EXPECT_NE(s, f.source);
        EXPECT_GE(s, 0);
      }
    }
  EXPECT_EQ(planSample(CopyMethod::SmSplitWarp, Reach::Local, Reach::Peer, 1, 1).destination,
            kUnknown);
}

TEST(BufferContent, ReadOnlyFillsOnceWriteOnlyEverySample) {
  SampleFills f = planSample(CopyMethod::SmReadOnly, Reach::Local, Reach::Local, kUnknown, 0);
  EXPECT_EQ(f.source, 0);
  EXPECT_TRUE(f.resetSum);
  const Holdings h = afterCopy(CopyMethod::SmReadOnly, f);
  f = planSample(CopyMethod::SmReadOnly, Reach::Local, Reach::Local, h.source, h.destination);
  EXPECT_EQ(f.source, kUnknown);
  for (int d : kHoldings)
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
  OperationCounts split;
  SampleFills reads;
  reads.source = 1;
  countSample(CopyMethod::SmSplitWarp, false, false, 1024, reads, true, split);
  EXPECT_EQ(split.fills.count, 1u);
  EXPECT_EQ(split.fills.deviceBytes, 1024u);  // half of each buffer
  EXPECT_EQ(split.checks.count, 2u);
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
  EXPECT_EQ(share.gpuShare(), 0.5);
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
  EXPECT_NEAR(share.gpuShare(), 1.0 / 3, 1e-12);
  EXPECT_EQ(share.gpuBytes(600 << 20, 2 << 20), std::size_t{200} << 20);
  // A check one side took no part in says nothing: the share stays.
  share.measured(0, 0.0, 100000000, 0.001);
  share.measured(100000000, 0.001, 0, 0.0);
  share.measured(100000000, 0.0, 100000000, 0.001);
  EXPECT_NEAR(share.gpuShare(), 1.0 / 3, 1e-12);
  // Neither side is ever left out: a very slow or very fast GPU still takes 5 to 95%.
  share.measured(100000000, 0.001, 1, 1.0);
  EXPECT_EQ(share.gpuShare(), 0.05);
  share.measured(1, 1.0, 100000000, 0.001);
  EXPECT_EQ(share.gpuShare(), 0.95);
}

TEST(HostCheck, EmptyInputsHaveNothingToCheck) {
  const std::uint32_t word = 1;
  EXPECT_EQ(checkHostPattern(&word, 0, &word, 1).mismatches, 0u);
  EXPECT_EQ(checkHostPattern(&word, 1, &word, 0).mismatches, 0u);
}

}  // namespace test_buffer_content
}  // namespace nvbw::engine
