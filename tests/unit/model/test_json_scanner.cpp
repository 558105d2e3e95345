// Parsing JSON from outside (the report model's scanner): documents as nlohmann reads them, but
// never deeper than the limit and with one-line reasons that quote nothing of the input.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/json_scanner.h"
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

// A matrix read straight into cells (readNumberRows, readStringRows), else as a Value: the
// outcome, "" or the fault, for a memory budget of `budget`.
template <typename Rows, typename Read>
std::string matrixProblemOf(const std::string& text, std::size_t budget, Read read,
                            Rows* rows = nullptr, Value* value = nullptr) {
  try {
    JsonScanner scan(text, 64, budget);
    Rows scanned;
    if (!read(scan, scanned)) {
      const Value v = scan.readValue();
      if (value) *value = v;
    } else if (rows) {
      *rows = scanned;
    }
    scan.finish();
  } catch (const JsonInputError& e) {
    return e.what();
  }
  return "";
}

std::string numberMatrixProblemOf(const std::string& text, std::size_t budget,
                                  JsonScanner::NumberRows* rows = nullptr, Value* value = nullptr) {
  return matrixProblemOf(
      text, budget,
      [](JsonScanner& scan, JsonScanner::NumberRows& out) { return scan.readNumberRows(out); },
      rows, value);
}

std::string stringMatrixProblemOf(const std::string& text, std::size_t budget) {
  return matrixProblemOf<JsonScanner::StringRows>(
      text, budget,
      [](JsonScanner& scan, JsonScanner::StringRows& out) { return scan.readStringRows(out); });
}

std::string parseProblemOf(const std::string& text, std::size_t budget) {
  try {
    parseJson(text, 64, budget);
  } catch (const JsonInputError& e) {
    return e.what();
  }
  return "";
}

// The least memory budget that parseJson reads `text` within.
std::size_t leastBudget(const std::string& text) {
  std::size_t low = 0, high = 1 << 20;
  while (low < high) {
    const std::size_t mid = (low + high) / 2;
    if (parseProblemOf(text, mid).empty())
      high = mid;
    else
      low = mid + 1;
  }
  return low;
}

TEST(JsonScanner, AMatrixReadStraightIntoCellsHoldsWhatAValueWould) {
  JsonScanner::NumberRows rows;
  EXPECT_EQ(
      numberMatrixProblemOf(" [ [1, -0, 2.5e1], [null, 18446744073709551615, -3] ] ", -1, &rows),
      "");
  EXPECT_EQ(rows.rows, 2u);
  EXPECT_EQ(rows.cols, 3u);
  ASSERT_EQ(rows.cells.size(), 6u);
  const Value parsed = parseJson("[[1, -0, 2.5e1], [null, 18446744073709551615, -3]]");
  for (std::size_t i = 0; i < 6; ++i) {
    const Value& cell = parsed.items()[i / 3].items()[i % 3];
    if (cell.isNull()) {
      EXPECT_FALSE(rows.cells[i]) << i;
    } else {
      ASSERT_TRUE(rows.cells[i]) << i;
      EXPECT_EQ(*rows.cells[i], cell.asDouble()) << i;
      EXPECT_EQ(std::signbit(*rows.cells[i]), std::signbit(cell.asDouble())) << i;
    }
  }
  EXPECT_EQ(numberMatrixProblemOf("[]", -1, &rows), "");
  EXPECT_EQ(rows.rows, 0u);
  EXPECT_EQ(rows.cols, 0u);
}

// Whatever is not a plain matrix is left to readValue, which reads it from where it starts.
TEST(JsonScanner, WhatIsNoMatrixIsLeftWhereItWas) {
  for (const std::string text :
       {"[[1, 2], [3]]", "[[1], [2, 3]]", "[[1, \"x\"]]", "[[1], 2]", "[[[1]]]", "[[true]]",
        "{\"a\": 1}", "\"x\"", "7", "[[1, {}]]", "[[\"1\"], [2]]"}) {
    Value value;
    EXPECT_EQ(numberMatrixProblemOf(text, -1, nullptr, &value), "") << text;
    EXPECT_EQ(value, parseJson(text)) << text;
  }
  EXPECT_EQ(stringMatrixProblemOf("[[\"a\", \"\\u00e9\"], [\"b\", 5]]", -1), "");
}

// The same faults, where readValue meets them, and the same memory counted to the byte.
TEST(JsonScanner, AMatrixReadStraightIntoCellsFailsAsAValueWould) {
  for (const std::string text :
       {"[[1, 2], [3, 4]]", "[[1, 2], [3, 4]", "[[1, 2], [3, 4]] x", "[[1, 2] [3, 4]]",
        "[[1, 2], [3, 1e400]]", "[[1, 2], [3, nul]]", "[[1, 2], [3, -]]", "[[1, 2], [3, 4],",
        "[[1, [2]], [3, 4]]", "[[null, 1e-400], [0.5, 01]]"}) {
    EXPECT_EQ(numberMatrixProblemOf(text, -1), parseProblemOf(text, -1)) << text;
    const std::size_t least = leastBudget(text);
    for (std::size_t budget : {least - 1, least})
      EXPECT_EQ(numberMatrixProblemOf(text, budget), parseProblemOf(text, budget))
          << text << " within " << budget;
  }
  for (const std::string& text : std::vector<std::string>{
           "[[\"55.1\", \"N/A\"], [\"1\", \"2\"]]", "[[\"a\", \"b\"], [\"c\"]]",
           "[[\"a\", \"\\x\"]]", "[[\"a\", \"b\"]", "[[\"" + std::string(40, 'y') + "\"]]"}) {
    EXPECT_EQ(stringMatrixProblemOf(text, -1), parseProblemOf(text, -1)) << text;
    const std::size_t least = leastBudget(text);
    for (std::size_t budget : {least - 1, least})
      EXPECT_EQ(stringMatrixProblemOf(text, budget), parseProblemOf(text, budget))
          << text << " within " << budget;
  }
  // Nested as deeply as readValue allows, and no deeper.
  const std::string deep = "[[1]]";
  for (std::size_t depth : {1, 2}) {
    std::string viaRows, viaValue;
    try {
      JsonScanner scan(deep, depth);
      JsonScanner::NumberRows rows;
      scan.readNumberRows(rows);
    } catch (const JsonInputError& e) {
      viaRows = e.what();
    }
    EXPECT_EQ(viaRows, problemOf(deep, depth)) << depth;
  }
}

}  // namespace test_json_scanner
}  // namespace nvbw
