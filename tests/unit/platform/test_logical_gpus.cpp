// One GPU presented as several (platform/logical_gpus.h), over a driver table that records what
// it is asked (no GPU needed): the variable's values, the devices and contexts the logical GPUs
// map to, the streams and buffers each gets in the one physical context, peer access that needs
// no enabling, and the switched fabric their topology presents.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/error.h"
#include "fake_driver.h"
#include "plans/schedule.h"
#include "platform/cuda_raii.h"
#include "platform/driver_topology.h"
#include "platform/gpu.h"
#include "platform/logical_gpus.h"

namespace nvbw {
namespace test_logical_gpus {

// The driver sees `physicalGpus` devices, numbered from 7; what it records beyond fake_driver.h's.
struct DriverState {
  int peerEnables = 0;
  std::vector<CUcontext> streamContexts;  // the context current at each cuStreamCreate
  std::vector<CUcontext> allocContexts;   // likewise at each cuMemAlloc
};
DriverState state;

CUresult CUDAAPI enablePeer(CUcontext, unsigned int) {
  ++state.peerEnables;
  return CUDA_ERROR_INVALID_VALUE;  // a context asked to reach itself
}
CUresult CUDAAPI canAccessPeer(int* can, CUdevice, CUdevice) {
  *can = 0;  // the driver's answer for a device and itself
  return CUDA_SUCCESS;
}
CUresult CUDAAPI streamCreate(CUstream* s, unsigned int) {
  state.streamContexts.push_back(fakeDriver().current);
  *s = reinterpret_cast<CUstream>(static_cast<std::uintptr_t>(state.streamContexts.size()));
  return CUDA_SUCCESS;
}
CUresult CUDAAPI streamDestroy(CUstream) { return CUDA_SUCCESS; }
CUresult CUDAAPI memAlloc(CUdeviceptr* p, std::size_t) {
  state.allocContexts.push_back(fakeDriver().current);
  *p = 0x1000 * state.allocContexts.size();
  return CUDA_SUCCESS;
}
CUresult CUDAAPI memFree(CUdeviceptr) { return CUDA_SUCCESS; }

DriverApi recordingDriver(int physicalGpus) {
  state = DriverState();
  DriverApi api = fakeDriverApi(physicalGpus, 7);
  api.cuCtxEnablePeerAccess = enablePeer;
  api.cuDeviceCanAccessPeer = canAccessPeer;
  api.cuStreamCreate = streamCreate;
  api.cuStreamDestroy = streamDestroy;
  api.cuMemAlloc = memAlloc;
  api.cuMemFree = memFree;
  return api;
}

void expectRefused(const std::optional<std::string>& value) {
  try {
    logicalGpusRequested(value);
    ADD_FAILURE() << "accepted " << *value;
  } catch (const StartupError& e) {
    EXPECT_NE(std::string(e.what()).find("expected a whole number of logical GPUs from 2 to 16"),
              std::string::npos)
        << e.what();
  }
}

TEST(LogicalGpus, TheVariableAsksForTwoToSixteen) {
  EXPECT_EQ(logicalGpusRequested(std::nullopt), 0);
  EXPECT_EQ(logicalGpusRequested(std::string()), 0);
  EXPECT_EQ(logicalGpusRequested(std::string("2")), 2);
  EXPECT_EQ(logicalGpusRequested(std::string("16")), 16);
  for (const char* bad : {"0", "1", "17", "100", "x", "-2", "2x", " 2", "3.0"})
    expectRefused(std::string(bad));
}

TEST(LogicalGpus, OnePhysicalGpuIsPresentedAsMany) {
  const DriverApi api = recordingDriver(1);
  {
    const Gpu gpu(api, 4);
    EXPECT_EQ(gpu.deviceCount(), 4);
    EXPECT_EQ(gpu.logicalGpus(), 4);
    for (int d = 0; d < 4; ++d) {
      EXPECT_EQ(gpu.device(d), 7);
      EXPECT_EQ(gpu.context(d), fakeContext(7));
    }
    EXPECT_EQ(fakeDriver().retained.size(), 1u);  // one primary context, held once
  }
  EXPECT_EQ(fakeDriver().released.size(), 1u);
}

TEST(LogicalGpus, EachLogicalGpuGetsItsOwnStreamsAndBuffersInThePhysicalContext) {
  const DriverApi api = recordingDriver(1);
  const Gpu gpu(api, 3);
  std::vector<Stream> streams;
  std::vector<DeviceBuffer> buffers;
  for (int d = 0; d < 3; ++d) {
    streams.emplace_back(gpu, d);
    buffers.emplace_back(gpu, d, 4096);
  }
  ASSERT_EQ(state.streamContexts.size(), 3u);
  ASSERT_EQ(state.allocContexts.size(), 3u);
  for (int d = 0; d < 3; ++d) {
    EXPECT_EQ(state.streamContexts[d], fakeContext(7));
    EXPECT_EQ(state.allocContexts[d], fakeContext(7));
  }
  EXPECT_NE(streams[0].get(), streams[1].get());
  EXPECT_NE(buffers[0].ptr(), buffers[2].ptr());
}

TEST(LogicalGpus, EveryPairHasPeerAccessWithoutEnablingIt) {
  const DriverApi api = recordingDriver(1);
  const Gpu gpu(api, 3);
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) {
      EXPECT_EQ(gpu.canAccessPeer(a, b), a != b) << a << " " << b;
      if (a != b) {
        EXPECT_EQ(gpu.peerNativeAtomics(a, b), std::optional<bool>(true));
      }
    }
  gpu.enablePeerAccess(0, 2);  // a context cannot be asked to reach itself: nothing is asked
  EXPECT_EQ(state.peerEnables, 0);
}

TEST(LogicalGpus, WithoutTheVariableTheGpusAreReal) {
  const DriverApi api = recordingDriver(2);
  const Gpu gpu(api);
  EXPECT_EQ(gpu.deviceCount(), 2);
  EXPECT_EQ(gpu.logicalGpus(), 0);
  EXPECT_NE(gpu.context(0), gpu.context(1));
  EXPECT_FALSE(gpu.canAccessPeer(0, 1));  // as the driver says
}

TEST(LogicalGpus, MoreThanOnePhysicalGpuIsRefused) {
  const DriverApi api = recordingDriver(2);
  try {
    const Gpu gpu(api, 4);
    FAIL() << "no error";
  } catch (const StartupError& e) {
    EXPECT_EQ(std::string(e.what()),
              "NVBW_LOGICAL_GPUS=4 presents one GPU as several, and this process sees 2 GPUs: make "
              "exactly one visible (CUDA_VISIBLE_DEVICES), or unset it");
  }
  EXPECT_TRUE(fakeDriver().retained.empty());
}

TEST(LogicalGpus, TheirTopologyIsASwitchedFabricWithoutPeaks) {
  const DriverApi api = recordingDriver(1);
  const Gpu gpu(api, 8);
  GpuLinkFacts pcieOnly;
  pcieOnly.pcie = PcieLinkState{32.0, 16, 32.0, 16};
  pcieOnly.nvlinks = std::vector<NvlinkLink>{};  // NVML: a PCIe card without NVLinks
  const DriverTopology topology(gpu, false, std::vector<GpuLinkFacts>(8, pcieOnly));
  EXPECT_EQ(sharedLinkProblem(topology), std::nullopt);  // pairs may run in rounds
  EXPECT_EQ(fabricProblem(topology), std::nullopt);
  for (int d = 0; d < 8; ++d) {
    const GpuLinkFacts& facts = topology.linkFacts(d);
    ASSERT_TRUE(facts.nvlinks);
    ASSERT_EQ(facts.nvlinks->size(), 1u);
    EXPECT_EQ(facts.nvlinks->front().remote, NvlinkLink::Remote::Switch);
    EXPECT_FALSE(facts.nvlinks->front().gbPerSecond);  // no NVLink peak is claimed
    EXPECT_EQ(facts.pcie, pcieOnly.pcie);              // the host link stays the GPU's
  }
  EXPECT_EQ(accessiblePairs(topology).size(), 56u);
}

TEST(LogicalGpus, TheNoteNamesThePhysicalGpu) {
  const DeviceInfo h100{"NVIDIA H100 80GB HBM3", 0, 0x19, 0, "GPU-1234"};
  EXPECT_EQ(
      logicalGpusNote(8, h100),
      "NOTE: NVBW_LOGICAL_GPUS=8: the GPUs of this run are logical, all of them the one NVIDIA "
      "H100 80GB HBM3 (GPU-1234); copies between them stay in its memory, so their figures "
      "are not a multi-GPU machine's (a testing aid).");
}

}  // namespace test_logical_gpus
}  // namespace nvbw
