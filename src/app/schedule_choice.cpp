#include "app/schedule_choice.h"

#include <optional>

namespace nvbw {
namespace {

// Rounds where there is no problem; else pair by pair with a note, or, forced, rounds with a
// warning.
PairSchedule decide(const std::string& option, const char* testcases,
                    const std::optional<std::string>& problem, std::vector<std::string>& notes) {
  if (!problem) return PairSchedule::Rounds;
  if (option == "force-rounds") {
    notes.push_back("WARNING: --schedule force-rounds: the " + std::string(testcases) +
                    " testcases measure in rounds although " + *problem +
                    ": pairs that share a link measure less at once than alone.");
    return PairSchedule::Rounds;
  }
  notes.push_back("NOTE: --schedule rounds: the " + std::string(testcases) +
                  " testcases measure pair by pair: " + *problem + ".");
  return PairSchedule::PairByPair;
}

}  // namespace

ScheduleChoice chooseSchedule(const std::string& option, const Topology& topology,
                              Communicator& comm) {
  ScheduleChoice choice;
  if (option.empty() || option == "pairs") return choice;
  const std::optional<std::string> mine = sharedLinkProblem(topology);
  std::string decided = fromRankZero(comm, mine ? "P" + *mine : "-");
  const std::optional<std::string> devices =
      decided == "-" ? std::nullopt : std::optional<std::string>(decided.substr(1));
  choice.rule.devices = decide(option, "device-to-device", devices, choice.notes);
  if (topology.processFacts().processes >= 2) {
    const std::optional<std::string> ranks = agreeOnProblem(comm, fabricProblem(topology));
    choice.rule.ranks = decide(option, "multinode", ranks, choice.notes);
  }
  return choice;
}

}  // namespace nvbw
