#include "multinode/shared_memory.h"

#include <cstring>
#include <optional>
#include <string>

#include "engine/coordinator.h"
#include "multinode/attempt.h"
#include "platform/cuda_raii.h"
#include "platform/huge_pages.h"

namespace nvbw::multinode {
namespace {

CUmemAllocationHandleType handleType(MemorySharing sharing) {
  return sharing == MemorySharing::Fabric ? CU_MEM_HANDLE_TYPE_FABRIC
                                          : CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
}

CUmemAllocationProp deviceMemory(CUdevice device, MemorySharing sharing) {
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  prop.requestedHandleTypes = handleType(sharing);
  return prop;
}

std::size_t granularityOf(const DriverApi& api, const CUmemAllocationProp& prop) {
  std::size_t granularity = 0;
  NVBW_CU(api, cuMemGetAllocationGranularity, &granularity, &prop,
          CU_MEM_ALLOC_GRANULARITY_RECOMMENDED);
  return granularity;
}

// Exports `handle` as `sharing` says: into `fabric`, or as a file descriptor (returned).
std::optional<FileDescriptor> exportHandle(const DriverApi& api,
                                           CUmemGenericAllocationHandle handle,
                                           MemorySharing sharing, CUmemFabricHandle& fabric) {
  int fd = -1;
  void* out = sharing == MemorySharing::Fabric ? static_cast<void*>(&fabric) : &fd;
  NVBW_CU(api, cuMemExportToShareableHandle, out, handle, handleType(sharing), 0);
  if (fd < 0) return std::nullopt;
  return FileDescriptor(fd, CloseFd{});
}

// Every rank learns whether every rank succeeded; the failing rank rethrows its own error, the
// others report the failure of a peer.
void agreeOrThrow(Communicator& comm, const std::optional<std::string>& mine, const char* what) {
  const std::optional<std::string> agreed = agreeOnProblem(comm, mine);
  if (!agreed) return;
  if (mine) throw Error(std::string(what) + ": " + *mine);
  throw PeerFailed(std::string(what) + " failed on another process: " + *agreed);
}

}  // namespace

Mapping::Mapping(const SharingContext& ctx, CUmemGenericAllocationHandle handle,
                 std::size_t bytes) {
  const DriverApi& api = ctx.gpu.api();
  CUdeviceptr ptr = 0;
  NVBW_CU(api, cuMemAddressReserve, &ptr, bytes, 0, 0, 0);
  range_ = {ptr, {&api, bytes}};
  NVBW_CU(api, cuMemMap, ptr, bytes, 0, handle, 0);
  mapped_ = {ptr, {&api, bytes}};
  CUmemAccessDesc access{};
  access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  access.location.id = ctx.gpu.device(ctx.device);
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  NVBW_CU(api, cuMemSetAccess, ptr, bytes, &access, 1);
}

SharedAllocation::SharedAllocation(const SharingContext& ctx, int owner, std::size_t bytes) {
  const DriverApi& api = ctx.gpu.api();
  const bool mine = ctx.comm.rank() == owner;
  const CUmemAllocationProp prop = deviceMemory(ctx.gpu.device(ctx.device), ctx.sharing);
  ContextScope scope(ctx.gpu, ctx.device);

  // 1. The owner creates and exports; everyone learns whether it could (and the fabric handle).
  std::size_t size = 0;
  CUmemFabricHandle fabric{};
  std::optional<FileDescriptor> fd;
  std::optional<std::string> problem = attempt([&] {
    size = roundUpToPages(bytes, granularityOf(api, prop));
    if (!mine) return;
    CUmemGenericAllocationHandle created{};
    NVBW_CU(api, cuMemCreate, &created, size, &prop, 0);
    handle_ = AllocationHandle(created, {&api});
    fd = exportHandle(api, created, ctx.sharing, fabric);
  });
  std::string handleBytes(reinterpret_cast<const char*>(&fabric), sizeof fabric);
  ctx.comm.broadcast(handleBytes, owner);
  agreeOrThrow(ctx.comm, problem, "creating shared GPU memory");
  std::memcpy(&fabric, handleBytes.data(), sizeof fabric);

  // 2. A file descriptor travels to each other rank of the host, one at a time.
  if (ctx.sharing == MemorySharing::PosixFd)
    for (int r = 0; r < ctx.comm.size() && !problem; ++r) {
      if (r == owner) continue;
      if (mine) problem = attempt([&] { ctx.fds->send(r, fd->get()); });
      if (ctx.comm.rank() == r) problem = attempt([&] { fd.emplace(ctx.fds->receive(owner)); });
    }

  // 3. Everyone else imports; everyone maps it for its own GPU.
  if (!problem)
    problem = attempt([&] {
      if (!mine) {
        CUmemGenericAllocationHandle imported{};
        void* source = ctx.sharing == MemorySharing::Fabric
                           ? static_cast<void*>(&fabric)
                           : reinterpret_cast<void*>(static_cast<std::uintptr_t>(fd->get()));
        NVBW_CU(api, cuMemImportFromShareableHandle, &imported, source, handleType(ctx.sharing));
        handle_ = AllocationHandle(imported, {&api});
      }
      mapping_ = Mapping(ctx, handle_.get(), size);
    });
  agreeOrThrow(ctx.comm, problem, "mapping shared GPU memory");
}

MulticastObject::MulticastObject(const SharingContext& ctx, int owner, std::size_t bytes) {
  const DriverApi& api = ctx.gpu.api();
  const CUdevice device = ctx.gpu.device(ctx.device);
  const bool mine = ctx.comm.rank() == owner;
  ContextScope scope(ctx.gpu, ctx.device);
  CUmulticastObjectProp prop{};
  CUmemFabricHandle fabric{};
  std::size_t size = 0;
  std::optional<std::string> problem = attempt([&] {
    if (!api.cuMulticastCreate || !api.cuMulticastAddDevice || !api.cuMulticastBindMem ||
        !api.cuMulticastUnbind || !api.cuMulticastGetGranularity)
      throw Error("the driver has no multicast objects (CUDA 12.1 or later)");
    if (ctx.sharing != MemorySharing::Fabric)
      throw Error("multicast objects are shared through fabric handles only");
    prop.numDevices = static_cast<unsigned>(ctx.comm.size());
    prop.handleTypes = CU_MEM_HANDLE_TYPE_FABRIC;
    std::size_t granularity = 0;
    NVBW_CU(api, cuMulticastGetGranularity, &granularity, &prop,
            CU_MULTICAST_GRANULARITY_RECOMMENDED);
    size = roundUpToPages(bytes, granularity);
    prop.size = size;
    if (!mine) return;
    CUmemGenericAllocationHandle created{};
    NVBW_CU(api, cuMulticastCreate, &created, &prop);
    multicast_ = AllocationHandle(created, {&api});
    NVBW_CU(api, cuMemExportToShareableHandle, &fabric, created, CU_MEM_HANDLE_TYPE_FABRIC, 0);
  });
  std::string handleBytes(reinterpret_cast<const char*>(&fabric), sizeof fabric);
  ctx.comm.broadcast(handleBytes, owner);
  agreeOrThrow(ctx.comm, problem, "creating a multicast object");
  std::memcpy(&fabric, handleBytes.data(), sizeof fabric);

  // Every GPU joins before any memory is bound.
  problem = attempt([&] {
    if (!mine) {
      CUmemGenericAllocationHandle imported{};
      NVBW_CU(api, cuMemImportFromShareableHandle, &imported, &fabric, CU_MEM_HANDLE_TYPE_FABRIC);
      multicast_ = AllocationHandle(imported, {&api});
    }
    NVBW_CU(api, cuMulticastAddDevice, multicast_.get(), device);
  });
  agreeOrThrow(ctx.comm, problem, "adding GPUs to a multicast object");

  problem = attempt([&] {
    const CUmemAllocationProp local = deviceMemory(device, MemorySharing::Fabric);
    CUmemGenericAllocationHandle backing{};
    NVBW_CU(api, cuMemCreate, &backing, size, &local, 0);
    memory_ = AllocationHandle(backing, {&api});
    NVBW_CU(api, cuMulticastBindMem, multicast_.get(), 0, backing, 0, size, 0);
    binding_ = {multicast_.get(), {&api, device, size}};
    multicastMapping_ = Mapping(ctx, multicast_.get(), size);
    localMapping_ = Mapping(ctx, backing, size);
  });
  agreeOrThrow(ctx.comm, problem, "binding memory to a multicast object");
}

std::optional<std::string> probeSharing(const Gpu& gpu, int device, MemorySharing sharing) {
  return attempt([&] {
    const DriverApi& api = gpu.api();
    ContextScope scope(gpu, device);
    const CUmemAllocationProp prop = deviceMemory(gpu.device(device), sharing);
    const std::size_t size = granularityOf(api, prop);
    CUmemGenericAllocationHandle handle{};
    NVBW_CU(api, cuMemCreate, &handle, size, &prop, 0);
    const AllocationHandle owned(handle, {&api});
    CUmemFabricHandle fabric{};
    exportHandle(api, handle, sharing, fabric);  // a descriptor is closed at once
  });
}

}  // namespace nvbw::multinode
