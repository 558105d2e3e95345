// Helpers shared by the kernel launchers (the functions defined in copy_kernels.cu).
#pragma once

namespace nvbw::kernels::detail {

// Throws KernelError naming `kernel` if the last launch failed.
void throwIfLaunchFailed(const char* kernel);
// Forces the module holding `function` to load now (cudaFuncGetAttributes).
void preloadFunction(const void* function, const char* kernel);

}  // namespace nvbw::kernels::detail

// Launches `kernel` on the CUstream `stream`, then throws KernelError naming it if the launch
// failed: the name in the error is always the kernel's.
#define NVBW_LAUNCH(kernel, grid, block, sharedBytes, stream, ...)                                 \
  do {                                                                                             \
    kernel<<<(grid), (block), (sharedBytes), reinterpret_cast<cudaStream_t>(stream)>>>(            \
        __VA_ARGS__);                                                                              \
    ::nvbw::kernels::detail::throwIfLaunchFailed(#kernel);                                         \
  } while (false)
