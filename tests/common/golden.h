// Golden files under tests/golden: compare output with them, or rewrite them with
// NVBW_UPDATE_GOLDEN=1 (review the diff before committing it).
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace nvbw::test {

inline const std::string kGolden = NVBW_GOLDEN_DIR;

inline std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << "cannot open " << path;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Compares with tests/golden/<name> (`name` may contain folders); NVBW_UPDATE_GOLDEN=1 writes
// `actual` there instead, creating the folders.
inline void expectGolden(const std::string& name, const std::string& actual) {
  const std::string path = kGolden + "/" + name;
  if (std::getenv("NVBW_UPDATE_GOLDEN")) {
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::ofstream(path, std::ios::binary) << actual;
    return;
  }
  EXPECT_EQ(actual, readFile(path)) << "differs from " << path;
}

}  // namespace nvbw::test
