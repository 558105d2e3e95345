// What the buffers of a copy hold between samples, and which fills a sample needs. Pure, so that
// the executor and the fake platform decide alike and every rule is tested without a GPU.
//
// Verification needs, before each sample, a source that holds a known pattern and a destination
// that differs from it in every word, so that any word the copy did not write is caught. The
// patterns are variants of the source pattern (xorshiftPattern(kSourceSeed), each word XOR the
// variant's mask): two variants differ in every word. A buffer keeps what it holds from one
// sample to the next and, in the buffer pool, from one testcase to the next. After a verified
// copy its destination holds the source's pattern; the next sample then refills one of the two
// with another variant, the one the executing GPU reaches fastest (its own memory before a
// peer's, a peer's before host memory), instead of refilling the destination every time.
//
// A split-warp copy moves the elements of odd warps one way and those of even warps the other,
// so after it both buffers hold the far buffer's variant in one half of the elements and the near
// buffer's in the other: a pattern of two variants, by warp parity. Refilling the near buffer
// alone with a third variant is then enough for the next sample, so its far (host) buffer is
// written once, not before every sample.
//
// Proven on real kernels by tests/gpu/test_logical_gpus.cpp: tail fills and kept buffers by
// EveryPeerTestcasePasses, the variants by warp parity by ACorruptedCopyIsCaught (split warp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/phase_times.h"
#include "plans/plan.h"

namespace nvbw::engine {

constexpr int kUnknown = -1;
// Variants 0 to 2 are what sources hold (0 is upstream's source pattern); kFillVariant is what a
// destination is filled with when it must differ from every source.
constexpr int kSourceVariants = 3;
constexpr int kFillVariant = 3;
constexpr int kVariants = 4;
std::uint32_t variantMask(int variant);

// A pattern: one variant in the 16-byte elements of even warps (32 elements to a warp, counted
// from the address the copy uses, as the split-warp kernel counts them) and one in those of odd
// warps. Patterns 0 to 3 are the uniform ones (the variant of that number everywhere); the
// others, up to kPatterns, hold two different variants.
constexpr int kPatterns = kVariants * (kVariants + 1);
constexpr std::size_t kWarpParityWords = 32 * 4;  // the parity changes every 128 words
int twoVariants(int evenWarps, int oddWarps);     // uniform where the two are the same
int variantOf(int pattern, bool oddWarp);
// The mask of word `word` (from the copy's address) of `pattern`: its variant's mask.
std::uint32_t patternMask(int pattern, std::size_t word);
// Whether two known patterns differ in every word.
bool differEverywhere(int a, int b);

// What a buffer holds from the address a copy uses: one pattern over [at, at + bytes), or
// nothing known. The pattern repeats from `at`, so any shorter region from `at` holds it too.
//
// `readByCpu`: the CPU compared (part of) this host buffer since a GPU last wrote it. On some
// hosts a GPU then reads it across the bus slower than a buffer the CPU never read (a fresh one,
// as upstream allocates); a GPU's write restores that. So a copy that reads such a buffer first
// has it written again in full, and reuse changes nothing measured (docs/memory-and-time.md).
struct BufferContent {
  int pattern = kUnknown;
  std::uint64_t at = 0;
  std::size_t bytes = 0;
  bool readByCpu = false;
  int over(std::uint64_t address, std::size_t length) const {
    return pattern != kUnknown && at == address && bytes >= length ? pattern : kUnknown;
  }
  void set(int p, std::uint64_t address, std::size_t length) {
    pattern = p;
    at = address;
    bytes = length;
    readByCpu = false;
  }
};

// How far a buffer is from the GPU that fills it: its own memory, another GPU's, host memory.
enum class Reach { Local, Peer, Host };

// A fill that completes a buffer known over less than a copy uses (a plain SM copy, which moves
// a truncated size, left what it wrote over that size only): the pattern it holds, written from
// the start of the 2 MiB pattern period in which its record ends to the end of the region. The
// head of that period is rewritten with what it already holds, so the fill needs no offset into
// the pattern.
struct TailFill {
  int pattern = kUnknown;  // kUnknown: none
  std::size_t from = 0;    // bytes from the copy's address; a multiple of the pattern period
};
TailFill completingFill(const BufferContent& held, std::uint64_t address, std::size_t length);

// What one copy's sample fills before it runs (a variant into the whole of its source or
// destination buffer, or a tail that completes what it holds), and what its check expects.
struct SampleFills {
  int source = kUnknown;       // kUnknown: no fill
  int destination = kUnknown;  // kUnknown: no fill
  TailFill sourceTail;         // only where the source is not filled in full
  TailFill destinationTail;    // likewise
  int expected = kUnknown;     // the pattern the checked buffers hold after a good copy
  bool resetSum = false;       // a read-only pass: its sum is zeroed
};

// The fills of a sample of a copy by `method`, whose source and destination hold `sourceHolds`
// and `destinationHolds` over the region it uses (kUnknown: not known).
SampleFills planSample(CopyMethod method, Reach source, Reach destination, int sourceHolds,
                       int destinationHolds);

// The same from the buffers' records (null: nothing known) of the `length` bytes a copy uses from
// each address: a record that reaches less far is completed by a tail fill first, unless the
// sample fills that buffer in full anyway; the source of a plain copy that the CPU read last
// (BufferContent::readByCpu) counts as holding nothing, so it is filled in full.
struct RecordedBuffer {
  const BufferContent* held = nullptr;
  std::uint64_t address = 0;
};
SampleFills planFromRecords(CopyMethod method, Reach source, Reach destination, RecordedBuffer src,
                            RecordedBuffer dst, std::size_t length);

// What the two buffers hold after the sample's copy went as `fills` expected (verified, or with
// verification off taken as done): the new patterns, kUnknown where nothing is known.
struct Holdings {
  int source = kUnknown;
  int destination = kUnknown;
};
Holdings afterCopy(CopyMethod method, const SampleFills& fills);

// Records what the buffers of a copy hold after a good sample (afterCopy, from each buffer's
// address over `length` bytes) and, with `verified`, which host buffers the CPU read to check
// them (the destination, and the source of a split-warp copy).
struct SampleBuffers {
  BufferContent* source = nullptr;  // null: not recorded
  std::uint64_t sourceAt = 0;
  bool sourceOnHost = false;
  BufferContent* destination = nullptr;
  std::uint64_t destinationAt = 0;
  bool destinationOnHost = false;
};
void recordSample(CopyMethod method, const SampleFills& fills, const SampleBuffers& buffers,
                  std::size_t length, bool verified);

// Adds the fills of one sample of a copy (`checkedBytes` in each buffer, which is host memory
// where it says so; a tail fill its own bytes) and, with `verify`, its checks to `counts`: one
// pass per kernel launch.
void countSample(CopyMethod method, bool sourceOnHost, bool destinationOnHost,
                 std::size_t checkedBytes, const SampleFills& fills, bool verify,
                 OperationCounts& counts);

}  // namespace nvbw::engine
