#include "engine/kernel_failure.h"

#include <sstream>
#include <utility>

namespace nvbw {
namespace {

std::string capabilityText(int cc) {
  return std::to_string(cc / 10) + "." + std::to_string(cc % 10);
}

// "900,1000" -> "9.0, 10.0": nvcc lists 10 * (10 * major + minor).
std::string capabilities(const std::string& archList) {
  std::istringstream list(archList);
  std::string arch;
  std::string text;
  while (std::getline(list, arch, ',')) {
    if (arch.size() < 2) continue;
    text += (text.empty() ? "" : ", ") + capabilityText(std::atoi(arch.c_str()) / 10);
  }
  return text;
}

// What the user can do about the error, "" where nothing.
std::string remedy(const KernelFailure& f) {
  const std::string gpu = f.device >= 0 ? "GPU " + std::to_string(f.device) : "this GPU";
  if (f.errorName == "cudaErrorNoKernelImageForDevice" ||
      f.errorName == "cudaErrorInvalidDeviceFunction") {
    std::string text = ": this build has no GPU code that " + gpu + " can run";
    const std::string built = capabilities(f.buildArchitectures);
    if (!built.empty()) text += " (it has code for compute capability " + built + ")";
    text += "; build it ";
    if (f.computeCapability > 0)
      text += "with -DCMAKE_CUDA_ARCHITECTURES=" + std::to_string(f.computeCapability) + ", or ";
    return text + "without -DCMAKE_CUDA_ARCHITECTURES for every architecture the toolkit supports";
  }
  if (f.errorName == "cudaErrorUnsupportedPtxVersion" ||
      f.errorName == "cudaErrorInsufficientDriver")
    return ": the NVIDIA driver is older than the CUDA toolkit this program was built with: "
           "update the driver, or build with the toolkit the driver supports";
  return "";
}

}  // namespace

std::string kernelRole(const std::string& kernel) {
  static const std::pair<const char*, const char*> roles[] = {
      {"simpleCopyKernel", "the SM copy kernel"},
      {"stridingCopyKernel", "the SM copy kernel"},
      {"splitWarpCopyKernel", "the SM bidirectional copy kernel"},
      {"spinKernel", "the kernel that holds the streams until every copy is queued"},
      {"fillPatternKernel", "the kernel that fills the buffers with the verification pattern"},
      {"checkPatternKernel", "the data verification kernel"},
      {"pointerChaseKernel", "the latency (pointer chase) kernel"},
      {"tmaPointerChaseKernel", "the TMA latency (pointer chase) kernel"},
      {"readOnlyKernel", "the local read kernel"},
      {"writeOnlyKernel", "the local write kernel"},
      {"tmaCopyKernel", "the TMA copy kernel"},
      {"multicastWriteKernel", "the multicast write kernel"},
  };
  for (const auto& [name, role] : roles)
    if (kernel == name) return role;
  return "the " + kernel + " kernel";
}

std::string kernelFailureMessage(const KernelFailure& f) {
  std::string text =
      kernelRole(f.kernel) + (f.loading ? " could not be loaded" : " could not start");
  if (f.device >= 0) {
    text += " on GPU " + std::to_string(f.device);
    if (f.computeCapability > 0)
      text += " (compute capability " + capabilityText(f.computeCapability) + ")";
  }
  text += ": " + f.errorName + " (" + f.errorText + ")";
  return text + remedy(f);
}

}  // namespace nvbw
