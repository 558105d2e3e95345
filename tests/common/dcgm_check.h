// What DCGM's nvbandwidth plugin demands of a `-j -v` document before it reads anything from it:
// it takes the text from the first line holding only "{" to the last holding only "}", and
// rejects the whole report unless "CUDA Runtime Version" is an integer, "Driver Version" and
// "git_version" are strings, "testcases" is an array, every entry has a string name and status,
// and every bandwidth_matrix is a non-empty array of non-empty rows of numeric strings or "N/A".
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace nvbw::test {

inline std::string dcgmSlice(const std::string& text) {
  std::istringstream lines(text);
  std::string line, slice;
  bool inside = false;
  std::string pending;
  while (std::getline(lines, line)) {
    if (!inside && line == "{") inside = true;
    if (!inside) continue;
    pending += line + "\n";
    if (line == "}") {
      slice += pending;
      pending.clear();
    }
  }
  return slice;
}

inline bool isNumericString(const std::string& s) {
  if (s.empty()) return false;
  char* end = nullptr;
  std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size();
}

inline void expectDcgmAccepts(const std::string& text) {
  const std::string slice = dcgmSlice(text);
  ASSERT_FALSE(slice.empty()) << text;
  const nlohmann::json doc = nlohmann::json::parse(slice, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << slice;
  const nlohmann::json& root = doc["nvbandwidth"];
  EXPECT_TRUE(root["CUDA Runtime Version"].is_number_integer()) << slice;
  EXPECT_TRUE(root["Driver Version"].is_string()) << slice;
  EXPECT_TRUE(root["git_version"].is_string()) << slice;
  ASSERT_TRUE(root["testcases"].is_array()) << slice;
  for (const auto& t : root["testcases"]) {
    EXPECT_TRUE(t["name"].is_string()) << t;
    EXPECT_TRUE(t["status"].is_string()) << t;
    if (!t.contains("bandwidth_matrix")) continue;
    const auto& rows = t["bandwidth_matrix"];
    ASSERT_TRUE(rows.is_array() && !rows.empty()) << t;
    for (const auto& row : rows) {
      ASSERT_TRUE(row.is_array() && !row.empty()) << t;
      for (const auto& cell : row)
        EXPECT_TRUE(cell.is_string() && (cell == "N/A" || isNumericString(cell.get<std::string>())))
            << cell;
    }
  }
}

}  // namespace nvbw::test
