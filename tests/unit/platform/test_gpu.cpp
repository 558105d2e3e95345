// The primary contexts a Gpu retains (platform/gpu.h), over a driver table that records what it is
// asked (no GPU needed): each released once when the Gpu goes, and the ones already retained
// released when a later retain fails.
#include <gtest/gtest.h>

#include <vector>

#include "core/error.h"
#include "fake_driver.h"
#include "platform/gpu.h"

namespace nvbw {
namespace test_gpu {

// `devices` GPUs; retaining device `failingRetain` fails.
DriverApi recordingDriver(int devices, int failingRetain = -1) {
  const DriverApi api = fakeDriverApi(devices);
  fakeDriver().failingRetain = failingRetain;
  return api;
}

TEST(Gpu, EveryRetainedPrimaryContextIsReleasedOnce) {
  const DriverApi api = recordingDriver(3);
  {
    const Gpu gpu(api);
    EXPECT_EQ(fakeDriver().retained, (std::vector<CUdevice>{0, 1, 2}));
    EXPECT_TRUE(fakeDriver().released.empty());
  }
  EXPECT_EQ(fakeDriver().released, (std::vector<CUdevice>{0, 1, 2}));
}

TEST(Gpu, ARetainThatFailsReleasesTheContextsRetainedBeforeIt) {
  const DriverApi api = recordingDriver(3, 2);
  EXPECT_THROW(Gpu gpu(api), CudaError);
  EXPECT_EQ(fakeDriver().retained, (std::vector<CUdevice>{0, 1}));
  EXPECT_EQ(fakeDriver().released, (std::vector<CUdevice>{0, 1}));
}

}  // namespace test_gpu
}  // namespace nvbw
