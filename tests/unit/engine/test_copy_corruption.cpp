// The GPU tests' fault (NVBW_TEST_CORRUPT_COPIES, engine/copy_corruption.h): which copies it
// names, how it refuses a value it cannot read, and that it overwrites 4 KiB in the middle of what
// a named copy wrote and nothing of the others.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "core/error.h"
#include "engine/copy_corruption.h"
#include "fake_driver.h"

namespace nvbw {
namespace test_copy_corruption {

TEST(CopyCorruption, NamesCopiesByTheirEnds) {
  using Pairs = std::set<std::pair<int, int>>;
  EXPECT_EQ(corruptedCopiesFrom("0-1"), (Pairs{{0, 1}}));
  EXPECT_EQ(corruptedCopiesFrom("0-1,1-0,host-2,3-host"),
            (Pairs{{0, 1}, {1, 0}, {kHostEnd, 2}, {3, kHostEnd}}));
  for (const char* bad : {"", "0", "0-", "-1", "a-b", "0-1,", "0-1;1-0", "01234-1"}) {
    try {
      corruptedCopiesFrom(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const StartupError& e) {
      EXPECT_NE(std::string(e.what()).find("NVBW_TEST_CORRUPT_COPIES="), std::string::npos);
    }
  }
}

TEST(CopyCorruption, OverwritesTheMiddleOfANamedCopyAndNothingElse) {
  const DriverApi api = fakeDriverApi(2);
  const Gpu gpu(api);
  CopyCorruption fault(gpu, corruptedCopiesFrom("0-host"));
  const CopySpec named = makeCopy(BufferSpec::onDevice(0, 1 << 16), BufferSpec::host(0, 1 << 16),
                                  CopyMethod::CopyEngine);
  const CopySpec other = makeCopy(BufferSpec::onDevice(1, 1 << 16), BufferSpec::host(1, 1 << 16),
                                  CopyMethod::CopyEngine);
  std::vector<std::uint8_t> a(1 << 16, 0), b(1 << 16, 0);
  fault.beforeVerification({{&named, 0, a.data(), a.size()}, {&other, 0, b.data(), b.size()}});
  std::size_t changed = 0, first = a.size();
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != 0) {
      ++changed;
      first = std::min(first, i);
    }
  EXPECT_EQ(changed, 4096u);
  EXPECT_EQ(first, (a.size() - 4096) / 2);
  for (const std::uint8_t byte : b) ASSERT_EQ(byte, 0);
}

}  // namespace test_copy_corruption
}  // namespace nvbw
