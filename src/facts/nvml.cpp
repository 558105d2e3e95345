#include "facts/nvml.h"

#include <dlfcn.h>

#include <array>
#include <utility>

#include "facts/nvml_api.h"

namespace nvbw {
namespace {

using namespace facts::nvml;

// The confidential-computing state (nvmlConfComputeSystemState_t) is three unsigned ints, the
// second one (ccFeature) 1 when on.
struct ConfComputeSystemState {
  unsigned environment;
  unsigned ccFeature;
  unsigned devToolsMode;
};

}  // namespace

int nvlinkVersionFromNvml(unsigned nvmlVersion) {
  // Indexed by nvmlNvlinkVersion_t: INVALID, 1.0, 2.0, 2.2, 3.0, 3.1, 4.0, 5.0, 6.0.
  constexpr std::array<int, 9> versions{0, 10, 20, 22, 30, 31, 40, 50, 60};
  return nvmlVersion < versions.size() ? versions[nvmlVersion] : 0;
}

std::optional<std::string> computeModeName(int nvmlComputeMode) {
  // Indexed by nvmlComputeMode_t.
  constexpr std::array<const char*, 4> names{"Default", "Exclusive_Thread", "Prohibited",
                                             "Exclusive_Process"};
  if (nvmlComputeMode < 0 || nvmlComputeMode >= static_cast<int>(names.size())) return std::nullopt;
  return names[static_cast<std::size_t>(nvmlComputeMode)];
}

std::optional<Nvml> Nvml::open(const std::string& libraryPath) {
  void* library = dlopen(libraryPath.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) return std::nullopt;
  const auto init = symbol<Return (*)()>(library, "nvmlInit_v2");
  if (!init || init() != kSuccess) {
    dlclose(library);
    return std::nullopt;
  }
  return Nvml(library);
}

Nvml::Nvml(void* library) : library_(library) {}

Nvml::Nvml(Nvml&& other) noexcept : library_(std::exchange(other.library_, nullptr)) {}

Nvml::~Nvml() {
  if (!library_) return;
  if (const auto shutdown = symbol<Return (*)()>(library_, "nvmlShutdown")) shutdown();
  dlclose(library_);
}

void* Nvml::device(const std::string& uuid) const {
  return query<Device>(library_, "nvmlDeviceGetHandleByUUID", uuid.c_str()).value_or(nullptr);
}

std::string Nvml::driverVersion() const {
  const auto version = symbol<Return (*)(char*, unsigned)>(library_, "nvmlSystemGetDriverVersion");
  char buf[96] = {};
  if (!version || version(buf, sizeof buf) != kSuccess) return "";
  return terminated(buf);
}

std::optional<bool> Nvml::confidentialComputing() const {
  const auto state = query<ConfComputeSystemState>(library_, "nvmlSystemGetConfComputeState");
  return state ? std::optional<bool>(state->ccFeature != 0) : std::nullopt;
}

std::optional<bool> Nvml::c2cEnabled(const std::string& uuid) const {
  const auto info = answer<C2cModeInfoV1>(library_, "nvmlDeviceGetC2cModeInfoV", device(uuid));
  return info ? std::optional<bool>(info->isC2cEnabled != 0) : std::nullopt;
}

std::string Nvml::busId(const std::string& uuid) const {
  const auto pci = answer<PciInfo>(library_, "nvmlDeviceGetPciInfo_v3", device(uuid));
  return pci ? terminated(pci->busId) : "";
}

}  // namespace nvbw
