// Helpers shared by the kernel launchers (defined in copy_kernels.cu).
#pragma once

namespace nvbw::kernels::detail {

// Throws KernelError naming `kernel` if the last launch failed.
void throwIfLaunchFailed(const char* kernel);
// Forces the module holding `function` to load now (cudaFuncGetAttributes).
void preloadFunction(const void* function, const char* kernel);

}  // namespace nvbw::kernels::detail
