// A file under the test's temporary folder with a unique name, removed when it goes out of
// scope: holds `text` (a document to validate or parse), or nothing yet (a path a run writes).
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

namespace nvbw::test {

class TempFile {
 public:
  explicit TempFile(const std::string& stem, const std::string& text = "") {
    std::string pattern = ::testing::TempDir() + "nvbw_" + stem + "_XXXXXX";
    const int fd = mkstemp(pattern.data());
    EXPECT_GE(fd, 0) << "mkstemp: " << std::strerror(errno);
    if (fd >= 0) close(fd);
    path_ = pattern;
    std::ofstream(path_, std::ios::binary) << text;
  }
  ~TempFile() { std::remove(path_.c_str()); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }
  std::string read() const {
    std::ifstream in(path_, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

 private:
  std::string path_;
};

}  // namespace nvbw::test
