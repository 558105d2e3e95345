// Resolving -t tokens and -p prefixes against the registry keys.
#include "app/selection.h"

#include <algorithm>
#include <charconv>
#include <string_view>

#include "core/text.h"

namespace nvbw {
namespace {

enum class TokenKind { Name, Index, OutOfRange };

struct ParsedToken {
  TokenKind kind = TokenKind::Name;
  std::size_t index = 0;
};

// Upstream decides with strtol: a token that is entirely a decimal integer is an index. We keep
// that (leading sign and surrounding blanks included) but compute the range ourselves, so huge
// numbers are out of range instead of saturating, and "" is not index 0.
ParsedToken classify(const std::string& token, std::size_t keyCount) {
  constexpr const char* kBlanks = " \t\n\v\f\r";
  const std::size_t first = token.find_first_not_of(kBlanks);
  if (first == std::string::npos) return {};
  std::string_view digits(token.data() + first, token.find_last_not_of(kBlanks) - first + 1);
  const bool negative = digits.front() == '-';
  if (negative || digits.front() == '+') digits.remove_prefix(1);
  if (!allDigits(digits)) return {};
  std::size_t value = 0;
  if (std::from_chars(digits.data(), digits.data() + digits.size(), value).ec != std::errc() ||
      value >= keyCount || (negative && value != 0))
    return {TokenKind::OutOfRange, 0};
  return {TokenKind::Index, value};
}

Selection resolveToken(const std::string& token, const std::vector<std::string>& keys,
                       const std::vector<std::size_t>& indices) {
  Selection selection;
  selection.token = token;
  if (token.empty()) {
    selection.error = "Testcase name is empty!";
    return selection;
  }
  const std::size_t bound =
      indices.empty() ? keys.size() : *std::max_element(indices.begin(), indices.end()) + 1;
  const ParsedToken parsed = classify(token, bound);
  switch (parsed.kind) {
  case TokenKind::Index:
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if ((indices.empty() ? i : indices[i]) == parsed.index) {
        selection.index = i;
        return selection;
      }
    }
    [[fallthrough]];  // an index between entries (the multinode ones in a plain build)
  case TokenKind::OutOfRange:
    selection.error = "Testcase index " + token + " out of bound!";
    return selection;
  case TokenKind::Name:
    break;
  }
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (keys[i] == token) {
      selection.index = i;
      return selection;
    }
  }
  selection.error = "Testcase " + token + " not found!";
  return selection;
}

Selection selected(std::size_t index, const std::vector<std::string>& keys) {
  Selection selection;
  selection.index = index;
  selection.token = keys[index];
  return selection;
}

bool startsWithAny(const std::string& key, const std::vector<std::string>& prefixes) {
  for (const std::string& prefix : prefixes)
    if (startsWith(key, prefix)) return true;
  return false;
}

}  // namespace

std::vector<Selection> selectTestcases(const Options& options, const std::vector<std::string>& keys,
                                       const std::vector<std::size_t>& indices) {
  std::vector<Selection> result;
  // validateOptions rejects this first; repeated here so a caller that skipped it cannot get a
  // silently half-honoured selection.
  if (!options.testcases.empty() && !options.testcasePrefixes.empty())
    throw UsageError("-t/--testcase and -p/--testcasePrefixes cannot be used together");

  if (!options.testcases.empty()) {
    for (const std::string& token : options.testcases)
      result.push_back(resolveToken(token, keys, indices));
    return result;
  }
  if (!options.testcasePrefixes.empty()) {
    for (std::size_t i = 0; i < keys.size(); ++i)
      if (startsWithAny(keys[i], options.testcasePrefixes)) result.push_back(selected(i, keys));
    if (result.empty())
      throw UsageError("Specified list of testcase prefixes did not match any testcases");
    return result;
  }
  for (std::size_t i = 0; i < keys.size(); ++i) result.push_back(selected(i, keys));
  return result;
}

}  // namespace nvbw
