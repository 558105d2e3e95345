#include "platform/gpu.h"

#include <array>
#include <string>

#include "platform/logical_gpus.h"

namespace nvbw {

Gpu::Gpu(const DriverApi& api, int logicalGpus) : api_(api), logicalGpus_(logicalGpus) {
  using Reason = DriverUnavailable::Reason;
  constexpr int kMaxDevices = 1024;  // more than any system holds: a driver saying more is wrong
  CUresult rc = api_.cuInit(0);
  if (rc == CUDA_ERROR_STUB_LIBRARY) throw stubLibrary();
  if (rc == CUDA_ERROR_NO_DEVICE)
    throw DriverUnavailable(Reason::NoDevice, "cuInit failed: " + describeCuResult(api_, rc) +
                                                  "; no NVIDIA GPU is visible to this process");
  if (rc != CUDA_SUCCESS)
    throw DriverUnavailable(Reason::Unusable, "cuInit failed: " + describeCuResult(api_, rc) +
                                                  "; is the NVIDIA driver loaded?");
  int count = 0;
  rc = api_.cuDeviceGetCount(&count);
  if (rc != CUDA_SUCCESS)
    throw DriverUnavailable(Reason::Unusable,
                            "cuDeviceGetCount failed: " + describeCuResult(api_, rc));
  if (count == 0)
    throw DriverUnavailable(Reason::NoDevice, "no CUDA-capable GPU is visible to this process");
  if (count < 0 || count > kMaxDevices)
    throw DriverUnavailable(Reason::Unusable, "the driver reported " + std::to_string(count) +
                                                  " GPUs (cuDeviceGetCount); expected 1 to " +
                                                  std::to_string(kMaxDevices));
  checkOnePhysicalGpu(logicalGpus_, count);
  for (int i = 0; i < count; ++i) {
    CUdevice dev{};
    NVBW_CU(api_, cuDeviceGet, &dev, i);
    CUcontext ctx = nullptr;
    NVBW_CU(api_, cuDevicePrimaryCtxRetain, &ctx, dev);
    retained_.emplace_back(dev, platform::ReleasePrimaryContext{&api_});
    devices_.push_back(dev);
    contexts_.push_back(ctx);
  }
  if (logicalGpus_ > 0) {
    devices_.assign(static_cast<std::size_t>(logicalGpus_), devices_.front());
    contexts_.assign(static_cast<std::size_t>(logicalGpus_), contexts_.front());
  }
}

Gpu::~Gpu() { api_.cuCtxSetCurrent(nullptr); }

int Gpu::attribute(int index, CUdevice_attribute attr) const {
  int value = 0;
  NVBW_CU(api_, cuDeviceGetAttribute, &value, attr, device(index));
  return value;
}

bool Gpu::canAccessPeer(int index, int peer) const {
  if (index == peer) return false;
  if (device(index) == device(peer)) return true;  // logical GPUs: the peer is its own memory
  int can = 0;
  NVBW_CU(api_, cuDeviceCanAccessPeer, &can, device(index), device(peer));
  return can != 0;
}

std::optional<bool> Gpu::peerNativeAtomics(int index, int peer) const {
  if (index != peer && device(index) == device(peer)) return true;  // logical GPUs: one GPU
  int value = 0;
  if (index == peer ||
      api_.cuDeviceGetP2PAttribute(&value, CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED,
                                   device(index), device(peer)) != CUDA_SUCCESS)
    return std::nullopt;
  return value != 0;
}

void Gpu::makeCurrent(int index) const { NVBW_CU(api_, cuCtxSetCurrent, context(index)); }

std::string peerAccessFailureMessage(int from, int to, CUresult code,
                                     const std::string& driverError) {
  std::string text = "cannot enable peer access from GPU " + std::to_string(from) + " to GPU " +
                     std::to_string(to) + " (cuCtxEnablePeerAccess: " + driverError + ")";
  switch (code) {
  case CUDA_ERROR_TOO_MANY_PEERS:
    return text + ": the GPU has as many peers mapped as the driver allows; --pair A B measures "
                  "one pair";
  case CUDA_ERROR_PEER_ACCESS_UNSUPPORTED:
    return text + ": the driver does not allow access between these GPUs (nvidia-smi topo -p2p r "
                  "shows the pairs it allows)";
  default:
    return text + "; nvidia-smi topo -p2p r shows the GPU pairs the driver allows";
  }
}

void Gpu::enablePeerAccess(int a, int b) const {
  auto enable = [&](int from, int to) {
    makeCurrent(from);
    const CUresult rc = api_.cuCtxEnablePeerAccess(context(to), 0);
    if (rc == CUDA_SUCCESS || rc == CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED) return;
    throw PeerAccessError(peerAccessFailureMessage(from, to, rc, describeCuResult(api_, rc)),
                          "cuCtxEnablePeerAccess(context(" + std::to_string(to) + "), 0) at " +
                              __FILE__ + ":" + std::to_string(__LINE__));
  };
  if (device(a) == device(b)) return;  // logical GPUs: the same context reaches it already
  enable(a, b);
  enable(b, a);
}

DeviceInfo Gpu::info(int index) const {
  DeviceInfo d;
  std::array<char, 256> name{};
  NVBW_CU(api_, cuDeviceGetName, name.data(), static_cast<int>(name.size()), device(index));
  d.name = name.data();
  d.pciDomain = static_cast<unsigned>(attribute(index, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID));
  d.pciBus = static_cast<unsigned>(attribute(index, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID));
  d.pciDevice = static_cast<unsigned>(attribute(index, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID));
  d.uuid = uuid(index);
  return d;
}

std::string Gpu::uuid(int index) const {
  CUuuid id{};
  NVBW_CU(api_, cuDeviceGetUuid, &id, device(index));
  unsigned char bytes[16];
  for (int i = 0; i < 16; ++i) bytes[i] = static_cast<unsigned char>(id.bytes[i]);
  return formatUuid(bytes);
}

int Gpu::driverCudaVersion() const {
  int v = 0;
  NVBW_CU(api_, cuDriverGetVersion, &v);
  return v;
}

}  // namespace nvbw
