// Whole runs with --schedule on the fake platform: rounds measure the same cells with the same
// values as pair by pair and the report says which schedule ran; where the topology cannot
// promise that pairs share no link, rounds fall back to pair by pair with a note, or run anyway
// with a warning when forced; a copy that fails in a round is reported on its own pair.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fake_platform.h"
#include "fake_topology.h"

namespace nvbw {
namespace test_schedule_run {

using nlohmann::json;
using test::AppRun;
using test::FakeBehaviour;
using test::fakePlatform;
using test::runApp;
using test::withH200Links;

const char* const kPairTestcases[] = {"-t", "device_to_device_memcpy_read_ce",
                                      "device_to_device_bidirectional_memcpy_write_sm",
                                      "device_to_device_latency_sm", "all_to_one_write_ce"};

AppRun run(int gpus, const std::string& links, std::vector<std::string> extra,
           FakeBehaviour behaviour = {}) {
  std::vector<std::string> args(std::begin(kPairTestcases), std::end(kPairTestcases));
  args.insert(args.end(), extra.begin(), extra.end());
  return runApp(args, fakePlatform(withH200Links(FakeTopology(gpus), links), behaviour));
}

json entries(const AppRun& r) { return json::parse(r.out)["nvbandwidth"]["testcases"]; }

TEST(ScheduleRun, RoundsGiveTheSameValuesAndSayWhichScheduleRan) {
  const AppRun pairs = run(8, "nvswitch", {"-j"});
  const AppRun rounds = run(8, "nvswitch", {"-j", "--schedule", "rounds"});
  ASSERT_EQ(pairs.exitCode, 0) << pairs.err;
  ASSERT_EQ(rounds.exitCode, 0) << rounds.err;
  EXPECT_EQ(rounds.err.find("NOTE: --schedule"), std::string::npos) << rounds.err;
  const json a = entries(pairs);
  const json b = entries(rounds);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    SCOPED_TRACE(a[i]["name"].get<std::string>());
    EXPECT_EQ(a[i]["values"], b[i]["values"]);
    EXPECT_EQ(a[i]["sum"], b[i]["sum"]);
    if (a[i]["name"] == "all_to_one_write_ce") {
      EXPECT_FALSE(b[i].contains("schedule"));
      continue;
    }
    EXPECT_EQ(a[i]["schedule"], "pair_by_pair");
    EXPECT_FALSE(a[i].contains("rounds"));
    EXPECT_EQ(b[i]["schedule"], "rounds");
    EXPECT_EQ(b[i]["rounds"], 14);  // 8 GPUs: 2 x 7 rounds of 4 pairs
  }
  EXPECT_EQ(json::parse(rounds.out)["nvbandwidth"]["settings"]["schedule"], "rounds");
}

TEST(ScheduleRun, TheTextOutputIsTheSame) {
  const AppRun pairs = run(8, "nvswitch", {});
  const AppRun rounds = run(8, "nvswitch", {"--schedule", "rounds"});
  ASSERT_EQ(rounds.exitCode, 0) << rounds.err;
  EXPECT_EQ(pairs.out, rounds.out);
}

TEST(ScheduleRun, OneGpuFallsBackToPairByPairWithANote) {
  const AppRun plain = run(1, "nvswitch", {});
  const AppRun r = run(1, "nvswitch", {"--schedule", "rounds"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("NOTE: --schedule rounds: the device-to-device testcases measure pair by "
                       "pair: this run has 1 GPU."),
            std::string::npos)
      << r.err;
  EXPECT_EQ(plain.out, r.out);  // stdout keeps upstream's lines only
  const AppRun j = run(1, "nvswitch", {"-j", "--schedule", "rounds"});
  const json doc = json::parse(j.out)["nvbandwidth"];
  ASSERT_TRUE(doc.contains("notes"));
  EXPECT_NE(doc["notes"][0].get<std::string>().find("this run has 1 GPU"), std::string::npos);
}

TEST(ScheduleRun, UnknownLinksFallBackWithANote) {
  const AppRun r = run(4, "none", {"-j", "--schedule", "rounds"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const json notes = json::parse(r.out)["nvbandwidth"]["notes"];
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].get<std::string>().find("measure pair by pair"), std::string::npos) << notes;
  for (const json& e : entries(r))
    if (e.contains("schedule")) {
      EXPECT_EQ(e["schedule"], "pair_by_pair") << e["name"];
    }
}

TEST(ScheduleRun, ForcedRoundsRunWithAWarning) {
  const AppRun r = run(4, "none", {"-j", "--schedule", "force-rounds"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const json notes = json::parse(r.out)["nvbandwidth"]["notes"];
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].get<std::string>().rfind("WARNING: --schedule force-rounds", 0), 0u) << notes;
  for (const json& e : entries(r))
    if (e.contains("schedule")) {
      EXPECT_EQ(e["schedule"], "rounds") << e["name"];
    }
}

TEST(ScheduleRun, PairsIsTheDefaultAndSaysNothing) {
  const AppRun plain = run(4, "nvswitch", {});
  const AppRun r = run(4, "nvswitch", {"--schedule", "pairs"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(plain.out, r.out);
  EXPECT_EQ(r.err.find("--schedule"), std::string::npos) << r.err;
}

TEST(ScheduleRun, AnUnknownScheduleIsAUsageError) {
  const AppRun r = run(2, "nvswitch", {"--schedule", "sometimes"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("--schedule"), std::string::npos) << r.err;
}

TEST(ScheduleRun, WithPairAndTargetNumPairs) {
  for (const std::vector<std::string>& selection :
       {std::vector<std::string>{"--pair", "2", "5"}, std::vector<std::string>{"-P", "6"}}) {
    std::vector<std::string> pairsArgs = {"-j"};
    pairsArgs.insert(pairsArgs.end(), selection.begin(), selection.end());
    std::vector<std::string> roundsArgs = pairsArgs;
    roundsArgs.insert(roundsArgs.end(), {"--schedule", "rounds"});
    const AppRun pairs = run(8, "nvswitch", pairsArgs);
    const AppRun rounds = run(8, "nvswitch", roundsArgs);
    ASSERT_EQ(rounds.exitCode, 0) << rounds.err;
    const json a = entries(pairs);
    const json b = entries(rounds);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i]["values"], b[i]["values"]);
    EXPECT_EQ(b[0]["schedule"], "rounds");
    if (selection[0] == "--pair") {  // 2 -> 5, then 5 -> 2
      EXPECT_EQ(b[0]["rounds"], 2);
    }
  }
}

TEST(ScheduleRun, AFailingCopyInARoundIsReportedOnItsPairOnly) {
  FakeBehaviour behaviour;
  behaviour.failingCopies = {{3, 6}};
  const AppRun r = runApp({"-j", "--schedule", "rounds", "-t", "device_to_device_memcpy_write_ce",
                           "device_to_device_memcpy_read_ce"},
                          fakePlatform(withH200Links(FakeTopology(8), "nvswitch"), behaviour));
  EXPECT_EQ(r.exitCode, 1);
  const json e = entries(r);
  ASSERT_EQ(e.size(), 2u);
  for (const json& entry : e) {
    SCOPED_TRACE(entry.dump());
    ASSERT_EQ(entry["status"], "ERROR");
    const std::string message = entry["error"];
    EXPECT_NE(message.find("Device 3 -> Device 6"), std::string::npos);
    // The round's other pairs are not blamed.
    for (const char* other :
         {"Device 0 ->", "Device 1 ->", "Device 2 ->", "Device 4 ->", "Device 7 ->"})
      EXPECT_EQ(message.find(other), std::string::npos) << other;
  }
}

}  // namespace test_schedule_run
}  // namespace nvbw
