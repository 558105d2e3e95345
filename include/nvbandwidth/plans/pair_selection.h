// Which GPU pairs the pairwise testcases measure: every pair (the default), the one pair that
// --pair names, or -P/--targetNumPairs pairs sampled with a seeded generator.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "platform/system_facts.h"

namespace nvbw {

// The default seed of the sampler: every run (and every rank of a multinode run) with the same
// GPUs and -P draws the same pairs, so that repeated runs compare cell by cell.
constexpr std::uint32_t kDefaultPairSeed = 20260729;

// An unordered GPU pair, smaller index first.
using GpuPair = std::pair<int, int>;
GpuPair unordered(int a, int b);

// What the options ask for, resolved against the GPUs of the run.
struct PairRule {
  // --pair resolved to this process's GPUs (single-node testcases) and to ranks (multinode
  // testcases). With --pair given, a side that did not resolve measures nothing.
  bool pairGiven = false;
  std::optional<GpuPair> devices;
  std::optional<GpuPair> ranks;
  long long targetNumPairs = -1;  // -1: every pair
};

// The pairs a testcase measures; both orders of an allowed pair are measured.
class PairSet {
 public:
  static PairSet all() { return PairSet(); }
  explicit PairSet(std::set<GpuPair> pairs) : pairs_(std::move(pairs)), everything_(false) {}
  bool allows(int a, int b) const;
  const std::set<GpuPair>& pairs() const { return pairs_; }

 private:
  PairSet() = default;
  std::set<GpuPair> pairs_;
  bool everything_ = true;
};

// Samples `target` pairs among `candidates` (unordered, each once) over GPUs 0..gpus-1: first
// pairs that cover every GPU with a candidate, each GPU (in shuffled order) taking a random
// partner, preferring one not yet covered; then random further candidates. Deterministic for a
// given seed; all candidates when `target` is at least their number.
std::set<GpuPair> samplePairs(int gpus, const std::vector<GpuPair>& candidates, std::size_t target,
                              std::uint32_t seed);

// Whose indices a testcase's matrices use.
enum class PairScope { Devices, Ranks };

// The pairs `rule` allows among `gpus` GPUs (or ranks), `peers(a, b)` saying which pairs can be
// measured at all.
PairSet choosePairs(const PairRule& rule, PairScope scope, int gpus,
                    const std::function<bool(int, int)>& peers);

// Resolves --pair tokens (indices or "GPU-..." UUIDs) and -P against the run's GPUs. Throws
// UsageError when a token names no GPU of the run, when both name the same GPU, or when both
// options are given.
PairRule resolvePairRule(const std::vector<std::string>& pairTokens, long long targetNumPairs,
                         const SystemFacts& system);

// Header notes describing a rule that is not the default; empty for the default.
std::vector<std::string> pairRuleNotes(const PairRule& rule, bool multiProcess);

}  // namespace nvbw
