// Kernels that cannot be loaded or launched, and peer access that cannot be enabled, as a user
// reads them: which part of the measurement, on which GPU, the error's name, and what to do.
#include <gtest/gtest.h>

#include <string>

#include "engine/kernel_failure.h"
#include "platform/gpu.h"

namespace nvbw {
namespace test_kernel_failure {

KernelFailure noImage() {
  KernelFailure f;
  f.kernel = "stridingCopyKernel";
  f.device = 2;
  f.computeCapability = 80;
  f.errorName = "cudaErrorNoKernelImageForDevice";
  f.errorText = "no kernel image is available for execution on the device";
  f.buildArchitectures = "900";
  return f;
}

TEST(KernelFailure, ABuildWithoutCodeForTheGpuSaysHowToBuildOne) {
  EXPECT_EQ(kernelFailureMessage(noImage()),
            "the SM copy kernel could not start on GPU 2 (compute capability 8.0): "
            "cudaErrorNoKernelImageForDevice (no kernel image is available for execution on the "
            "device): this build has no GPU code that GPU 2 can run (it has code for compute "
            "capability 9.0); build it with -DCMAKE_CUDA_ARCHITECTURES=80, or without "
            "-DCMAKE_CUDA_ARCHITECTURES for every architecture the toolkit supports");
}

TEST(KernelFailure, LoadingAtTheStartAndSeveralArchitectures) {
  KernelFailure f = noImage();
  f.loading = true;
  f.kernel = "checkPatternKernel";
  f.buildArchitectures = "900,1000";
  const std::string text = kernelFailureMessage(f);
  EXPECT_EQ(text.rfind("the data verification kernel could not be loaded on GPU 2", 0), 0u) << text;
  EXPECT_NE(text.find("(it has code for compute capability 9.0, 10.0)"), std::string::npos);
}

TEST(KernelFailure, AnOldDriverSaysToUpdateIt) {
  KernelFailure f = noImage();
  f.errorName = "cudaErrorUnsupportedPtxVersion";
  f.errorText = "the provided PTX was compiled with an unsupported toolchain.";
  EXPECT_NE(kernelFailureMessage(f).find("the NVIDIA driver is older than the CUDA toolkit"),
            std::string::npos);
}

TEST(KernelFailure, OtherErrorsKeepTheNameAndAddNoAdvice) {
  KernelFailure f = noImage();
  f.device = -1;
  f.computeCapability = 0;
  f.kernel = "someNewKernel";
  f.errorName = "cudaErrorLaunchOutOfResources";
  f.errorText = "too many resources requested for launch";
  EXPECT_EQ(kernelFailureMessage(f), "the someNewKernel kernel could not start: "
                                     "cudaErrorLaunchOutOfResources (too many resources "
                                     "requested for launch)");
}

TEST(KernelFailure, EveryKernelOfTheBuildHasARole) {
  for (const char* kernel :
       {"simpleCopyKernel", "stridingCopyKernel", "splitWarpCopyKernel", "spinKernel",
        "fillPatternKernel", "checkPatternKernel", "pointerChaseKernel", "tmaPointerChaseKernel",
        "readOnlyKernel", "writeOnlyKernel", "tmaCopyKernel", "multicastWriteKernel"})
    EXPECT_EQ(kernelRole(kernel).find(kernel), std::string::npos) << kernel;
}

TEST(PeerAccessFailure, NamesBothGpusTheErrorAndWhatToDo) {
  EXPECT_EQ(peerAccessFailureMessage(0, 1, CUDA_ERROR_PEER_ACCESS_UNSUPPORTED,
                                     "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED (peer access is not "
                                     "supported between these two devices)"),
            "cannot enable peer access from GPU 0 to GPU 1 (cuCtxEnablePeerAccess: "
            "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED (peer access is not supported between these two "
            "devices)): the driver does not allow access between these GPUs (nvidia-smi topo -p2p "
            "r shows the pairs it allows)");
  EXPECT_NE(peerAccessFailureMessage(3, 9, CUDA_ERROR_TOO_MANY_PEERS, "CUDA_ERROR_TOO_MANY_PEERS")
                .find("--pair A B measures one pair"),
            std::string::npos);
  EXPECT_NE(peerAccessFailureMessage(3, 9, CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN (unknown error)")
                .find("nvidia-smi topo -p2p r shows the GPU pairs the driver allows"),
            std::string::npos);
}

}  // namespace test_kernel_failure
}  // namespace nvbw
