// NVML, loaded at run time where it is installed (never linked): the tool works without it, and
// what only NVML can say is then unknown rather than guessed. A function this driver's NVML lacks
// makes its fact unknown too, so older drivers degrade fact by fact.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "facts/environment.h"
#include "platform/link_facts.h"

namespace nvbw {

// NVML's nvmlNvlinkVersion_t as NvlinkLink::version (major.minor x 10): 1 -> 10, 2 -> 20,
// 3 -> 22, 4 -> 30, 5 -> 31, 6 -> 40, 7 -> 50, 8 -> 60; 0 (unknown) for INVALID and for values
// newer than this code.
int nvlinkVersionFromNvml(unsigned nvmlVersion);

// nvmlComputeMode_t by name ("Default", "Exclusive_Thread", "Prohibited", "Exclusive_Process");
// nullopt for a value this code does not know.
std::optional<std::string> computeModeName(int nvmlComputeMode);

// One nvmlInit_v2 .. nvmlShutdown session. GPUs are named by UUID ("GPU-xxxxxxxx-...", as
// cuDeviceGetUuid and nvmlDeviceGetHandleByUUID spell it); a UUID NVML does not know gives the
// same answers as a query NVML cannot answer.
class Nvml {
 public:
  // nullopt when the library (tests load a fake one) is missing or nvmlInit fails.
  static std::optional<Nvml> open(const std::string& libraryPath = "libnvidia-ml.so.1");
  Nvml(Nvml&& other) noexcept;  // no copies: one session
  Nvml& operator=(Nvml&&) = delete;
  ~Nvml();

  // nvmlSystemGetDriverVersion; "" when it fails.
  std::string driverVersion() const;
  // nvmlSystemGetConfComputeState's ccFeature; nullopt when this NVML cannot say (too old, or
  // the query is not supported).
  std::optional<bool> confidentialComputing() const;

  // The GPU's active NVLinks, in link order (details NVML cannot read unknown): empty when it has
  // none, nullopt when NVML cannot say (nvml_links.cpp reads its answers).
  std::optional<std::vector<NvlinkLink>> nvlinks(const std::string& uuid) const;
  // nvmlDeviceGetC2cModeInfoV (Grace Hopper/Blackwell chip-to-chip link); nullopt when unsupported.
  std::optional<bool> c2cEnabled(const std::string& uuid) const;
  // The GPU's PCI bus id in NVML's spelling ("00000000:9B:00.0"); "" when unknown.
  std::string busId(const std::string& uuid) const;
  // The NVML facts of the GPU's environment (clocks, power, temperature, modes, throttle time),
  // each nullopt where its query fails; the facts from sysfs (pcie, numaNode, hostBufferCpus)
  // are left for the caller.
  GpuEnvironment environment(const std::string& uuid) const;

 private:
  explicit Nvml(void* library);
  // The nvmlDevice_t of a UUID; nullptr when NVML does not know it.
  void* device(const std::string& uuid) const;
  void* library_;
};

}  // namespace nvbw
