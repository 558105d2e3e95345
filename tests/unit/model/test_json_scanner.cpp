// Parsing JSON from outside (the report model's scanner): documents as nlohmann reads them, but
// never deeper than the limit and with one-line reasons that quote nothing of the input.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "model/report_reader.h"
#include "model/report_writer.h"

namespace nvbw {
namespace test_json_scanner {

std::string problemOf(const std::string& text, std::size_t depth = 64) {
  try {
    parseJson(text, depth);
  } catch (const JsonInputError& e) {
    return e.what();
  }
  return "";
}

TEST(JsonScanner, BuildsTheSameDocumentAsTheLibrary) {
  const std::string text =
      R"({"a": [1, -2, 3.5, true, null, "x", {"b": [[], {}]}], "c": {"d": "\u0000e"}})";
  EXPECT_EQ(compactJson(parseJson(text, 64)), nlohmann::json::parse(text).dump());
}

// Every string value is an object of its own on the heap, however short: a document of short
// strings takes about 72 bytes for each of them, 18 times its text when they are "1".
TEST(JsonScanner, ShortStringsCountWhatTheyTake) {
  std::string text = "[\"1\"";
  for (int i = 0; i < 100000; ++i) text += ",\"1\"";
  text += "]";
  EXPECT_EQ(problemOf(text), "");
  try {
    parseJson(text, 64, 8 * text.size());
    ADD_FAILURE() << "a document of 18 times its text was taken within 8 times";
  } catch (const JsonInputError& e) {
    EXPECT_NE(std::string(e.what()).find("MiB of memory"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(parseJson(text, 64, 20 * text.size()));
}

TEST(JsonScanner, ScalarsAndTheLastOfRepeatedKeys) {
  EXPECT_EQ(parseJson("42", 1), Value(42));
  EXPECT_EQ(compactJson(parseJson(R"({"k": 1, "k": 2})", 64)), R"({"k":2})");
}

TEST(JsonScanner, DepthIsCountedFromTheDocument) {
  EXPECT_NO_THROW(parseJson("[[[]]]", 3));
  EXPECT_EQ(problemOf("[[[[]]]]", 3), "nested more than 3 levels deep");
  EXPECT_EQ(problemOf(R"({"a": {"b": {"c": {}}}})", 3), "nested more than 3 levels deep");
}

TEST(JsonScanner, AHundredThousandLevelsAreRefusedWithoutRecursion) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_EQ(problemOf(deep), "nested more than 64 levels deep");
  std::string objects;
  for (int i = 0; i < 100000; ++i) objects += "{\"a\":";
  objects += "1" + std::string(100000, '}');
  EXPECT_EQ(problemOf(objects), "nested more than 64 levels deep");
}

TEST(JsonScanner, NotJsonSaysWhereAndWhyWithoutQuotingTheInput) {
  const std::string truncated = problemOf("[1, 2");
  EXPECT_EQ(truncated.rfind("not JSON at byte ", 0), 0u) << truncated;
  EXPECT_NE(truncated.find("the text ends"), std::string::npos) << truncated;
  const std::string invalidUtf8 = problemOf("[\"\xff\x1b[31m\"]");
  EXPECT_NE(invalidUtf8.find("UTF-8"), std::string::npos) << invalidUtf8;
  EXPECT_EQ(invalidUtf8.find('\x1b'), std::string::npos);
  EXPECT_EQ(invalidUtf8.find("last read"), std::string::npos);
  EXPECT_NE(problemOf("1e400").find("number overflow"), std::string::npos);
  EXPECT_FALSE(problemOf("").empty());
  EXPECT_FALSE(problemOf("NaN").empty());
  EXPECT_FALSE(problemOf("{} {}").empty());
}

}  // namespace test_json_scanner
}  // namespace nvbw
