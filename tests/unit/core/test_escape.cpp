#include <gtest/gtest.h>

#include "core/escape.h"

namespace nvbw {
namespace test_escape {

TEST(Escape, ControlCharactersBecomeVisible) {
  EXPECT_EQ(escapeForTerminal("a\nb\tc\rd"), "a\\nb\\tc\\rd");
  EXPECT_EQ(escapeForTerminal(std::string("x\0y", 3)), "x\\x00y");
  EXPECT_EQ(escapeForTerminal("\x1b[31mred"), "\\x1b[31mred");
  EXPECT_EQ(escapeForTerminal("\x7f\xc3\xa9"), "\\x7f\\xc3\\xa9");
}

TEST(Escape, PrintableTextIsUnchanged) {
  EXPECT_EQ(escapeForTerminal("--bufferSize=64 'quoted' \\ ok"), "--bufferSize=64 'quoted' \\ ok");
}

TEST(Escape, LongTextIsCutAndItsLengthGiven) {
  const std::string huge(100000, 'x');
  const std::string shown = escapeForTerminal(huge, 300);
  EXPECT_EQ(shown, std::string(300, 'x') + "... (100000 bytes)");
}

TEST(Escape, QuotedArgumentIsShortAndEscaped) {
  EXPECT_EQ(quotedArgument("12\n3"), "'12\\n3'");
  const std::string quoted = quotedArgument(std::string(1000, 'a'));
  EXPECT_EQ(quoted, "'" + std::string(64, 'a') + "... (1000 bytes)'");
}

TEST(Escape, Utf8SequencesAreWellFormedOnesOnly) {
  char32_t cp = 0;
  EXPECT_EQ(utf8Sequence("a", 0, cp), 1u);
  EXPECT_EQ(cp, U'a');
  EXPECT_EQ(utf8Sequence("\xc3\xa9", 0, cp), 2u);
  EXPECT_EQ(cp, U'\u00e9');
  EXPECT_EQ(utf8Sequence("\xe2\x80\xa8", 0, cp), 3u);
  EXPECT_EQ(cp, U'\u2028');
  EXPECT_EQ(utf8Sequence("\xf0\x9f\x98\x80", 0, cp), 4u);
  EXPECT_EQ(cp, U'\U0001F600');
  for (const char* bad : {"\xc0\xaf", "\xe0\x80\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xc3",
                          "\xc3(", "\x80", "\xff"})
    EXPECT_EQ(utf8Sequence(bad, 0, cp), 0u) << bad;
  EXPECT_TRUE(isControlCharacter(0x1b) && isControlCharacter(0x7f) && isControlCharacter(0x85));
  EXPECT_FALSE(isControlCharacter(U' ') || isControlCharacter(0xa0) || isControlCharacter(0x2028));
}

}  // namespace test_escape
}  // namespace nvbw
