#include "nvbandwidth/nvml.h"

#include <dlfcn.h>

#include <array>
#include <utility>

namespace nvbw {
namespace {

// The NVML facts used here (nvml.h is not needed to build): return codes are 0 on success, and
// the confidential-computing state is three unsigned ints, the second one (ccFeature) 1 when on.
struct ConfComputeSystemState {
  unsigned environment;
  unsigned ccFeature;
  unsigned devToolsMode;
};

template <typename Fn>
Fn symbol(void* library, const char* name) {
  return reinterpret_cast<Fn>(dlsym(library, name));
}

}  // namespace

std::optional<Nvml> Nvml::open() {
  void* library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) return std::nullopt;
  const auto init = symbol<int (*)()>(library, "nvmlInit_v2");
  if (!init || init() != 0) {
    dlclose(library);
    return std::nullopt;
  }
  return Nvml(library);
}

Nvml::Nvml(void* library) : library_(library) {}

Nvml::Nvml(Nvml&& other) noexcept : library_(std::exchange(other.library_, nullptr)) {}

Nvml::~Nvml() {
  if (!library_) return;
  if (const auto shutdown = symbol<int (*)()>(library_, "nvmlShutdown")) shutdown();
  dlclose(library_);
}

std::string Nvml::driverVersion() const {
  const auto version = symbol<int (*)(char*, unsigned)>(library_, "nvmlSystemGetDriverVersion");
  std::array<char, 96> buf{};
  if (!version || version(buf.data(), static_cast<unsigned>(buf.size())) != 0) return "";
  return buf.data();
}

std::optional<bool> Nvml::confidentialComputing() const {
  const auto state =
      symbol<int (*)(ConfComputeSystemState*)>(library_, "nvmlSystemGetConfComputeState");
  ConfComputeSystemState s{};
  if (!state || state(&s) != 0) return std::nullopt;
  return s.ccFeature != 0;
}

}  // namespace nvbw
