// Host-side launchers for the device kernels (kernels/*.cu). Every launcher enqueues on `stream`
// in the current context and throws KernelError if the launch fails. None synchronizes,
// except where it says so.
#pragma once

#include <cuda.h>

#include <cstddef>

#include "core/error.h"
#include "plans/sm_geometry.h"

namespace nvbw::kernels {

// Loads every kernel's module into the current context. Under lazy loading (the default since
// CUDA 12.2) the first launch of a kernel loads its module, which may wait for the work already
// running in the context; if that work is a spin kernel holding a stream until the host has
// queued the sample, the two wait on each other until the spin timeout.
void preload();

// <<<1,1>>> kernel that spins until *flag != 0 or `timeoutClocks` device clocks have passed; on
// timeout it writes 1 to *timedOut. Both pointers are device-accessible (mapped host memory).
void spin(CUstream stream, const volatile int* flag, int* timedOut,
          unsigned long long timeoutClocks);

// One launch that copies `geometry.bytes()` from src to dst `loops` times (simple or striding
// kernel as the geometry says).
void copy(CUstream stream, CUdeviceptr dst, CUdeviceptr src, const SmCopyGeometry& geometry,
          unsigned long long loops);

// One launch of the split-warp kernel: odd warps copy src -> dst, even warps dst -> src.
void splitWarpCopy(CUstream stream, CUdeviceptr dst, CUdeviceptr src,
                   const SmCopyGeometry& geometry, unsigned long long loops);

// Multicast write: every thread of `geometry`'s grid stores 4-byte words of src into the multicast
// object at `multicastDst` with multimem.st (each store reaches every GPU that backs it), striding
// by the thread count, `loops` times. Needs compute capability 9.0; elsewhere the kernel traps.
void multicastWrite(CUstream stream, CUdeviceptr multicastDst, CUdeviceptr src,
                    const SmCopyGeometry& geometry, unsigned long long loops);

// Read-only pass: reads geometry.bytes() of src `loops` times and adds the sum of every 32-bit word
// read (mod 2^64) to *sum (in the GPU's memory, zeroed by the caller; geometry from
// localReadGeometry).
void readOnly(CUstream stream, CUdeviceptr src, const SmCopyGeometry& geometry,
              unsigned long long loops, unsigned long long* sum);

// Write-only pass: stores `value` into every 32-bit word of geometry.bytes() of dst, `loops` times
// (one launch each; geometry from localWriteGeometry).
void writeOnly(CUstream stream, CUdeviceptr dst, const SmCopyGeometry& geometry,
               unsigned long long loops, unsigned value);

// TMA copy: geometry.bytes() from src to dst through shared memory with bulk asynchronous copies,
// one block per SM (geometry.grid), `loops` times. Compute capability 9.0 and later.
void tmaCopy(CUstream stream, CUdeviceptr dst, CUdeviceptr src, const SmCopyGeometry& geometry,
             unsigned long long loops);

// buf[i] = pattern[i mod kPatternWords] for i < bytes / 4. `pattern` is a 2 MiB device buffer.
void fillPattern(CUstream stream, CUdeviceptr buf, std::size_t bytes, CUdeviceptr pattern);

// Result of a pattern check, written to mapped host memory by checkPattern.
struct CheckResult {
  unsigned long long mismatches;   // number of 32-bit words that differ
  unsigned long long firstOffset;  // word index of the first mismatch (~0ull when none)
};

// Compares buf[0 .. bytes/4) with the pattern; accumulates into *result (device-accessible).
// The caller zeroes mismatches and sets firstOffset to ~0ull beforehand.
void checkPattern(CUstream stream, CUdeviceptr buf, std::size_t bytes, CUdeviceptr pattern,
                  CheckResult* result);

// Pointer chase: launches `blocks` blocks of one thread; only block `activeBlock` follows
// `accesses` pointers starting at `start`, and stores the final pointer to *sink.
void pointerChase(CUstream stream, CUdeviceptr start, unsigned blocks, unsigned activeBlock,
                  unsigned long long accesses, unsigned long long* sink);

// The same chase with each access a 16-byte bulk copy (TMA) of the node into shared memory,
// completed on an mbarrier, the next address then read from shared memory. `start` must be
// 16-byte aligned, and so must every node the chain visits. Compute capability 9.0 and later;
// elsewhere the kernel traps.
void tmaPointerChase(CUstream stream, CUdeviceptr start, unsigned blocks, unsigned activeBlock,
                     unsigned long long accesses, unsigned long long* sink);

}  // namespace nvbw::kernels
