// Report files: what the reader refuses (and how it says so), and how the writer keeps what it
// must not replace and leaves nothing partial behind.
#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <fstream>
#include <set>
#include <string>

#include "model/report_files.h"
#include "temp_file.h"

namespace nvbw {
namespace test_report_files {

using test::TempFile;

const std::string kGolden = std::string(NVBW_GOLDEN_DIR) + "/fleet/fake_base.json";

std::string refusal(const std::string& path, ReportKind kind = ReportKind::Run) {
  try {
    readReport({"--baseline", path}, ReadOptions{kind}, {});
  } catch (const ReportFileError& e) {
    return e.what();
  }
  return "";
}

// A fresh directory under the test's temporary folder, removed with what it holds.
class TempDir {
 public:
  TempDir() {
    std::string pattern = ::testing::TempDir() + "nvbw_dir_XXXXXX";
    path_ = ::mkdtemp(pattern.data());
  }
  ~TempDir() {
    for (const std::string& name : entries()) std::remove((path_ + "/" + name).c_str());
    ::rmdir(path_.c_str());
  }
  const std::string& path() const { return path_; }
  std::set<std::string> entries() const {
    std::set<std::string> names;
    if (DIR* dir = ::opendir(path_.c_str())) {
      while (const dirent* e = ::readdir(dir))
        if (std::string(e->d_name) != "." && std::string(e->d_name) != "..")
          names.insert(e->d_name);
      ::closedir(dir);
    }
    return names;
  }

