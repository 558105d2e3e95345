#include "app/selection.h"

#include <algorithm>
#include <charconv>
#include <string_view>

#include "core/text.h"

namespace nvbw {
namespace {

// Upstream decides with strtol: a token that is entirely a decimal integer is an index. We keep
// that (leading sign and surrounding blanks included), but huge and negative numbers are npos,
// an index no testcase has, instead of saturating, and "" is not index 0. nullopt: a name.
std::optional<std::size_t> indexIn(const std::string& token) {
  constexpr const char* kBlanks = " \t\n\v\f\r";
  const std::size_t first = token.find_first_not_of(kBlanks);
  if (first == std::string::npos) return std::nullopt;
  std::string_view digits(token.data() + first, token.find_last_not_of(kBlanks) - first + 1);
  const bool negative = digits.front() == '-';
  if (negative || digits.front() == '+') digits.remove_prefix(1);
  if (!allDigits(digits)) return std::nullopt;
  std::size_t value = 0;
  if (std::from_chars(digits.data(), digits.data() + digits.size(), value).ec != std::errc() ||
      (negative && value != 0))
    return std::string::npos;
  return value;
}

Selection resolveToken(const std::string& token, const std::vector<std::string>& keys,
                       const std::vector<std::size_t>& indices) {
  Selection selection{std::nullopt, token, ""};
  if (token.empty()) {
    selection.error = "Testcase name is empty!";
    return selection;
  }
  const std::optional<std::size_t> index = indexIn(token);
  if (!index) {
    const auto named = std::find(keys.begin(), keys.end(), token);
    if (named != keys.end())
      selection.index = named - keys.begin();
    else
      selection.error = "Testcase " + token + " not found!";
    return selection;
  }
  // An index no entry has is out of bound (between entries: the multinode ones in a plain build).
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (!selection.index && (indices.empty() ? i : indices[i]) == *index) selection.index = i;
  if (!selection.index) selection.error = "Testcase index " + token + " out of bound!";
  return selection;
}

bool startsWithAny(const std::string& key, const std::vector<std::string>& prefixes) {
  return std::any_of(prefixes.begin(), prefixes.end(),
                     [&key](const std::string& prefix) { return startsWith(key, prefix); });
}

}  // namespace

std::vector<Selection> selectTestcases(const Options& options, const std::vector<std::string>& keys,
                                       const std::vector<std::size_t>& indices) {
  std::vector<Selection> result;
  if (!options.testcases.empty()) {
    for (const std::string& token : options.testcases)
      result.push_back(resolveToken(token, keys, indices));
    return result;
  }
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (options.testcasePrefixes.empty() || startsWithAny(keys[i], options.testcasePrefixes))
      result.push_back({i, keys[i], ""});
  if (result.empty() && !options.testcasePrefixes.empty())
    throw UsageError("Specified list of testcase prefixes did not match any testcases");
  return result;
}

}  // namespace nvbw
