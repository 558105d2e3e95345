// Numbers as the reports print them, and the rule for words of ours on stdout: none may read as
// a number to a client that takes every number after a testcase's banner for a value.
#include <gtest/gtest.h>

#include <string>

#include "core/format.h"

namespace nvbw {
namespace test_format {

TEST(Format, TokensThatReadAsNumbersAsPythonsFloatReadsThem) {
  for (const char* number : {"1", "0", "-2", "+3", "9.0", ".5", "5.", "1e5", "1E-3", "1_000", "inf",
                             "-Infinity", "NaN", "007"})
    EXPECT_TRUE(readsAsNumber(number)) << number;
  for (const char* word : {"", ".", "-", "e5", "1e", "1_", "_1", "1__0", "9.0;", "(9.0)", "GPU",
                           "x1", "'1'", "0x10", "1.2.3", "infinite", "N/A", "v0.10"})
    EXPECT_FALSE(readsAsNumber(word)) << word;
}

TEST(Format, NumberTokensAreQuotedAndTheRestKept) {
  EXPECT_EQ(withoutNumberTokens("needs two GPUs with peer access; this system has 1 GPU"),
            "needs two GPUs with peer access; this system has '1' GPU");
  EXPECT_EQ(withoutNumberTokens("(compute capability 9.0 or later); GPU 1 is 8.0"),
            "(compute capability '9.0' or later); GPU '1' is '8.0'");
  EXPECT_EQ(withoutNumberTokens("bounce-buffer confidential computing enabled"),
            "bounce-buffer confidential computing enabled");
  EXPECT_EQ(withoutNumberTokens("  two  spaces 2\tand a tab "), "  two  spaces '2'\tand a tab ");
  for (const char* word : {"'1'", "'9.0'", "'inf'"}) EXPECT_FALSE(readsAsNumber(word));
}

TEST(Format, AlignedPadsToTheWidthAndKeepsLongerText) {
  EXPECT_EQ(rightAligned("12", 4), "  12");
  EXPECT_EQ(leftAligned("12", 4), "12  ");
  EXPECT_EQ(rightAligned("12345", 4), "12345");
  EXPECT_EQ(leftAligned("12345", 4), "12345");
  EXPECT_EQ(rightAligned("x", -1), "x");
}

}  // namespace test_format
}  // namespace nvbw