 private:
  std::string path_;
};

std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

TEST(ReadReport, AReportIsReadWhole) {
  const Report report = readReport({"--from", kGolden}, ReadOptions{ReportKind::Run}, {});
  ASSERT_TRUE(report.testcases.has_value());
  EXPECT_FALSE(report.testcases->empty());
}

TEST(ReadReport, EveryRefusalNamesTheOptionAndTheFile) {
  const std::string missing = refusal("/nonexistent/report.json");
  EXPECT_EQ(missing, "--baseline '/nonexistent/report.json': No such file or directory");
  EXPECT_NE(refusal(::testing::TempDir()).find("is a directory"), std::string::npos);
  EXPECT_NE(refusal("/dev/zero").find("is a character device"), std::string::npos);
  EXPECT_NE(refusal("/dev/null").find("is a character device"), std::string::npos);
  TempFile empty("empty");
  EXPECT_NE(refusal(empty.path()).find("is empty"), std::string::npos);
  TempFile text("text", "Running host_to_device_memcpy_ce.\n");
  EXPECT_NE(refusal(text.path()).find("not JSON at byte"), std::string::npos);
  TempFile list("list", R"({"nvbandwidth": {"testcases": [{"name": "x", "index": 0}]}})");
  EXPECT_NE(refusal(list.path()).find("not a usable report"), std::string::npos);
}

TEST(ReadReport, AFifoIsRefusedWithoutWaitingForAWriter) {
  TempDir dir;
  const std::string fifo = dir.path() + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_NE(refusal(fifo).find("is a FIFO"), std::string::npos);
}

TEST(ReadReport, TooLargeIsRefusedBeforeReading) {
  TempFile big("big");
  ASSERT_EQ(::truncate(big.path().c_str(), static_cast<off_t>(kMaxReportBytes) + 1), 0);
  EXPECT_NE(refusal(big.path()).find("reports larger than 256 MiB are not read"), std::string::npos)
      << refusal(big.path());
}

TEST(ReadReport, DeepNestingIsRefused) {
  TempFile deep("deep", R"({"nvbandwidth": {"testcases": [], "settings": )" +
                            std::string(1000, '[') + std::string(1000, ']') + "}}");
  EXPECT_NE(refusal(deep.path()).find("nested more than 64 levels deep"), std::string::npos);
}

TEST(ReadReport, AStopRequestEndsTheRead) {
  EXPECT_THROW(
      readReport({"--from", kGolden}, ReadOptions{ReportKind::Run}, [] { return SIGTERM; }),
      Interrupted);
}

TEST(OutputFile, WritesTheWholeTextAndLeavesNoTemporaryFile) {
  TempDir dir;
  const std::string target = dir.path() + "/page.html";
  OutputFile({"--html", target}, {}).write("<html/>\n");
  EXPECT_EQ(contents(target), "<html/>\n");
  EXPECT_EQ(dir.entries(), std::set<std::string>{"page.html"});
  OutputFile({"--html", target}, {}).write("second\n");
  EXPECT_EQ(contents(target), "second\n");
  EXPECT_EQ(dir.entries(), std::set<std::string>{"page.html"});
}

TEST(OutputFile, ThroughASymlinkTheFileItPointsAtIsReplaced) {
  TempDir dir;
  const std::string real = dir.path() + "/real.html", link = dir.path() + "/link.html";
  std::ofstream(real) << "old";
  ASSERT_EQ(::symlink(real.c_str(), link.c_str()), 0);
  OutputFile({"--html", link}, {}).write("new");
  EXPECT_EQ(contents(real), "new");
  struct stat st {};
  ASSERT_EQ(::lstat(link.c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
}

TEST(OutputFile, NeverAFileTheCommandReads) {
  TempDir dir;
  const std::string report = dir.path() + "/report.json";
  std::ofstream(report) << contents(kGolden);
  const std::string symlink = dir.path() + "/via_link.json", hard = dir.path() + "/hard.json";
  ASSERT_EQ(::symlink(report.c_str(), symlink.c_str()), 0);
  ASSERT_EQ(::link(report.c_str(), hard.c_str()), 0);
  const std::vector<NamedFile> inputs = {{"--from", report}};
  for (const std::string& target : {report, symlink, hard}) {
    try {
      OutputFile({"--html", target}, inputs);
      ADD_FAILURE() << target << " was accepted";
    } catch (const ReportFileError& e) {
      EXPECT_NE(std::string(e.what()).find("which this command reads"), std::string::npos)
          << e.what();
    }
  }
  EXPECT_EQ(contents(report), contents(kGolden));
}

// Inputs found after the targets were checked (the reports of a folder) are refused alike.
TEST(OutputFile, AnInputLearntOfLaterIsRefusedToo) {
  TempDir dir;
  const std::string report = dir.path() + "/report.json", hard = dir.path() + "/hard.json";
  std::ofstream(report) << contents(kGolden);
  ASSERT_EQ(::link(report.c_str(), hard.c_str()), 0);
  const OutputFile target({"--output", report}, {});
  EXPECT_THROW(target.refuseIfReads({"--summarize", hard}), ReportFileError);
  EXPECT_NO_THROW(target.refuseIfReads({"--summarize", kGolden}));
  const OutputFile fresh({"--output", dir.path() + "/new.json"}, {});
  EXPECT_NO_THROW(fresh.refuseIfReads({"--summarize", report}));
  ::unlink(hard.c_str());
}

TEST(OutputFile, TwoTargetsOfOneFileAreTheSameFile) {
  TempDir dir;
  const std::string report = dir.path() + "/report.json", link = dir.path() + "/link.json";
  std::ofstream(report) << "{}";
  ASSERT_EQ(::symlink(report.c_str(), link.c_str()), 0);
  const OutputFile a({"--html", dir.path() + "/new.html"}, {});
  EXPECT_TRUE(a.sameFileAs(OutputFile({"--output", dir.path() + "/./new.html"}, {})));
  EXPECT_FALSE(a.sameFileAs(OutputFile({"--output", dir.path() + "/other.html"}, {})));
  EXPECT_TRUE(OutputFile({"--html", report}, {}).sameFileAs(OutputFile({"--output", link}, {})));
}

TEST(OutputFile, AFailedWriteLeavesNothingBehind) {
  // In a child: a file-size limit below the text (SIGXFSZ ignored, as SignalStop does), so the
  // write fails with EFBIG half way.
  TempDir dir;
  const std::string target = dir.path() + "/page.html";
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{4096, 4096};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    try {
      OutputFile({"--html", target}, {}).write(std::string(1 << 20, 'x'));
    } catch (const FileWriteError& e) {
      ::_exit(std::string(e.what()).find("File too large") != std::string::npos ? 0 : 2);
    }
    ::_exit(1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_TRUE(dir.entries().empty());
}

TEST(OutputFile, TargetsThatCannotBeWrittenAreRefusedUpFront) {
  EXPECT_THROW(OutputFile({"--html", "/nonexistent/dir/page.html"}, {}), ReportFileError);
  EXPECT_THROW(OutputFile({"--html", ::testing::TempDir()}, {}), ReportFileError);
  EXPECT_THROW(OutputFile({"--html", "/dev/null"}, {}), ReportFileError);
  EXPECT_THROW(OutputFile({"--html", "-"}, {}), ReportFileError);
}

}  // namespace test_report_files
}  // namespace nvbw
