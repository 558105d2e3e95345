#include "plans/sm_geometry.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace nvbw {
namespace {

// A launch's grid.x must fit in a signed int (2^31 - 1). The simple shape reaches that only past
// 32 TiB, the write-only pass past 64 TiB, but a wrapped grid would silently copy the wrong amount,
// so refuse it.
unsigned checkedGrid(std::size_t grid, std::size_t bytes) {
  if (grid > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw std::length_error("SM copy of " + std::to_string(bytes) +
                            " bytes needs more blocks than one launch allows");
  return static_cast<unsigned>(grid);
}

// Upstream reports numUint4 * 16 bytes for the simple shape, but with grid = floor(n / block) only
// grid * block elements are copied (e.g. 1500 elements: one block of 1024). The bandwidth must be
// computed from the bytes actually moved, so `elements` is grid * block, and the region filled and
// verified (SmCopyGeometry::bytes) is exactly the region copied. The two agree whenever n <= 1024
// or n is a multiple of 1024, which covers every power-of-two size of 16 bytes or more.
SmCopyGeometry simpleGeometry(std::size_t bytes) {
  SmCopyGeometry g;
  const std::size_t n = bytes / kElementBytes;
  if (n == 0) return g;  // nothing to copy: grid 0, block 0, elements 0 (launchers skip it)
  g.block = static_cast<unsigned>(std::min<std::size_t>(n, kSimpleMaxThreadsPerBlock));
  g.grid = checkedGrid(n / g.block, bytes);
  g.elements = static_cast<std::size_t>(g.grid) * g.block;
  return g;
}

// The one striding shape every per-SM kernel uses: `blocksPerSm` blocks of `block` threads on
// each SM, striding over the whole buffer's 16-byte elements. `what` names the kernel in the error
// for an SM count that cannot be.
SmCopyGeometry perSmGeometry(const char* what, std::size_t bytes, int smCount, unsigned blocksPerSm,
                             unsigned block) {
  if (smCount <= 0)
    throw std::invalid_argument(std::string(what) + " geometry needs a positive SM count, got " +
                                std::to_string(smCount));
  SmCopyGeometry g;
  g.striding = true;
  g.grid = static_cast<unsigned>(smCount) * blocksPerSm;
  g.block = block;
  g.elements = bytes / kElementBytes;
  return g;
}

}  // namespace

SmCopyGeometry smCopyGeometry(std::size_t bytes, int smCount) {
  if (bytes < kSmallBufferThreshold) return simpleGeometry(bytes);
  SmCopyGeometry g = perSmGeometry("SM copy", bytes, smCount, 1, kStridingThreadsPerBlock);
  const std::size_t threads = static_cast<std::size_t>(g.grid) * g.block;
  g.elements = g.elements / threads * threads;
  return g;
}

SmCopyGeometry splitWarpGeometry(std::size_t bytes) { return simpleGeometry(bytes); }

SmCopyGeometry multicastGeometry(std::size_t bytes, int smCount) {
  return perSmGeometry("multicast", bytes, smCount, 1, kStridingThreadsPerBlock);
}

SmCopyGeometry tmaGeometry(std::size_t bytes, int smCount) {
  return perSmGeometry("TMA", bytes, smCount, 1, 32);
}

SmCopyGeometry localReadGeometry(std::size_t bytes, int smCount) {
  return perSmGeometry("local read", bytes, smCount, 4, kStridingThreadsPerBlock);
}

SmCopyGeometry localWriteGeometry(std::size_t bytes) {
  SmCopyGeometry g;
  g.elements = bytes / kElementBytes;
  g.block = kStridingThreadsPerBlock;
  g.grid = checkedGrid((g.elements + kWriteTileElements - 1) / kWriteTileElements, bytes);
  return g;
}

}  // namespace nvbw
