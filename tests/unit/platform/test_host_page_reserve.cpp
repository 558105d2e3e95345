// Host pages touched ahead of need (platform/host_page_reserve.h): regions of the asked sizes,
// resident when taken, each taken once, the rest unmapped.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <vector>

#include "platform/host_page_reserve.h"

namespace nvbw {
namespace test_host_page_reserve {

constexpr std::size_t kMiB = std::size_t{1} << 20;

// How many of the pages of [p, p + bytes) are resident.
std::size_t residentPages(void* p, std::size_t bytes) {
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> flags((bytes + page - 1) / page);
  if (mincore(p, bytes, flags.data()) != 0) return 0;
  std::size_t resident = 0;
  for (unsigned char f : flags) resident += f & 1;
  return resident;
}

TEST(HostPageReserve, ARegionIsTakenOnceWithEveryPageResident) {
  HostPageReserve reserve({8 * kMiB, 16 * kMiB});
  void* second = reserve.take(16 * kMiB);
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(residentPages(second, 16 * kMiB), 16 * kMiB / 4096);
  EXPECT_EQ(reserve.take(16 * kMiB), nullptr) << "one region of that size, taken already";
  void* first = reserve.take(8 * kMiB);
  ASSERT_NE(first, nullptr) << "the other region is still held";
  EXPECT_EQ(residentPages(first, 8 * kMiB), 8 * kMiB / 4096);
  munmap(first, 8 * kMiB);
  munmap(second, 16 * kMiB);
}

TEST(HostPageReserve, SizesNotReservedAreRefusedAndTheRestIsReleased) {
  HostPageReserve reserve({4 * kMiB, 4 * kMiB, 0});
  EXPECT_EQ(reserve.take(2 * kMiB), nullptr);
  void* first = reserve.take(4 * kMiB);
  void* second = reserve.take(4 * kMiB);
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  EXPECT_NE(first, second);
  static_cast<char*>(first)[0] = 1;  // the caller's to write
  munmap(first, 4 * kMiB);
  munmap(second, 4 * kMiB);
  EXPECT_EQ(reserve.take(4 * kMiB), nullptr) << "both taken";

  HostPageReserve unused({4 * kMiB});
  unused.releaseRest();
  EXPECT_EQ(unused.take(4 * kMiB), nullptr) << "released";
}

TEST(HostPageReserve, AnEmptyReserveHoldsNothing) {
  HostPageReserve sized(std::vector<std::size_t>{});
  EXPECT_EQ(sized.take(4096), nullptr);
}

// A region whose mapping fails is given as nullptr, so the caller allocates as it would have.
TEST(HostPageReserve, ARegionThatCannotBeMappedIsNull) {
  HostPageReserve reserve({std::size_t{1} << 62});
  EXPECT_EQ(reserve.take(std::size_t{1} << 62), nullptr);
}

}  // namespace test_host_page_reserve
}  // namespace nvbw
