// Reading JSON from outside (model/json.h): documents as nlohmann/json reads them, but never
// deeper or denser than the limits, refused with one-line reasons that quote nothing of the input,
// and given up when a signal asks.
#include <gtest/gtest.h>

#include <csignal>
#include <string>

#include "core/error.h"
#include "model/json.h"

namespace nvbw {
namespace test_json_document {

std::string problemOf(const std::string& text, std::size_t depth = 64,
                      std::size_t budget = static_cast<std::size_t>(-1)) {
  try {
    parseJson(text, depth, budget);
  } catch (const JsonInputError& e) {
    return e.what();
  }
  return "";
}

TEST(JsonDocument, IsTheLibrarysDocumentWithTheLastOfRepeatedKeys) {
  const std::string text =
      "\xEF\xBB\xBF"
      R"({"a": [1, -2, 3.5, true, null, "x", {"b": [[], {}]}], "c": {"d": "\u0000e"}})";
  EXPECT_EQ(parseJson(text, 64), Json::parse(text));
  EXPECT_EQ(parseJson(R"({"k": 1, "k": 2})", 64).dump(), R"({"k":2})");
  EXPECT_EQ(parseJson("42", 1), Json(42));
}

// Every string value is an object of its own on the heap, however short: a document of short
// strings takes about 72 bytes for each of them, 18 times its text when they are "1".
TEST(JsonDocument, ShortStringsCountWhatTheyTake) {
  std::string text = "[\"1\"";
  for (int i = 0; i < 100000; ++i) text += ",\"1\"";
  text += "]";
  EXPECT_EQ(problemOf(text), "");
  const std::string dense = problemOf(text, 64, 8 * text.size());
  EXPECT_NE(dense.find("MiB of memory to hold"), std::string::npos) << dense;
  EXPECT_EQ(problemOf(text, 64, 20 * text.size()), "");
}

TEST(JsonDocument, DepthIsCountedFromTheDocument) {
  EXPECT_EQ(problemOf("[[[]]]", 3), "");
  EXPECT_EQ(problemOf("[[[[]]]]", 3), "nested more than 3 levels deep");
  EXPECT_EQ(problemOf(R"({"a": {"b": {"c": {}}}})", 3), "nested more than 3 levels deep");
}

TEST(JsonDocument, AHundredThousandLevelsAreRefusedWithoutRecursion) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_EQ(problemOf(deep), "nested more than 64 levels deep");
  std::string objects;
  for (int i = 0; i < 100000; ++i) objects += "{\"a\":";
  objects += "1" + std::string(100000, '}');
  EXPECT_EQ(problemOf(objects), "nested more than 64 levels deep");
}

TEST(JsonDocument, NotJsonSaysWhereAndWhyWithoutQuotingTheInput) {
  // One past the end where the text ends early; the byte at fault otherwise (1-based).
  EXPECT_EQ(problemOf("[1, 2"), "not JSON at byte 6: unexpected end of input; expected ']'");
  EXPECT_EQ(problemOf("# README"), "not JSON at byte 1: invalid literal");
  EXPECT_EQ(problemOf("{\"a\":1}x"), "not JSON at byte 8: invalid literal; expected end of input");
  const std::string invalidUtf8 = problemOf("[\"\xff\x1b[31m\"]");
  EXPECT_EQ(invalidUtf8, "not JSON at byte 3: invalid string: ill-formed UTF-8 byte");
  EXPECT_EQ(problemOf("[\"a\x1b\"]").find('\x1b'), std::string::npos);
  EXPECT_EQ(problemOf("[1e400]"), "not JSON at byte 6: number overflow");  // its last byte
  for (const char* text : {"", "NaN", "{} {}", "[1,]", "{\"a\" 1}", "\"\\ud800\""})
    EXPECT_EQ(problemOf(text).rfind("not JSON at byte ", 0), 0u) << text;
}

TEST(JsonDocument, ASignalStopsTheReading) {
  std::string text = "[0";
  for (int i = 0; i < 200000; ++i) text += ",0";
  text += "]";
  int asked = 0;
  const StopRequest stop = [&asked] { return ++asked == 2 ? SIGINT : 0; };
  EXPECT_THROW(parseJson(text, 64, static_cast<std::size_t>(-1), stop), Interrupted);
  EXPECT_EQ(asked, 2);  // asked while counting, every few thousand values
}

}  // namespace test_json_document
}  // namespace nvbw
