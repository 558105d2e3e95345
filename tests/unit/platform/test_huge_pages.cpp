// -H: reading the huge-page reserve out of /proc/meminfo and deciding what it allows.
#include <gtest/gtest.h>

#include "platform/huge_pages.h"

namespace nvbw {
namespace test_huge_pages {

constexpr const char* kMeminfo = "MemTotal:       2113464464 kB\n"
                                 "AnonHugePages:     81920 kB\n"
                                 "HugePages_Total:     512\n"
                                 "HugePages_Free:      500\n"
                                 "HugePages_Rsvd:        0\n"
                                 "Hugepagesize:       2048 kB\n"
                                 "Hugetlb:         1048576 kB\n";

TEST(HugePages, ParsesTheReserveAndThePageSize) {
  const HugePageInfo info = parseMeminfo(kMeminfo);
  EXPECT_EQ(info.total, 512u);
  EXPECT_EQ(info.free, 500u);
  EXPECT_EQ(info.pageBytes, 2u << 20);
  EXPECT_FALSE(hugePageProblem(info));
  EXPECT_EQ(hugePageNote(info),
            "NOTE: -H: pinned host buffers come from 2048 KiB huge pages (500 of 512 free at "
            "start).");
}

TEST(HugePages, NoReserveIsAProblemNamingTheFix) {
  const HugePageInfo none = parseMeminfo("HugePages_Total:       0\nHugePages_Free: 0\n"
                                         "Hugepagesize:    1048576 kB\n");
  EXPECT_EQ(none.pageBytes, 1ull << 30);
  ASSERT_TRUE(hugePageProblem(none));
  EXPECT_NE(hugePageProblem(none)->find("vm.nr_hugepages"), std::string::npos);
  // A kernel without hugetlb reports no page size at all.
  EXPECT_TRUE(hugePageProblem(parseMeminfo("MemTotal: 100 kB\n")));
  EXPECT_TRUE(hugePageProblem(parseMeminfo("")));
}

TEST(HugePages, IgnoresMalformedLines) {
  const HugePageInfo info = parseMeminfo("HugePages_Total: lots\nHugePages_Free:\n"
                                         "Hugepagesize: 2048 kB\n");
  EXPECT_EQ(info.total, 0u);
  EXPECT_EQ(info.pageBytes, 2048u * 1024);
}

TEST(HugePages, MappingsRoundUpToWholePages) {
  EXPECT_EQ(roundUpToPages(1, 2 << 20), 2u << 20);
  EXPECT_EQ(roundUpToPages(2 << 20, 2 << 20), 2u << 20);
  EXPECT_EQ(roundUpToPages((2 << 20) + 1, 2 << 20), 4u << 20);
  EXPECT_EQ(roundUpToPages(4096, 0), 4096u);
}

}  // namespace test_huge_pages
}  // namespace nvbw
