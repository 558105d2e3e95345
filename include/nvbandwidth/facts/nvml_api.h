// The slice of the NVML C API that nvbandwidth calls, declared here from the facts of NVML's
// reference header (constants, struct layouts, signatures), so that building needs neither
// nvml.h nor libnvidia-ml: every entry point is looked up with dlsym at run time. Private to the
// NVML wrapper (src/facts/nvml*.cpp) and the fake library of its tests.
//
// ABI notes: NVML's C enums (nvmlReturn_t, nvmlEnableState_t, nvmlClockType_t, ...) are int-sized
// on every Linux ABI NVML ships for, so they are passed as int here; nvmlDevice_t is an opaque
// pointer. The static_asserts pin the layouts the reference header gives on LP64.
#pragma once

#include <dlfcn.h>

#include <cstddef>
#include <cstring>
#include <optional>
#include <string>

namespace nvbw::facts::nvml {

using Return = int;       // nvmlReturn_t
using Device = void*;     // nvmlDevice_t
using EnableState = int;  // nvmlEnableState_t

constexpr Return kSuccess = 0;               // NVML_SUCCESS
constexpr Return kErrorInvalidArgument = 2;  // NVML_ERROR_INVALID_ARGUMENT
constexpr Return kErrorNotSupported = 3;     // NVML_ERROR_NOT_SUPPORTED

constexpr EnableState kFeatureEnabled = 1;  // NVML_FEATURE_ENABLED (DISABLED is 0)
constexpr unsigned kMigEnabled = 1;         // NVML_DEVICE_MIG_ENABLE

constexpr int kClockSm = 1;            // NVML_CLOCK_SM (nvmlClockType_t)
constexpr int kClockMem = 2;           // NVML_CLOCK_MEM
constexpr int kTemperatureGpu = 0;     // NVML_TEMPERATURE_GPU (nvmlTemperatureSensors_t)
constexpr int kPerfPolicyPower = 0;    // NVML_PERF_POLICY_POWER (nvmlPerfPolicyType_t)
constexpr int kPerfPolicyThermal = 1;  // NVML_PERF_POLICY_THERMAL

// NVML_NVLINK_MAX_LINKS of the current header; older drivers know fewer links and answer
// NVML_ERROR_INVALID_ARGUMENT past their own limit.
constexpr unsigned kNvlinkMaxLinks = 36;

// nvmlIntNvLinkDeviceType_t
constexpr int kNvlinkDeviceGpu = 0x00;
constexpr int kNvlinkDeviceSwitch = 0x02;

// Field ids (NVML_FI_*). Both speeds are in MBps (10^6 bytes/s), one direction of one link.
constexpr unsigned kFieldNvlinkSpeedCommon = 90;  // NVML_FI_DEV_NVLINK_SPEED_MBPS_COMMON
constexpr unsigned kFieldNvlinkGetSpeed = 164;    // NVML_FI_DEV_NVLINK_GET_SPEED, scopeId = link

// nvmlValueType_t
constexpr int kValueDouble = 0;
constexpr int kValueUnsignedInt = 1;
constexpr int kValueUnsignedLong = 2;
constexpr int kValueUnsignedLongLong = 3;
constexpr int kValueSignedLongLong = 4;
constexpr int kValueSignedInt = 5;
constexpr int kValueUnsignedShort = 6;

// nvmlPciInfo_t (what nvmlDeviceGetPciInfo_v3 and nvmlDeviceGetNvLinkRemotePciInfo_v2 fill).
struct PciInfo {
  char busIdLegacy[16];  // NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE
  unsigned domain;
  unsigned bus;
  unsigned device;
  unsigned pciDeviceId;
  unsigned pciSubSystemId;
  char busId[32];  // NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE: "00000000:9B:00.0", NUL-terminated
};
static_assert(sizeof(PciInfo) == 68 && offsetof(PciInfo, busId) == 36);

// nvmlValue_t
union Value {
  double dVal;
  int siVal;
  unsigned uiVal;
  unsigned long ulVal;
  unsigned long long ullVal;
  long long sllVal;
  unsigned short usVal;
};

// nvmlFieldValue_t: fieldId and scopeId are inputs; value is only meaningful when nvmlReturn is
// NVML_SUCCESS, and its member is chosen by valueType.
struct FieldValue {
  unsigned fieldId;
  unsigned scopeId;
  long long timestamp;  // µs since 1970
  long long latencyUsec;
  int valueType;  // nvmlValueType_t
  Return nvmlReturn;
  Value value;
};
static_assert(sizeof(FieldValue) == 40 && offsetof(FieldValue, valueType) == 24 &&
              offsetof(FieldValue, nvmlReturn) == 28 && offsetof(FieldValue, value) == 32);

// nvmlViolationTime_t
struct ViolationTime {
  unsigned long long referenceTime;  // CPU timestamp, µs
  unsigned long long violationTime;  // ns
};

// nvmlTemperature_v1_t; its version field is NVML_STRUCT_VERSION(Temperature, 1), the struct's
// size with the version number in the top byte.
struct TemperatureV1 {
  unsigned version;
  int sensorType;   // nvmlTemperatureSensors_t
  int temperature;  // °C
};
constexpr unsigned kTemperatureV1Version = sizeof(TemperatureV1) | (1u << 24);

// nvmlC2cModeInfo_v1_t: a single member and, unlike most versioned NVML structs, no version
// field to fill in (the header's nvmlC2cModeInfo_v1 macro exists but nothing in the struct holds
// it).
struct C2cModeInfoV1 {
  unsigned isC2cEnabled;
};

// A function of the loaded library, or nullptr when this NVML does not have it (older driver)
// or there is no library (a moved-from Nvml: dlsym(nullptr, ...) would search the whole process).
template <typename Fn> Fn symbol(void* library, const char* name) {
  return library ? reinterpret_cast<Fn>(dlsym(library, name)) : nullptr;
}

// What the query `name`, of the shape (inputs..., T* out), answers; nullopt when this NVML lacks
// it or the query fails.
template <typename T, typename... In>
std::optional<T> query(void* library, const char* name, In... in) {
  const auto function = symbol<Return (*)(In..., T*)>(library, name);
  T value{};
  if (!function || function(in..., &value) != kSuccess) return std::nullopt;
  return value;
}

// The same of a device's query (device, inputs..., T* out); nullopt too when there is no device.
template <typename T, typename... In>
std::optional<T> answer(void* library, const char* name, Device device, In... in) {
  return device ? query<T, Device, In...>(library, name, device, in...) : std::nullopt;
}

// A NUL-terminated NVML string buffer as a string; never reads past the buffer, even when NVML
// filled it to the brim.
template <std::size_t N> std::string terminated(const char (&buf)[N]) {
  return std::string(buf, strnlen(buf, N));
}

// A field value as a number whatever its valueType; nullopt for a type this code does not know.
inline std::optional<double> fieldAsDouble(const FieldValue& v) {
  switch (v.valueType) {
  case kValueDouble:
    return v.value.dVal;
  case kValueUnsignedInt:
    return static_cast<double>(v.value.uiVal);
  case kValueUnsignedLong:
    return static_cast<double>(v.value.ulVal);
  case kValueUnsignedLongLong:
    return static_cast<double>(v.value.ullVal);
  case kValueSignedLongLong:
    return static_cast<double>(v.value.sllVal);
  case kValueSignedInt:
    return static_cast<double>(v.value.siVal);
  case kValueUnsignedShort:
    return static_cast<double>(v.value.usVal);
  default:
    return std::nullopt;
  }
}

}  // namespace nvbw::facts::nvml
