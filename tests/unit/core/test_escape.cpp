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

}  // namespace test_escape
}  // namespace nvbw
