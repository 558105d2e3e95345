// The fake platform's slowdown and sample noise (FakeBehaviour::slowdown, noiseCv, noiseSeed),
// which the verdicts' power is measured with: a slowdown makes every cell worse in its unit's
// sense, the noise has the CV it is asked for and is the same for the same seed.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fake_platform.h"
#include "fake_topology.h"

namespace nvbw {
namespace test_fake_noise {

using nlohmann::json;
using test::FakeBehaviour;
using test::fakePlatform;
using test::runApp;

json runWith(const FakeBehaviour& b, const std::vector<std::string>& testcases) {
  std::vector<std::string> args = {"-j", "-t"};
  args.insert(args.end(), testcases.begin(), testcases.end());
  const test::AppRun run = runApp(args, fakePlatform(FakeTopology(2), b));
  EXPECT_EQ(run.exitCode, 0) << run.err;
  return json::parse(run.out)["nvbandwidth"]["testcases"];
}

// Every present cell's statistics, in report order.
std::vector<json> cellsOf(const json& testcases) {
  std::vector<json> cells;
  for (const json& entry : testcases)
    if (entry.contains("cells"))
      for (const json& row : entry["cells"])
        for (const json& cell : row)
          if (!cell.is_null()) cells.push_back(cell);
  return cells;
}

TEST(FakeNoise, ASlowdownLowersBandwidthsAndRaisesLatencies) {
  FakeBehaviour slow;
  slow.slowdown = 0.25;
  const json healthy = runWith({}, {"0", "32"});
  const json slower = runWith(slow, {"0", "32"});
  ASSERT_EQ(healthy.size(), slower.size());
  for (std::size_t i = 0; i < healthy.size(); ++i) {
    const double factor = healthy[i]["unit"] == "ns" ? 1.25 : 0.75;
    EXPECT_DOUBLE_EQ(slower[i]["values"][0][0].get<double>(),
                     healthy[i]["values"][0][0].get<double>() * factor)
        << healthy[i]["name"];
  }
}

TEST(FakeNoise, TheNoiseHasItsCvAndItsSeed) {
  FakeBehaviour noisy;
  noisy.noiseCv = 0.05;
  noisy.noiseSeed = 7;
  const std::vector<std::string> all = {"0", "1", "2", "3", "4", "5", "6", "7", "32"};
  const std::vector<json> first = cellsOf(runWith(noisy, all));
  EXPECT_EQ(first, cellsOf(runWith(noisy, all)));  // the same seed, the same samples
  noisy.noiseSeed = 8;
  EXPECT_NE(first, cellsOf(runWith(noisy, all)));
  // The pooled relative deviation of the samples from their cell's noiseless value: about 5%
  // (outliers included), far from the 0 of no noise and from twice the CV.
  const std::vector<json> quiet = cellsOf(runWith({}, all));
  ASSERT_EQ(quiet.size(), first.size());
  double squares = 0.0;
  std::size_t samples = 0;
  for (std::size_t i = 0; i < first.size(); ++i)
    for (const json& s : first[i]["samples"]) {
      const double relative = s.get<double>() / quiet[i]["median"].get<double>() - 1.0;
      squares += relative * relative;
      ++samples;
    }
  ASSERT_GE(samples, 30u);
  const double cv = std::sqrt(squares / static_cast<double>(samples));
  EXPECT_GT(cv, 0.03);
  EXPECT_LT(cv, 0.08);
}

}  // namespace test_fake_noise
}  // namespace nvbw
