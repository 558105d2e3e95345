// Launch geometry of the SM copy kernels (pure arithmetic, unit-tested without a GPU).
#pragma once

#include <cstddef>

namespace nvbw {

constexpr std::size_t kSmallBufferThreshold = 64ull * 1048576;  // below: the simple kernel
constexpr unsigned kStridingThreadsPerBlock = 512;
constexpr unsigned kSimpleMaxThreadsPerBlock = 1024;
constexpr std::size_t kElementBytes = 16;  // one uint4

struct SmCopyGeometry {
  bool striding = false;  // striding kernel (>= 64 MiB) or simple kernel
  unsigned grid = 0;
  unsigned block = 0;
  std::size_t elements = 0;  // 16-byte elements actually copied per iteration
  // The bytes one iteration moves: what bandwidth is computed from, and the region the executor
  // fills and verifies. (Upstream reports n x 16 bytes for the simple shape even where
  // floor(n / block) blocks copy fewer; see sm_geometry.cpp.)
  std::size_t bytes() const { return elements * kElementBytes; }
};

// The plain SM copy: simple kernel under 64 MiB (one element per thread, block = min(n, 1024),
// grid = floor(n / block)), striding kernel otherwise (smCount x 512 threads, element count
// truncated to a multiple of the thread count).
SmCopyGeometry smCopyGeometry(std::size_t bytes, int smCount);

// The split-warp bidirectional kernel always uses the simple launch shape.
SmCopyGeometry splitWarpGeometry(std::size_t bytes);

// The TMA copy: one block (one issuing thread of a warp) per SM; 16-byte granularity.
SmCopyGeometry tmaGeometry(std::size_t bytes, int smCount);

// The read-only pass: 4 resident blocks of 512 threads per SM, taking tiles of 2 x 512 16-byte
// elements in turn.
SmCopyGeometry localReadGeometry(std::size_t bytes, int smCount);

// The write-only pass: one launch per pass, one block of 512 threads per tile of 4 x 512
// elements (the last tile may be partial), so the blocks sweep memory in order.
SmCopyGeometry localWriteGeometry(std::size_t bytes);
constexpr unsigned kWriteTileElements = 4 * kStridingThreadsPerBlock;

// The multicast kernel: smCount x 512 threads striding over the buffer, as the striding copy;
// its stores are 4-byte multimem stores, so every 16-byte element is four of them.
SmCopyGeometry multicastGeometry(std::size_t bytes, int smCount);

}  // namespace nvbw
