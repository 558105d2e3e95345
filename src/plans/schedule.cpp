#include "plans/schedule.h"

#include <algorithm>
#include <map>

namespace nvbw {

const char* scheduleName(PairSchedule schedule) {
  return schedule == PairSchedule::Rounds ? "rounds" : "pair_by_pair";
}

std::vector<std::vector<GpuPair>> roundRobinRounds(int n) {
  if (n < 2) return {};
  // An odd count gets a resting place (index n): whoever meets it rests that round.
  const int players = n % 2 == 0 ? n : n + 1;
  const int turning = players - 1;  // player `turning` stays put, the others turn around it
  // Round r holds pairs a < b; round turning + r, the same pairs reversed.
  std::vector<std::vector<GpuPair>> rounds(2 * static_cast<std::size_t>(turning));
  for (int round = 0; round < turning; ++round) {
    std::vector<GpuPair>& pairs = rounds[round];
    if (turning < n) pairs.push_back(unordered(turning, round));
    for (int i = 1; i < players / 2; ++i)
      pairs.push_back(unordered((round + i) % turning, (round - i + turning) % turning));
    for (const GpuPair& p : pairs) rounds[turning + round].emplace_back(p.second, p.first);
  }
  return rounds;
}

std::vector<int> resourcesOf(const Measurement& m) {
  std::vector<int> used;
  auto add = [&used](const BufferSpec& b) {
    used.push_back(b.kind == MemoryKind::Host ? -1 : b.device);
  };
  for (const CopySpec& c : m.copies) {
    add(c.src);
    add(c.dst);
    used.push_back(c.execDevice);
  }
  if (m.latency) {
    add(m.latency->target);
    used.push_back(m.latency->chaseDevice);
  }
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  return used;
}

namespace {

// Each ordered pair's place in roundRobinRounds(n).
std::map<GpuPair, std::size_t> canonicalOrder(int n) {
  std::map<GpuPair, std::size_t> place;
  for (const std::vector<GpuPair>& round : roundRobinRounds(n))
    for (const GpuPair& p : round) place.emplace(p, place.size());
  return place;
}

// The ordered pair a pair testcase's measurement stands for: the cell it writes.
GpuPair cellOf(const Measurement& m) {
  if (m.outputs.empty()) return {-1, -1};
  return {static_cast<int>(m.outputs.front().row), static_cast<int>(m.outputs.front().col)};
}

struct Round {
  std::vector<std::size_t> measurements;
  std::vector<int> used;  // sorted
  bool uses(const std::vector<int>& resources) const {
    return std::any_of(resources.begin(), resources.end(),
                       [&](int r) { return std::binary_search(used.begin(), used.end(), r); });
  }
  void add(std::size_t index, const std::vector<int>& resources) {
    measurements.push_back(index);
    used.insert(used.end(), resources.begin(), resources.end());
    std::sort(used.begin(), used.end());
  }
};

void scheduleInRounds(Plan& plan, int n) {
  const std::map<GpuPair, std::size_t> place = canonicalOrder(n);
  std::vector<std::size_t> order(plan.measurements.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  // A measurement whose cell is not a pair of the n goes last, in the plan's order.
  auto rank = [&](std::size_t i) {
    const auto it = place.find(cellOf(plan.measurements[i]));
    return it == place.end() ? place.size() : it->second;
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return rank(a) < rank(b); });
  std::vector<Round> rounds;
  for (std::size_t i : order) {
    const std::vector<int> resources = resourcesOf(plan.measurements[i]);
    auto fits = std::find_if(rounds.begin(), rounds.end(),
                             [&](const Round& r) { return !r.uses(resources); });
    if (fits == rounds.end()) fits = rounds.insert(rounds.end(), Round{});
    fits->add(i, resources);
  }
  for (Round& r : rounds) {
    std::sort(r.measurements.begin(), r.measurements.end());
    plan.rounds.push_back(std::move(r.measurements));
  }
}

bool allToSwitches(const std::vector<NvlinkLink>& links) {
  return !links.empty() && std::all_of(links.begin(), links.end(), [](const NvlinkLink& l) {
    return l.remote == NvlinkLink::Remote::Switch;
  });
}

bool linksTo(const std::vector<NvlinkLink>& links, const std::string& busId) {
  return !busId.empty() && std::any_of(links.begin(), links.end(), [&](const NvlinkLink& l) {
    return l.remote == NvlinkLink::Remote::Gpu &&
           normalizedBusId(l.remoteBusId) == normalizedBusId(busId);
  });
}

std::string pairName(int a, int b) {
  return "GPUs " + std::to_string(a) + " and " + std::to_string(b);
}

// Why GPUs a and b may share a link with another pair, or nullopt.
std::optional<std::string> pairProblem(const Topology& topo, int a, int b) {
  const GpuLinkFacts& fa = topo.linkFacts(a);
  const GpuLinkFacts& fb = topo.linkFacts(b);
  if (fa.nvlinks && fb.nvlinks) {
    if (linksTo(*fa.nvlinks, fb.busId) && linksTo(*fb.nvlinks, fa.busId)) return std::nullopt;
    if (allToSwitches(*fa.nvlinks) && allToSwitches(*fb.nvlinks)) return std::nullopt;
    return pairName(a, b) +
           " are connected neither through NVLink switches nor directly by NVLink (NVML)";
  }
  if (const std::optional<bool> nvlink = topo.peerOverNvlink(a, b)) {
    if (*nvlink) return std::nullopt;
    return pairName(a, b) + " reach each other over PCIe (the driver's P2P attributes)";
  }
  return "whether " + pairName(a, b) +
         " share links is not known (NVML does not say, nor do the driver's P2P attributes)";
}

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

void applySchedule(Plan& plan, PairSchedule schedule, int n) {
  plan.schedule = schedule;
  plan.rounds.clear();
  if (schedule == PairSchedule::Rounds) scheduleInRounds(plan, n);
}

std::optional<std::string> sharedLinkProblem(const Topology& topo) {
  const int n = topo.deviceCount();
  bool anyPair = false;
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) {
      if (!topo.canAccessPeer(a, b) || !topo.canAccessPeer(b, a)) continue;
      anyPair = true;
      if (std::optional<std::string> problem = pairProblem(topo, a, b)) return problem;
    }
  if (anyPair) return std::nullopt;
  if (n < 2) return "this run has " + std::to_string(n) + (n == 1 ? " GPU" : " GPUs");
  return std::string("no two GPUs have peer access both ways");
}

std::optional<std::string> fabricProblem(const Topology& topo) {
  for (int d = 0; d < topo.deviceCount(); ++d) {
    const GpuLinkFacts& f = topo.linkFacts(d);
    if (!f.nvlinks) return "NVML does not say where GPU " + std::to_string(d) + "'s NVLinks go";
    if (!allToSwitches(*f.nvlinks))
      return "GPU " + std::to_string(d) + " is not connected through NVLink switches (NVML)";
  }
  return std::nullopt;
}

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
