// A fake libnvidia-ml for test_nvml: two H200s of an HGX board joined by 18 NVLink 4 links, so a
// machine without a GPU can drive every answer the NVML wrapper reads. Built twice from this
// file: libfakenvml.so exports everything below, libfakenvml_minimal.so (FAKE_NVML_MINIMAL) only
// nvmlInit_v2, nvmlShutdown and nvmlDeviceGetHandleByUUID, as an NVML too old for the rest.
//
// The environment variable FAKE_NVML_MODE, read on every call, picks the answers:
//   (unset)       the full, healthy machine; links 18..35 answer NOT_SUPPORTED
//   no-nvlink     every NVLink query answers NOT_SUPPORTED (a PCIe-only GPU)
//   nvlink-error  nvmlDeviceGetNvLinkState answers UNKNOWN
//   link-down     link 7 of GPU A is inactive
//   old-driver    links 18.. answer INVALID_ARGUMENT; the per-link speed field and
//                 nvmlDeviceGetTemperatureV are unknown to it, the fallbacks (the common speed
//                 field, which no other mode answers, and nvmlDeviceGetTemperature) answer
//   env-fail      memory clocks, application clocks, power draw, temperature, ECC, MIG and the
//                 thermal violation counter fail; the compute mode is a value NVML never defined
//   c2c           C2C mode is on
//   init-fails    nvmlInit_v2 fails
// Any other value makes nvmlInit_v2 fail and says why on stderr, so a test with a misspelt mode
// cannot pass by accident.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "facts/nvml_api.h"

using namespace nvbw::facts::nvml;

// The failures only the fake answers with (the wrapper reads any failure as "unknown").
constexpr Return kErrorNotFound = 6;           // NVML_ERROR_NOT_FOUND
constexpr Return kErrorFunctionNotFound = 13;  // NVML_ERROR_FUNCTION_NOT_FOUND
constexpr Return kErrorUnknown = 999;          // NVML_ERROR_UNKNOWN

constexpr int kComputeModeDefault = 0;           // NVML_COMPUTEMODE_DEFAULT
constexpr int kComputeModeExclusiveProcess = 3;  // NVML_COMPUTEMODE_EXCLUSIVE_PROCESS

namespace {

enum class Mode { Full, NoNvlink, NvlinkError, LinkDown, OldDriver, EnvFail, C2c, InitFails, Bad };

Mode mode() {
  const char* value = std::getenv("FAKE_NVML_MODE");
  if (!value || !*value) return Mode::Full;
  const struct {
    const char* name;
    Mode mode;
  } modes[] = {{"no-nvlink", Mode::NoNvlink},  {"nvlink-error", Mode::NvlinkError},
               {"link-down", Mode::LinkDown},  {"old-driver", Mode::OldDriver},
               {"env-fail", Mode::EnvFail},    {"c2c", Mode::C2c},
               {"init-fails", Mode::InitFails}};
  for (const auto& m : modes)
    if (std::strcmp(value, m.name) == 0) return m.mode;
  return Mode::Bad;
}

struct FakeGpu {
  const char* uuid;
  const char* busId;
  unsigned bus;
  int peer;                // index of the GPU at the far end of every link
  unsigned appSmClockMHz;  // GPU B's application clocks were set below the default
  int computeMode;
};

constexpr unsigned kLinks = 18;  // an H100/H200 SXM's NVLink 4 links
constexpr unsigned kLinkMBps = 26562;
constexpr unsigned kSmClockMHz = 1980, kMemClockMHz = 3201;

const FakeGpu gpus[2] = {
    {"GPU-aaaaaaaa-1111-2222-3333-444444444444", "00000000:19:00.0", 0x19, 1, kSmClockMHz,
     kComputeModeDefault},
    {"GPU-bbbbbbbb-1111-2222-3333-444444444444", "00000000:3B:00.0", 0x3B, 0, 1755,
     kComputeModeExclusiveProcess},
};

int openSessions = 0;  // nvmlInit_v2 calls not yet matched by nvmlShutdown

}  // namespace

#define FAKE_EXPORT extern "C" __attribute__((visibility("default")))

FAKE_EXPORT Return nvmlInit_v2() {
  if (mode() == Mode::Bad) {
    std::fprintf(stderr, "fake NVML: unknown FAKE_NVML_MODE '%s'\n", std::getenv("FAKE_NVML_MODE"));
    return kErrorUnknown;
  }
  if (mode() == Mode::InitFails) return kErrorUnknown;
  ++openSessions;
  return kSuccess;
}

FAKE_EXPORT Return nvmlShutdown() {
  --openSessions;
  return kSuccess;
}

FAKE_EXPORT Return nvmlDeviceGetHandleByUUID(const char* uuid, Device* device) {
  if (!uuid || !device) return kErrorInvalidArgument;
  for (const FakeGpu& g : gpus) {
    if (std::strcmp(uuid, g.uuid) != 0) continue;
    *device = const_cast<FakeGpu*>(&g);
    return kSuccess;
  }
  return kErrorNotFound;
}

