#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/selection.h"
#include "plans/registry.h"

namespace nvbw {
namespace test_selection {

using Strings = std::vector<std::string>;

// Shaped like the real registry (shared prefixes, a key that is a prefix of another) but short.
const Strings kKeys = {
    "host_to_device_memcpy_ce",                // 0
    "device_to_host_memcpy_ce",                // 1
    "host_to_device_bidirectional_memcpy_ce",  // 2
    "device_to_device_memcpy_read_ce",         // 3
    "host_to_device_memcpy_sm",                // 4
    "device_local_copy",                       // 5
};

Options withTestcases(Strings tokens) {
  Options options;
  options.testcases = std::move(tokens);
  return options;
}

Options withPrefixes(Strings prefixes) {
  Options options;
  options.testcasePrefixes = std::move(prefixes);
  return options;
}

std::vector<std::size_t> indices(const std::vector<Selection>& selections) {
  std::vector<std::size_t> result;
  for (const Selection& selection : selections) {
    EXPECT_TRUE(selection.index.has_value()) << selection.token << ": " << selection.error;
    EXPECT_TRUE(selection.error.empty()) << selection.error;
    if (selection.index) result.push_back(*selection.index);
  }
  return result;
}

Selection selectOne(const std::string& token) {
  const std::vector<Selection> selections = selectTestcases(withTestcases({token}), kKeys);
  EXPECT_EQ(selections.size(), 1u);
  return selections.at(0);
}

void expectIndex(const std::string& token, std::size_t index) {
  const Selection selection = selectOne(token);
  ASSERT_TRUE(selection.index.has_value()) << "'" << token << "': " << selection.error;
  EXPECT_EQ(*selection.index, index) << "'" << token << "'";
  EXPECT_TRUE(selection.error.empty()) << selection.error;
  EXPECT_EQ(selection.token, token);
}

void expectError(const std::string& token, const std::string& error) {
  const Selection selection = selectOne(token);
  EXPECT_FALSE(selection.index.has_value()) << "'" << token << "'";
  EXPECT_EQ(selection.error, error);
  EXPECT_EQ(selection.token, token);
}

// ---- no selection -------------------------------------------------------------------------

TEST(SelectTestcases, NothingSelectedMeansEverythingInOrder) {
  const std::vector<Selection> selections = selectTestcases(Options{}, kKeys);
  EXPECT_EQ(indices(selections), (std::vector<std::size_t>{0, 1, 2, 3, 4, 5}));
  for (std::size_t i = 0; i < selections.size(); ++i) EXPECT_EQ(selections[i].token, kKeys[i]);
}

TEST(SelectTestcases, EmptyRegistrySelectsNothing) {
  EXPECT_TRUE(selectTestcases(Options{}, {}).empty());
}

// ---- -t -----------------------------------------------------------------------------------

TEST(SelectTestcases, ByIndexAndNameInGivenOrder) {
  const std::vector<Selection> selections = selectTestcases(
      withTestcases({"3", "device_local_copy", "0", "device_to_host_memcpy_ce"}), kKeys);
  EXPECT_EQ(indices(selections), (std::vector<std::size_t>{3, 5, 0, 1}));
  EXPECT_EQ(selections[0].token, "3");
  EXPECT_EQ(selections[1].token, "device_local_copy");
}

TEST(SelectTestcases, DuplicatesRunTwice) {
  EXPECT_EQ(indices(selectTestcases(withTestcases({"1", "1", "device_to_host_memcpy_ce"}), kKeys)),
            (std::vector<std::size_t>{1, 1, 1}));
}

TEST(SelectTestcases, IndexForms) {
  expectIndex("0", 0);
  expectIndex("5", 5);
  expectIndex("+3", 3);
  expectIndex("-0", 0);
  expectIndex("005", 5);
}

TEST(SelectTestcases, IndexFormsAcceptedLikeStrtol) {
  expectIndex(" 3", 3);
  expectIndex("\t2", 2);
  expectIndex("3 ", 3);
  expectIndex(" +1 ", 1);
}

TEST(SelectTestcases, OutOfRangeIndices) {
  expectError("6", "Testcase index 6 out of bound!");
  expectError("-1", "Testcase index -1 out of bound!");
  expectError("+6", "Testcase index +6 out of bound!");
  expectError("99999999999999999999999999",
              "Testcase index 99999999999999999999999999 out of bound!");
  expectError("-99999999999999999999999999",
              "Testcase index -99999999999999999999999999 out of bound!");
  expectError(" 42", "Testcase index  42 out of bound!");
}

TEST(SelectTestcases, OutOfRangeOnEmptyRegistry) {
  const std::vector<Selection> selections = selectTestcases(withTestcases({"0"}), {});
  ASSERT_EQ(selections.size(), 1u);
  EXPECT_FALSE(selections[0].index.has_value());
  EXPECT_EQ(selections[0].error, "Testcase index 0 out of bound!");
}

TEST(SelectTestcases, NotIntegersAreNames) {
  expectError("1.5", "Testcase 1.5 not found!");
  expectError("0x1", "Testcase 0x1 not found!");
  expectError("3a", "Testcase 3a not found!");
  expectError("+", "Testcase + not found!");
  expectError("-", "Testcase - not found!");
  expectError("1 2", "Testcase 1 2 not found!");
  expectError("  ", "Testcase    not found!");
}

TEST(SelectTestcases, NamesMatchExactly) {
  expectIndex("host_to_device_memcpy_ce", 0);
  expectError("host_to_device", "Testcase host_to_device not found!");
  expectError("HOST_TO_DEVICE_MEMCPY_CE", "Testcase HOST_TO_DEVICE_MEMCPY_CE not found!");
  expectError(" host_to_device_memcpy_ce", "Testcase  host_to_device_memcpy_ce not found!");
  expectError("host_to_device_memcpy_ce_", "Testcase host_to_device_memcpy_ce_ not found!");
  expectError("foo", "Testcase foo not found!");
}

TEST(SelectTestcases, EmptyTokenIsAnErrorNotIndexZero) {
  const Selection selection = selectOne("");
  EXPECT_FALSE(selection.index.has_value());
  EXPECT_FALSE(selection.error.empty());
  EXPECT_EQ(selection.token, "");
}

TEST(SelectTestcases, ErrorsDoNotStopTheOthers) {
  const std::vector<Selection> selections =
      selectTestcases(withTestcases({"foo", "2", "99", "", "device_local_copy"}), kKeys);
  ASSERT_EQ(selections.size(), 5u);
  EXPECT_EQ(selections[0].error, "Testcase foo not found!");
  EXPECT_EQ(selections[1].index, std::optional<std::size_t>(2));
  EXPECT_EQ(selections[2].error, "Testcase index 99 out of bound!");
  EXPECT_FALSE(selections[3].index.has_value());
  EXPECT_EQ(selections[4].index, std::optional<std::size_t>(5));
  EXPECT_EQ(selections[4].token, "device_local_copy");
}

// ---- -p -----------------------------------------------------------------------------------

TEST(SelectTestcases, PrefixesSelectInRegistryOrderOnce) {
  const std::vector<Selection> selections =
      selectTestcases(withPrefixes({"device_", "host_to_device", "device_to"}), kKeys);
  EXPECT_EQ(indices(selections), (std::vector<std::size_t>{0, 1, 2, 3, 4, 5}));
  for (const Selection& selection : selections) EXPECT_EQ(selection.token, kKeys[*selection.index]);
}

TEST(SelectTestcases, PrefixSelectsOnlyMatchingKeys) {
  EXPECT_EQ(indices(selectTestcases(withPrefixes({"host"}), kKeys)),
            (std::vector<std::size_t>{0, 2, 4}));
  EXPECT_EQ(indices(selectTestcases(withPrefixes({"device_to_"}), kKeys)),
            (std::vector<std::size_t>{1, 3}));
  EXPECT_EQ(indices(selectTestcases(withPrefixes({"device_local_copy"}), kKeys)),
            (std::vector<std::size_t>{5}));
}

TEST(SelectTestcases, PrefixOrderDoesNotMatter) {
  EXPECT_EQ(
      indices(selectTestcases(withPrefixes({"device_local", "host_to_device_memcpy"}), kKeys)),
      indices(selectTestcases(withPrefixes({"host_to_device_memcpy", "device_local"}), kKeys)));
}

TEST(SelectTestcases, RepeatedPrefixSelectsOnce) {
  EXPECT_EQ(indices(selectTestcases(withPrefixes({"device_local", "device_local"}), kKeys)),
            (std::vector<std::size_t>{5}));
}

TEST(SelectTestcases, EmptyPrefixMatchesEverything) {
  EXPECT_EQ(selectTestcases(withPrefixes({""}), kKeys).size(), kKeys.size());
}

TEST(SelectTestcases, PrefixesAreCaseSensitiveAndNotSubstrings) {
  EXPECT_THROW(selectTestcases(withPrefixes({"HOST"}), kKeys), UsageError);
  EXPECT_THROW(selectTestcases(withPrefixes({"memcpy"}), kKeys), UsageError);
  EXPECT_THROW(selectTestcases(withPrefixes({"device_local_copy_"}), kKeys), UsageError);
}

TEST(SelectTestcases, NoPrefixMatchIsAUsageError) {
  try {
    selectTestcases(withPrefixes({"nothing", "either"}), kKeys);
    FAIL() << "no UsageError";
  } catch (const UsageError& error) {
    EXPECT_STREQ(error.what(), "Specified list of testcase prefixes did not match any testcases");
  }
}

// ---- -t indices of the real registry under each interface ---------------------------------------

// The key each -t token runs in `registry` ("" when it runs nothing).
std::vector<std::string> selectedKeys(const std::vector<TestcaseDef>& registry,
                                      const Strings& tokens) {
  Strings keys;
  for (const TestcaseDef& d : registry) keys.push_back(d.key);
  std::vector<std::size_t> cliIndices;
  for (const TestcaseDef& d : registry) cliIndices.push_back(d.index);
  Strings chosen;
  for (const Selection& s : selectTestcases(withTestcases(tokens), keys, cliIndices))
    chosen.push_back(s.index ? keys[*s.index] : "");
  return chosen;
}

TEST(SelectTestcases, IndicesMeanWhatTheyMeanInEachInterface) {
  const std::vector<TestcaseDef> v08 = makeRegistry();
  const std::vector<TestcaseDef> v010 = makeRegistry(RegistryScope::SingleNode, CompatMode::V0_10);
  const Strings tokens = {"33", "34", "38", "42", "43", "44", "48", "56"};
  EXPECT_EQ(selectedKeys(v08, tokens),
            (Strings{"device_to_device_latency_sm", "device_local_copy", "", "", "", "",
                     "device_to_device_memcpy_read_tma", "device_to_device_latency_tma"}));
  EXPECT_EQ(selectedKeys(v010, tokens),
            (Strings{"device_to_device_latency_sm", "device_to_device_memcpy_read_tma",
                     "device_local_copy", "device_to_device_latency_tma", "device_local_copy_tma",
                     "", "", ""}));
  // Names mean the same testcase in both.
  const Strings names = {"device_local_copy_sm", "device_local_copy"};
  EXPECT_EQ(selectedKeys(v08, names), names);
  EXPECT_EQ(selectedKeys(v010, names), names);
}

TEST(SelectTestcases, MultinodeIndicesFollowV010sUnderV010) {
  const std::vector<TestcaseDef> v08 = makeRegistry(RegistryScope::WithMultinode);
  const std::vector<TestcaseDef> v010 =
      makeRegistry(RegistryScope::WithMultinode, CompatMode::V0_10);
  const std::string pastV08 = std::to_string(v08.back().index + 1);
  const std::string pastV010 = std::to_string(v010.back().index + 1);
  EXPECT_EQ(
      selectedKeys(v08, {"35", "47", pastV08}),
      (Strings{"multinode_device_to_device_memcpy_read_ce", "multinode_bisect_write_ce", ""}));
  EXPECT_EQ(
      selectedKeys(v010, {"44", "56", pastV010}),
      (Strings{"multinode_device_to_device_memcpy_read_ce", "multinode_bisect_write_ce", ""}));
}

TEST(SelectTestcases, PrefixesRunInTheInterfacesOrder) {
  const std::vector<TestcaseDef> v010 = makeRegistry(RegistryScope::SingleNode, CompatMode::V0_10);
  Strings keys;
  for (const TestcaseDef& d : v010) keys.push_back(d.key);
  Strings chosen;
  for (const Selection& s : selectTestcases(withPrefixes({"device_local"}), keys))
    chosen.push_back(keys[*s.index]);
  // v0.10's own, in its order; a testcase it does not have would come after them.
  const Strings v010s = {"device_local_copy", "device_local_copy_sm", "device_local_read_sm",
                         "device_local_write_sm", "device_local_copy_tma"};
  ASSERT_GE(chosen.size(), v010s.size());
  EXPECT_EQ(Strings(chosen.begin(), chosen.begin() + v010s.size()), v010s);
}

}  // namespace test_selection
}  // namespace nvbw
