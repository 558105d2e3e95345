// The NVML half of a GPU's environment snapshot: clocks, power, temperature, modes and the time
// spent throttled. Each fact comes from one query (or a fallback pair) and is nullopt when that
// query is missing from this NVML or fails; nothing is defaulted.
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>

#include "facts/nvml.h"
#include "facts/nvml_api.h"

namespace nvbw {
namespace {

using namespace facts::nvml;

// The current half of a (device, T* current, T* pending) query: a pending change takes effect
// only after a reset, so it does not describe this run.
template <typename T> std::optional<T> currentMode(void* library, const char* name, Device device) {
  const auto query = symbol<Return (*)(Device, T*, T*)>(library, name);
  T current{}, pending{};
  if (!query || query(device, &current, &pending) != kSuccess) return std::nullopt;
  return current;
}

std::optional<double> milliwattsToWatts(std::optional<unsigned> mW) {
  return mW ? std::optional<double>(*mW / 1000.0) : std::nullopt;
}

// Application clocks away from their defaults in either domain (nvidia-smi -ac). A domain counts
// only when both of its queries answer; nullopt when neither domain does. Deprecated in NVML 13
// and to go in 14, when this becomes unknown.
std::optional<bool> applicationClocksChanged(void* library, Device device) {
  std::optional<bool> changed;
  for (const int domain : {kClockSm, kClockMem}) {
    const auto set = answer<unsigned>(library, "nvmlDeviceGetApplicationsClock", device, domain);
    const auto byDefault =
        answer<unsigned>(library, "nvmlDeviceGetDefaultApplicationsClock", device, domain);
    if (set && byDefault) changed = changed.value_or(false) || *set != *byDefault;
  }
  return changed;
}

// nvmlDeviceGetTemperatureV where this NVML has it; the older per-sensor call otherwise (it is
// deprecated in NVML 13 but still there, and the only one drivers before the V call have).
std::optional<int> gpuTemperature(void* library, Device device) {
  if (const auto v =
          symbol<Return (*)(Device, TemperatureV1*)>(library, "nvmlDeviceGetTemperatureV")) {
    TemperatureV1 t{kTemperatureV1Version, kTemperatureGpu, 0};
    if (v(device, &t) == kSuccess) return t.temperature;
  }
  const auto old = answer<unsigned>(library, "nvmlDeviceGetTemperature", device, kTemperatureGpu);
  if (!old) return std::nullopt;
  return static_cast<int>(*old);
}

// NOT_SUPPORTED (a GPU without MIG) stays unknown too: the query did not answer.
template <typename T> std::optional<bool> is(std::optional<T> mode, T enabled) {
  return mode ? std::optional<bool>(*mode == enabled) : std::nullopt;
}

// Power plus thermal violation time in ns, both cumulative since the driver loaded. Both or
// nothing: a sum missing one term would look like less throttling than there was.
// nvmlDeviceGetViolationStatus is deprecated in NVML 13 (to go in 14) but present.
std::optional<std::uint64_t> throttleNs(void* library, Device device) {
  const auto query =
      symbol<Return (*)(Device, int, ViolationTime*)>(library, "nvmlDeviceGetViolationStatus");
  if (!query) return std::nullopt;
  std::uint64_t total = 0;
  for (const int policy : {kPerfPolicyPower, kPerfPolicyThermal}) {
    ViolationTime time{};
    if (query(device, policy, &time) != kSuccess) return std::nullopt;
    total += time.violationTime;
  }
  return total;
}

}  // namespace

GpuEnvironment Nvml::environment(const std::string& uuid) const {
  GpuEnvironment env;
  Device device = this->device(uuid);
  if (!device) return env;
  void* const lib = library_;
  env.smClockMHz = answer<unsigned>(lib, "nvmlDeviceGetClockInfo", device, kClockSm);
  env.smClockMaxMHz = answer<unsigned>(lib, "nvmlDeviceGetMaxClockInfo", device, kClockSm);
  env.memoryClockMHz = answer<unsigned>(lib, "nvmlDeviceGetClockInfo", device, kClockMem);
  env.memoryClockMaxMHz = answer<unsigned>(lib, "nvmlDeviceGetMaxClockInfo", device, kClockMem);
  env.clocksLocked = applicationClocksChanged(lib, device);
  env.powerLimitW =
      milliwattsToWatts(answer<unsigned>(lib, "nvmlDeviceGetEnforcedPowerLimit", device));
  env.powerDrawW = milliwattsToWatts(answer<unsigned>(lib, "nvmlDeviceGetPowerUsage", device));
  env.temperatureC = gpuTemperature(lib, device);
  env.eccEnabled =
      is(currentMode<EnableState>(lib, "nvmlDeviceGetEccMode", device), kFeatureEnabled);
  env.persistenceMode =
      is(answer<EnableState>(lib, "nvmlDeviceGetPersistenceMode", device), kFeatureEnabled);
  env.migEnabled = is(currentMode<unsigned>(lib, "nvmlDeviceGetMigMode", device), kMigEnabled);
  if (const auto mode = answer<int>(lib, "nvmlDeviceGetComputeMode", device))
    env.computeMode = computeModeName(*mode);
  env.throttleNs = throttleNs(lib, device);
  return env;
}

}  // namespace nvbw