#ifndef FAKE_NVML_MINIMAL

namespace {

const FakeGpu* gpuOf(Device device) {
  for (const FakeGpu& g : gpus)
    if (device == &g) return &g;
  return nullptr;
}

void fillPci(const FakeGpu& g, PciInfo* pci) {
  *pci = PciInfo{};
  std::snprintf(pci->busIdLegacy, sizeof pci->busIdLegacy, "0000:%02X:00.0", g.bus);
  std::snprintf(pci->busId, sizeof pci->busId, "%s", g.busId);
  pci->bus = g.bus;
  pci->pciDeviceId = 0x233510DE;  // H200 SXM
}

}  // namespace

// For the tests: how many sessions are open, so they can check that Nvml shuts down what it opened.
FAKE_EXPORT int fakeNvmlOpenSessions() { return openSessions; }

FAKE_EXPORT Return nvmlSystemGetDriverVersion(char* version, unsigned length) {
  std::snprintf(version, length, "%s", "570.124.06");
  return kSuccess;
}

// ---- NVLink ----

namespace {

// The answer every per-link query shares: whether this device and link exist.
Return linkCheck(Device device, unsigned link) {
  if (!gpuOf(device)) return kErrorInvalidArgument;
  if (mode() == Mode::NoNvlink) return kErrorNotSupported;
  if (link >= kNvlinkMaxLinks) return kErrorInvalidArgument;
  if (link >= kLinks) return mode() == Mode::OldDriver ? kErrorInvalidArgument : kErrorNotSupported;
  return kSuccess;
}

}  // namespace

FAKE_EXPORT Return nvmlDeviceGetNvLinkState(Device device, unsigned link, EnableState* active) {
  if (mode() == Mode::NvlinkError) return kErrorUnknown;
  if (const Return rc = linkCheck(device, link); rc != kSuccess) return rc;
  *active = (mode() == Mode::LinkDown && device == &gpus[0] && link == 7) ? 0 : kFeatureEnabled;
  return kSuccess;
}

FAKE_EXPORT Return nvmlDeviceGetNvLinkVersion(Device device, unsigned link, unsigned* version) {
  if (const Return rc = linkCheck(device, link); rc != kSuccess) return rc;
  *version = 6;  // NVML_NVLINK_VERSION_4_0
  return kSuccess;
}

FAKE_EXPORT Return nvmlDeviceGetNvLinkRemoteDeviceType(Device device, unsigned link, int* type) {
  if (const Return rc = linkCheck(device, link); rc != kSuccess) return rc;
  *type = kNvlinkDeviceGpu;
  return kSuccess;
}

FAKE_EXPORT Return nvmlDeviceGetNvLinkRemotePciInfo_v2(Device device, unsigned link, PciInfo* pci) {
  if (const Return rc = linkCheck(device, link); rc != kSuccess) return rc;
  fillPci(gpus[gpuOf(device)->peer], pci);
  return kSuccess;
}

namespace {

// A current driver answers the per-link speed field (as an unsigned int), the old one only the
// field common to all links (as an unsigned long long): each mode shows which field was read,
// and both union members are exercised.
void fillField(Device device, FieldValue& v) {
  v.timestamp = 1700000000000000LL;
  v.latencyUsec = 3;
  const bool perLink = v.fieldId == kFieldNvlinkGetSpeed && mode() != Mode::OldDriver;
  if (perLink && linkCheck(device, v.scopeId) == kSuccess) {
    v.valueType = kValueUnsignedInt;
    v.value.uiVal = kLinkMBps;
    v.nvmlReturn = kSuccess;
  } else if (v.fieldId == kFieldNvlinkSpeedCommon && mode() == Mode::OldDriver) {
    v.valueType = kValueUnsignedLongLong;
    v.value.ullVal = kLinkMBps;
    v.nvmlReturn = kSuccess;
  } else {
    v.nvmlReturn = kErrorNotSupported;
  }
}

}  // namespace

FAKE_EXPORT Return nvmlDeviceGetFieldValues(Device device, int count, FieldValue* values) {
  if (!gpuOf(device) || !values) return kErrorInvalidArgument;
  for (int i = 0; i < count; ++i) fillField(device, values[i]);
  return kSuccess;
}

// ---- PCI and C2C ----

FAKE_EXPORT Return nvmlDeviceGetPciInfo_v3(Device device, PciInfo* pci) {
  const FakeGpu* g = gpuOf(device);
  if (!g) return kErrorInvalidArgument;
  fillPci(*g, pci);
  return kSuccess;
}

FAKE_EXPORT Return nvmlDeviceGetC2cModeInfoV(Device device, C2cModeInfoV1* info) {
  if (!gpuOf(device)) return kErrorInvalidArgument;
  if (mode() != Mode::C2c) return kErrorNotSupported;
  info->isC2cEnabled = 1;
  return kSuccess;
}

