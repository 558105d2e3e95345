// NVML's view of a GPU's NVLinks: which links are active, and for each its version, what is at
// the far end and how fast it runs.
#include <optional>
#include <string>
#include <vector>

#include "facts/nvml.h"
#include "facts/nvml_api.h"

namespace nvbw {
namespace {

using namespace facts::nvml;

// The entry points read for every link; either may be missing.
struct LinkApi {
  Return (*state)(Device, unsigned, EnableState*);
  Return (*fieldValues)(Device, int, FieldValue*);
};

NvlinkLink::Remote remoteKind(int nvmlDeviceType) {
  if (nvmlDeviceType == kNvlinkDeviceGpu) return NvlinkLink::Remote::Gpu;
  if (nvmlDeviceType == kNvlinkDeviceSwitch) return NvlinkLink::Remote::Switch;
  return NvlinkLink::Remote::Other;  // IBM NPU, or NVML_NVLINK_DEVICE_TYPE_UNKNOWN
}

// One field of one scope, as a number; nullopt when the call or the field itself fails (the
// call succeeds as soon as any field could be read, so the field's own nvmlReturn decides).
std::optional<double> fieldValue(const LinkApi& api, Device device, unsigned fieldId,
                                 unsigned scopeId) {
  if (!api.fieldValues) return std::nullopt;
  FieldValue value{};
  value.fieldId = fieldId;
  value.scopeId = scopeId;
  if (api.fieldValues(device, 1, &value) != kSuccess || value.nvmlReturn != kSuccess)
    return std::nullopt;
  return fieldAsDouble(value);
}

// Per-direction speed of one link in MB/s: the per-link field, else (older drivers) the speed
// common to all active links. A zero speed on an active link says nothing: unknown.
std::optional<double> speedMBps(const LinkApi& api, Device device, unsigned link) {
  std::optional<double> speed = fieldValue(api, device, kFieldNvlinkGetSpeed, link);
  if (!speed || *speed <= 0) speed = fieldValue(api, device, kFieldNvlinkSpeedCommon, 0);
  if (!speed || *speed <= 0) return std::nullopt;
  return speed;
}

// An active link's details, each one NVML cannot give left unknown (version 0, Other, "", nullopt).
NvlinkLink describeLink(void* library, const LinkApi& api, Device device, unsigned link) {
  NvlinkLink result;
  if (const auto version = answer<unsigned>(library, "nvmlDeviceGetNvLinkVersion", device, link))
    result.version = nvlinkVersionFromNvml(*version);
  // int: nvmlIntNvLinkDeviceType_t
  if (const auto type = answer<int>(library, "nvmlDeviceGetNvLinkRemoteDeviceType", device, link))
    result.remote = remoteKind(*type);
  if (const auto pci =
          answer<PciInfo>(library, "nvmlDeviceGetNvLinkRemotePciInfo_v2", device, link))
    result.remoteBusId = terminated(pci->busId);
  if (const std::optional<double> mbps = speedMBps(api, device, link))
    result.gbPerSecond = *mbps / 1000.0;
  return result;
}

}  // namespace

// How nvmlDeviceGetNvLinkState's answers are read, link by link:
//  - SUCCESS: the link exists; kept when active.
//  - NOT_SUPPORTED: no NVLink there ("the device doesn't support this feature"). A GPU without
//    NVLink answers so for every link, link 0 included, and gets an empty list; on a GPU with
//    NVLink it marks links the chip does not have, which are skipped rather than ending the
//    scan, so no active link past them is missed.
//  - INVALID_ARGUMENT past link 0: an older driver knows fewer links than this header's 36; the
//    scan ends there. On link 0 it means the device handle itself is bad: unknown.
//  - anything else (UNKNOWN, GPU_IS_LOST, ...): NVML cannot say, so neither can we.
std::optional<std::vector<NvlinkLink>> Nvml::nvlinks(const std::string& uuid) const {
  const LinkApi api{symbol<decltype(LinkApi::state)>(library_, "nvmlDeviceGetNvLinkState"),
                    symbol<decltype(LinkApi::fieldValues)>(library_, "nvmlDeviceGetFieldValues")};
  Device device = this->device(uuid);
  if (!api.state || !device) return std::nullopt;
  std::vector<NvlinkLink> links;
  for (unsigned link = 0; link < kNvlinkMaxLinks; ++link) {
    EnableState active = 0;
    const Return rc = api.state(device, link, &active);
    if (rc == kErrorInvalidArgument && link > 0) break;
    if (rc == kErrorNotSupported) continue;
    if (rc != kSuccess) return std::nullopt;
    if (active == kFeatureEnabled) links.push_back(describeLink(library_, api, device, link));
  }
  return links;
}

}  // namespace nvbw
