// Start-up decisions of a multi-process run, from faked rank reports.
#include <gtest/gtest.h>

#include "multinode/process_layout.h"

namespace nvbw {
namespace test_process_layout {

TEST(ProcessLayout, EachRankTakesItsNodeLocalRankModuloItsGpus) {
  const std::vector<RankReport> reports = {{"a", 4}, {"a", 4}, {"b", 4}, {"a", 4}, {"b", 4}};
  EXPECT_EQ(localRanks(reports), (std::vector<int>{0, 1, 0, 2, 1}));
  EXPECT_EQ(chosenDevices(reports), (std::vector<int>{0, 1, 0, 2, 1}));
}

TEST(ProcessLayout, ALauncherThatGivesEachRankOneGpuWorks) {
  // CUDA_VISIBLE_DEVICES=<local rank>: every rank sees one GPU, its own.
  EXPECT_EQ(chosenDevices({{"a", 1}, {"a", 1}, {"a", 1}}), (std::vector<int>{0, 0, 0}));
}

TEST(ProcessLayout, MoreRanksThanGpusWrapAround) {
  EXPECT_EQ(chosenDevices({{"a", 2}, {"a", 2}, {"a", 2}}), (std::vector<int>{0, 1, 0}));
}

TEST(ProcessLayout, TwoRanksOnOneGpuIsAProblemNamingBoth) {
  const auto problem = sharedGpuProblem({{"a", "GPU-1"}, {"a", "GPU-2"}, {"a", "GPU-1"}});
  ASSERT_TRUE(problem.has_value());
  EXPECT_NE(problem->find("ranks 0 and 2 would both use GPU GPU-1 on a"), std::string::npos);
  EXPECT_NE(problem->find("CUDA_VISIBLE_DEVICES"), std::string::npos);
}

TEST(ProcessLayout, TheSameUuidOnAnotherHostIsAnotherGpu) {
  EXPECT_FALSE(sharedGpuProblem({{"a", "GPU-1"}, {"b", "GPU-1"}}).has_value());
  EXPECT_FALSE(sharedGpuProblem({{"a", "GPU-1"}, {"a", "GPU-2"}}).has_value());
}

TEST(ProcessLayout, FabricHandlesWinWhereEveryRankCanUseThem) {
  const SharingDecision d = decideSharing(4, true, "", false, false, "");
  EXPECT_EQ(d.sharing, MemorySharing::Fabric);
  EXPECT_FALSE(d.problem);
}

TEST(ProcessLayout, OneHostWithoutImexFallsBackToFileDescriptors) {
  const SharingDecision d =
      decideSharing(2, false, "cuMemCreate: CUDA_ERROR_NOT_PERMITTED", true, true, "");
  EXPECT_EQ(d.sharing, MemorySharing::PosixFd);
  EXPECT_EQ(std::string(sharingName(d.sharing)), "posix_fd");
}

TEST(ProcessLayout, SeveralHostsWithoutImexCannotShare) {
  const SharingDecision d =
      decideSharing(2, false, "cuMemCreate: CUDA_ERROR_NOT_PERMITTED", false, true, "");
  EXPECT_EQ(d.sharing, MemorySharing::None);
  ASSERT_TRUE(d.problem);
  EXPECT_NE(d.problem->find("CUDA_ERROR_NOT_PERMITTED"), std::string::npos);
  EXPECT_NE(d.problem->find("IMEX"), std::string::npos);
  EXPECT_NE(d.problem->find("more than one host"), std::string::npos);
}

TEST(ProcessLayout, NothingToShareWithOneProcess) {
  EXPECT_EQ(decideSharing(1, true, "", true, true, "").sharing, MemorySharing::None);
}

TEST(ProcessLayout, MulticastIsDisabledByTheEnvironmentFirst) {
  EXPECT_EQ(multicastProblem(true, true, MemorySharing::Fabric),
            std::optional<std::string>("disabled by NVBANDWIDTH_DISABLE_MULTICAST=1"));
  EXPECT_NE(multicastProblem(false, false, MemorySharing::Fabric)->find("MULTICAST_SUPPORTED"),
            std::string::npos);
  EXPECT_TRUE(multicastProblem(false, true, MemorySharing::PosixFd).has_value());
  EXPECT_FALSE(multicastProblem(false, true, MemorySharing::Fabric).has_value());
}

}  // namespace test_process_layout
}  // namespace nvbw
