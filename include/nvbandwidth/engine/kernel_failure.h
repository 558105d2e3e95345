// A kernel of this build that could not be loaded or launched, said in the user's terms: which
// part of the measurement it is, on which GPU, the CUDA runtime's error name, and what to do
// where something can be done (a build without code for the GPU's architecture, a driver older
// than the toolkit). The kernel's name in the source and where it failed are the detail.
#pragma once

#include <string>

namespace nvbw {

struct KernelFailure {
  std::string kernel;         // the kernel's name in the source: "stridingCopyKernel"
  bool loading = false;       // loading its module (start of the run) rather than a launch
  int device = -1;            // the CUDA device current at the failure; -1: not known
  int computeCapability = 0;  // that GPU's, as 10 * major + minor; 0: not known
  std::string errorName;      // "cudaErrorNoKernelImageForDevice"
  std::string errorText;      // "no kernel image is available for execution on the device"
  // The architectures this build has GPU code for, as nvcc's __CUDA_ARCH_LIST__: "900" or
  // "800,900"; empty when not known.
  std::string buildArchitectures;
};

std::string kernelFailureMessage(const KernelFailure& failure);

// What the part of the measurement a kernel does is called: "the SM copy kernel".
std::string kernelRole(const std::string& kernel);

}  // namespace nvbw
