#include "plans/pair_selection.h"

#include <algorithm>
#include <random>

#include "core/error.h"
#include "core/escape.h"
#include "core/text.h"

namespace nvbw {
namespace {

// A uniform draw in [0, bound) that does not depend on the standard library's distributions,
// whose algorithms differ between implementations: the same seed picks the same pairs with any
// compiler.
std::size_t draw(std::mt19937& rng, std::size_t bound) {
  const std::uint64_t range = 1ull << 32;
  const std::uint64_t limit = range - range % bound;  // reject the biased tail
  std::uint64_t value = rng();
  while (value >= limit) value = rng();
  return static_cast<std::size_t>(value % bound);
}

template <typename T> void shuffle(std::vector<T>& items, std::mt19937& rng) {
  for (std::size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[draw(rng, i)]);
}

// The position of `token` among `count` GPUs whose UUIDs `uuidOf` gives; nullopt if none.
std::optional<int> findGpu(const std::string& token, std::size_t count,
                           const std::function<std::string(std::size_t)>& uuidOf) {
  if (allDigits(token)) {
    if (token.size() > 9) return std::nullopt;
    const std::size_t index = std::stoul(token);
    return index < count ? std::optional<int>(static_cast<int>(index)) : std::nullopt;
  }
  for (std::size_t i = 0; i < count; ++i)
    if (uuidOf(i) == token) return static_cast<int>(i);
  return std::nullopt;
}

std::optional<GpuPair> findPair(const std::vector<std::string>& tokens, std::size_t count,
                                const std::function<std::string(std::size_t)>& uuidOf) {
  const std::optional<int> a = findGpu(tokens[0], count, uuidOf);
  const std::optional<int> b = findGpu(tokens[1], count, uuidOf);
  if (!a || !b) return std::nullopt;
  return GpuPair{*a, *b};
}

std::string missingGpu(const std::vector<std::string>& tokens, std::size_t count,
                       const std::function<std::string(std::size_t)>& uuidOf, const char* what) {
  for (const std::string& token : tokens)
    if (!findGpu(token, count, uuidOf))
      return "--pair: " + quotedArgument(token) + " names no " + what + " of this run (it has " +
             std::to_string(count) + ", indices 0-" + std::to_string(count ? count - 1 : 0) + ")";
  return {};
}

std::string pairText(const GpuPair& p) {
  return std::to_string(p.first) + " and " + std::to_string(p.second);
}

// The candidates pairing `gpu` with a GPU not yet covered, or, if there are none, with any GPU,
// leaving out those already chosen.
std::vector<GpuPair> partnersOf(int gpu, const std::vector<GpuPair>& candidates,
                                const std::set<GpuPair>& chosen, const std::vector<bool>& covered) {
  std::vector<GpuPair> fresh, any;
  for (const GpuPair& p : candidates) {
    if ((p.first != gpu && p.second != gpu) || chosen.count(p)) continue;
    const int partner = p.first == gpu ? p.second : p.first;
    (covered[static_cast<std::size_t>(partner)] ? any : fresh).push_back(p);
  }
  return fresh.empty() ? any : fresh;
}

// Each GPU, in shuffled order, that no chosen pair covers yet takes a random partner.
void coverEveryGpu(int gpus, const std::vector<GpuPair>& candidates, std::size_t target,
                   std::mt19937& rng, std::set<GpuPair>& chosen) {
  std::vector<int> order(static_cast<std::size_t>(std::max(0, gpus)));
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  shuffle(order, rng);
  std::vector<bool> covered(order.size(), false);
  for (int gpu : order) {
    if (chosen.size() >= target) return;
    if (covered[static_cast<std::size_t>(gpu)]) continue;
    const std::vector<GpuPair> pool = partnersOf(gpu, candidates, chosen, covered);
    if (pool.empty()) continue;
    const GpuPair pick = pool[draw(rng, pool.size())];
    chosen.insert(pick);
    covered[static_cast<std::size_t>(pick.first)] = true;
    covered[static_cast<std::size_t>(pick.second)] = true;
  }
}

}  // namespace

GpuPair unordered(int a, int b) { return a < b ? GpuPair{a, b} : GpuPair{b, a}; }

bool PairSet::allows(int a, int b) const {
  return everything_ || pairs_.count(unordered(a, b)) > 0;
}

std::set<GpuPair> samplePairs(int gpus, const std::vector<GpuPair>& candidates, std::size_t target,
                              std::uint32_t seed) {
  if (target >= candidates.size()) return {candidates.begin(), candidates.end()};
  std::mt19937 rng(seed);
  std::set<GpuPair> chosen;
  coverEveryGpu(gpus, candidates, target, rng, chosen);
  std::vector<GpuPair> rest;
  for (const GpuPair& p : candidates)
    if (!chosen.count(p)) rest.push_back(p);
  shuffle(rest, rng);
  for (std::size_t i = 0; chosen.size() < target && i < rest.size(); ++i) chosen.insert(rest[i]);
  return chosen;
}

PairSet choosePairs(const PairRule& rule, PairScope scope, int gpus,
                    const std::function<bool(int, int)>& peers) {
  if (rule.pairGiven) {
    const std::optional<GpuPair>& pair = scope == PairScope::Devices ? rule.devices : rule.ranks;
    std::set<GpuPair> only;
    if (pair) only.insert(unordered(pair->first, pair->second));
    return PairSet(std::move(only));
  }
  if (rule.targetNumPairs < 0) return PairSet::all();
  std::vector<GpuPair> candidates;
  for (int a = 0; a < gpus; ++a)
    for (int b = a + 1; b < gpus; ++b)
      if (peers(a, b)) candidates.emplace_back(a, b);
  return PairSet(samplePairs(gpus, candidates, static_cast<std::size_t>(rule.targetNumPairs),
                             kDefaultPairSeed));
}

PairRule resolvePairRule(const std::vector<std::string>& pairTokens, long long targetNumPairs,
                         const SystemFacts& system) {
  PairRule rule;
  rule.targetNumPairs = targetNumPairs;
  if (pairTokens.empty()) return rule;
  if (targetNumPairs >= 0)
    throw UsageError("--pair and -P/--targetNumPairs cannot be used together");
  rule.pairGiven = true;
  auto deviceUuid = [&](std::size_t i) { return system.devices[i].uuid; };
  auto rankUuid = [&](std::size_t i) { return system.processes[i].gpu.uuid; };
  rule.devices = findPair(pairTokens, system.devices.size(), deviceUuid);
  const bool multiProcess = !system.processes.empty();
  if (multiProcess) {
    rule.ranks = findPair(pairTokens, system.processes.size(), rankUuid);
    if (!rule.ranks)
      throw UsageError(missingGpu(pairTokens, system.processes.size(), rankUuid, "rank"));
  } else if (!rule.devices) {
    throw UsageError(missingGpu(pairTokens, system.devices.size(), deviceUuid, "GPU"));
  }
  const GpuPair named = multiProcess ? *rule.ranks : *rule.devices;
  if (named.first == named.second)
    throw UsageError("--pair names the same " + std::string(multiProcess ? "rank" : "GPU") +
                     " twice (" + std::to_string(named.first) + ")");
  if (rule.devices && rule.devices->first == rule.devices->second) rule.devices.reset();
  return rule;
}

std::vector<std::string> pairRuleNotes(const PairRule& rule, bool multiProcess) {
  std::vector<std::string> notes;
  if (rule.pairGiven) {
    std::string text = "NOTE: --pair: device-to-device testcases measure only ";
    text += rule.devices ? "GPUs " + pairText(*rule.devices)
                         : std::string("no GPU pair (the named GPUs are not both GPUs of rank 0)");
    if (multiProcess && rule.ranks)
      text += "; multinode testcases only ranks " + pairText(*rule.ranks);
    notes.push_back(text + ". Other cells show N/A.");
  } else if (rule.targetNumPairs >= 0) {
    notes.push_back("NOTE: -P " + std::to_string(rule.targetNumPairs) +
                    ": pairwise device-to-device testcases measure at most that many GPU pairs, "
                    "covering every GPU first, drawn with seed " +
                    std::to_string(kDefaultPairSeed) + ". Other cells show N/A.");
  }
  return notes;
}

}  // namespace nvbw
