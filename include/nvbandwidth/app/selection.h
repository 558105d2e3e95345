// Resolving -t tokens and -p prefixes against the registry.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "app/options.h"

namespace nvbw {

struct Selection {
  std::optional<std::size_t> index;  // resolved registry index
  std::string token;                 // the -t token as given (for error entries)
  std::string error;                 // "Testcase foo not found!" when unresolved
};

// No -t and no -p: every testcase in registry order. -t: each token in the given order
// (an index if the whole token is a decimal integer, else a key); unknown tokens become error
// entries and the others still run. -p: every key starting with any prefix, registry order,
// once each; no match at all throws UsageError. validateOptions has refused -t with -p.
// `indices[i]` is the CLI index of registry entry i (empty: its position); an index token names
// the entry with that index, and one no entry has is out of bound. `Selection::index` is always
// the entry's position.
std::vector<Selection> selectTestcases(const Options& options, const std::vector<std::string>& keys,
                                       const std::vector<std::size_t>& indices = {});

}  // namespace nvbw