// ---- Environment ----

FAKE_EXPORT Return nvmlDeviceGetClockInfo(Device device, int type, unsigned* mhz) {
  if (!gpuOf(device)) return kErrorInvalidArgument;
  if (type != kClockSm && type != kClockMem) return kErrorInvalidArgument;
  if (type == kClockMem && mode() == Mode::EnvFail) return kErrorNotSupported;
  *mhz = type == kClockSm ? kSmClockMHz : kMemClockMHz;
  return kSuccess;
}

FAKE_EXPORT Return nvmlDeviceGetMaxClockInfo(Device device, int type, unsigned* mhz) {
  return nvmlDeviceGetClockInfo(device, type, mhz);
}

FAKE_EXPORT Return nvmlDeviceGetApplicationsClock(Device device, int type, unsigned* mhz) {
  const FakeGpu* g = gpuOf(device);
  if (!g) return kErrorInvalidArgument;
  if (mode() == Mode::EnvFail) return kErrorNotSupported;
  *mhz = type == kClockSm ? g->appSmClockMHz : kMemClockMHz;
  return kSuccess;
}

FAKE_EXPORT Return nvmlDeviceGetDefaultApplicationsClock(Device device, int type, unsigned* mhz) {
  if (!gpuOf(device)) return kErrorInvalidArgument;
  if (mode() == Mode::EnvFail) return kErrorNotSupported;
  *mhz = type == kClockSm ? kSmClockMHz : kMemClockMHz;
  return kSuccess;
}

FAKE_EXPORT Return nvmlDeviceGetEnforcedPowerLimit(Device device, unsigned* milliwatts) {
  if (!gpuOf(device)) return kErrorInvalidArgument;
  *milliwatts = 700000;
  return kSuccess;
}

FAKE_EXPORT Return nvmlDeviceGetPowerUsage(Device device, unsigned* milliwatts) {
  if (!gpuOf(device)) return kErrorInvalidArgument;
  if (mode() == Mode::EnvFail) return kErrorNotSupported;
  *milliwatts = 118765;
  return kSuccess;
}

FAKE_EXPORT Return nvmlDeviceGetTemperatureV(Device device, TemperatureV1* t) {
  if (!gpuOf(device)) return kErrorInvalidArgument;
  if (mode() == Mode::OldDriver) return kErrorFunctionNotFound;
  if (mode() == Mode::EnvFail) return kErrorNotSupported;
  if (t->version != kTemperatureV1Version || t->sensorType != kTemperatureGpu)
    return kErrorInvalidArgument;
  t->temperature = 34;
  return kSuccess;
}

FAKE_EXPORT Return nvmlDeviceGetTemperature(Device device, int sensor, unsigned* celsius) {
  if (!gpuOf(device) || sensor != kTemperatureGpu) return kErrorInvalidArgument;
  if (mode() == Mode::EnvFail) return kErrorNotSupported;
  *celsius = 35;  // differs from the V call's 34, so a test can tell which one answered
  return kSuccess;
}

FAKE_EXPORT Return nvmlDeviceGetEccMode(Device device, EnableState* current, EnableState* pending) {
  if (!gpuOf(device)) return kErrorInvalidArgument;
  if (mode() == Mode::EnvFail) return kErrorNotSupported;
  *current = *pending = kFeatureEnabled;
  return kSuccess;
}

FAKE_EXPORT Return nvmlDeviceGetPersistenceMode(Device device, EnableState* state) {
  if (!gpuOf(device)) return kErrorInvalidArgument;
  *state = kFeatureEnabled;
  return kSuccess;
}

FAKE_EXPORT Return nvmlDeviceGetMigMode(Device device, unsigned* current, unsigned* pending) {
  if (!gpuOf(device)) return kErrorInvalidArgument;
  if (mode() == Mode::EnvFail) return kErrorNotSupported;
  *current = 0;            // NVML_DEVICE_MIG_DISABLE
  *pending = kMigEnabled;  // enabling waits for a reset: not this run's mode
  return kSuccess;
}

FAKE_EXPORT Return nvmlDeviceGetComputeMode(Device device, int* computeMode) {
  const FakeGpu* g = gpuOf(device);
  if (!g) return kErrorInvalidArgument;
  *computeMode = mode() == Mode::EnvFail ? 7 : g->computeMode;
  return kSuccess;
}

FAKE_EXPORT Return nvmlDeviceGetViolationStatus(Device device, int policy, ViolationTime* time) {
  if (!gpuOf(device)) return kErrorInvalidArgument;
  time->referenceTime = 1700000000000000ULL;
  if (policy == kPerfPolicyPower) {
    time->violationTime = 1500000;
    return kSuccess;
  }
  if (policy == kPerfPolicyThermal && mode() != Mode::EnvFail) {
    time->violationTime = 250000;
    return kSuccess;
  }
  return kErrorNotSupported;
}

#endif  // FAKE_NVML_MINIMAL
