// Inline PTX for bulk asynchronous copies (the Tensor Memory Accelerator) global -> shared with
// completion on an mbarrier, shared by the TMA copy kernel and the TMA pointer chase. Device code
// only, and only for compute capability 9.0 and later: callers guard their use with
// `__CUDA_ARCH__ >= 900` and trap elsewhere.
//
// Protocol of one load (single issuing thread, barrier initialised with an arrival count of 1):
// expectBytes() arrives on the barrier and adds the bytes the copy will deliver to its
// transaction count, bulkLoad() issues the copy, whose completion subtracts them; the phase then
// completes, and waitPhase(parity of that phase) returns with the copied bytes visible to the
// thread (try_wait has acquire semantics at CTA scope). Phases alternate parity 0, 1, 0, ...
#pragma once

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900

namespace nvbw::kernels::tma {

// Bulk copies move multiples of 16 bytes between 16-byte-aligned addresses.
constexpr unsigned kGranule = 16;

__device__ __forceinline__ unsigned sharedAddress(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// Initialises the barrier at `barrier` (a shared address) for one arrival per phase.
__device__ __forceinline__ void initBarrier(unsigned barrier) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(barrier) : "memory");
}

// Makes the barriers initialised so far visible to the async proxy that will complete their
// transactions; once, after the last initBarrier and before the first bulkLoad.
__device__ __forceinline__ void publishBarriers() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

__device__ __forceinline__ void expectBytes(unsigned barrier, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(barrier), "r"(bytes)
               : "memory");
}

// Copies `bytes` from global `src` to shared `stage`; completes `bytes` on `barrier`. A CTA's own
// shared address is a valid shared::cluster address (a launch without clusters is a cluster of
// one).
__device__ __forceinline__ void bulkLoad(unsigned stage, const void* src, unsigned bytes,
                                         unsigned barrier) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::
          "r"(stage),
      "l"(src), "r"(bytes), "r"(barrier)
      : "memory");
}

// Returns once the phase of `barrier` with parity `parity` has completed.
__device__ __forceinline__ void waitPhase(unsigned barrier, unsigned parity) {
  asm volatile("{\n"
               ".reg .pred done;\n"
               "WAIT_%=:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
               "@!done bra WAIT_%=;\n"
               "}\n" ::"r"(barrier),
               "r"(parity)
               : "memory");
}

}  // namespace nvbw::kernels::tma

#endif
