// The walk of report folders: what it takes and leaves out, and that a folder it cannot list (at
// any depth, for any reason) is unreadable with the reason while the walk goes on. A faked file
// system fails where each test chooses; the descriptor limit is met for real in a child process.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "core/error.h"
#include "model/report_files.h"
#include "temp_dir.h"

namespace nvbw {
namespace test_report_folders {

// Folders by path; what each lists, or the errno it fails with.
class FakeFolders final : public FolderReader {
 public:
  void folder(const std::string& path, std::vector<FolderEntry> entries, int error = 0,
              bool opened = true, std::uint64_t inode = 0) {
    FolderListing listing;
    listing.entries = std::move(entries);
    listing.error = error;
    listing.opened = opened;
    listing.inode = inode ? inode : ++nextInode_;
    folders_[path] = listing;
  }
  bool isFolder(const std::string& path) const override { return folders_.count(path) > 0; }
  FolderListing list(const std::string& path) const override {
    listed.push_back(path);
    const auto it = folders_.find(path);
    if (it != folders_.end()) return it->second;
    FolderListing gone;
    gone.error = ENOENT;
    return gone;
  }
  mutable std::vector<std::string> listed;

 private:
  std::map<std::string, FolderListing> folders_;
  std::uint64_t nextInode_ = 100;
};

FolderEntry dir(const std::string& name) { return {name, EntryKind::Folder, 0}; }
FolderEntry file(const std::string& name) { return {name, EntryKind::Other, 0}; }

std::vector<std::string> reasons(const FoundReports& found) {
  std::vector<std::string> out;
  for (const UnreadablePath& u : found.unreadable) out.push_back(u.path + ": " + u.reason);
  return out;
}

TEST(ReportFolders, FilesAsGivenFoldersWalkedSortedWithoutHiddenOnesOrLinksToFolders) {
  FakeFolders fs;
  fs.folder("fleet", {file("b.json"),
                      dir("rack"),
                      file("a.json"),
                      file(".a.json.Xy12ab"),
                      dir(".snapshot"),
                      {"up", EntryKind::LinkToFolder, 0},
                      file("notes.txt"),
                      file(".json"),
                      file("a.json5")});
  fs.folder("fleet/rack", {file("n.json"), {"link.json", EntryKind::Other, 0}});
  fs.folder("fleet/.snapshot", {file("old.json")});
  const FoundReports found = findReports({"x.json", "fleet", "-"}, {}, fs);
  EXPECT_EQ(found.files,
            (std::vector<std::string>{"x.json", "fleet/a.json", "fleet/b.json",
                                      "fleet/rack/link.json", "fleet/rack/n.json", "-"}));
  EXPECT_TRUE(found.unreadable.empty());
  EXPECT_EQ(fs.listed, (std::vector<std::string>{"fleet", "fleet/rack"}));
}

TEST(ReportFolders, AFolderThatCannotBeListedAtAnyDepthIsUnreadableAndTheWalkGoesOn) {
  FakeFolders fs;
  fs.folder("top/", {dir("a"), dir("b"), dir("c"), file("z.json")});
  fs.folder("top/a", {dir("deep")});
  fs.folder("top/a/deep", {dir("deeper"), file("d.json")});
  fs.folder("top/a/deep/deeper", {}, EMFILE, false);
  fs.folder("top/b", {}, EACCES, false);
  fs.folder("top/c", {file("c.json")});
  const FoundReports found = findReports({"top/"}, {}, fs);
  EXPECT_EQ(found.files,
            (std::vector<std::string>{"top/a/deep/d.json", "top/c/c.json", "top/z.json"}));
  EXPECT_EQ(reasons(found),
            (std::vector<std::string>{"top/a/deep/deeper: cannot be listed: Too many open files",
                                      "top/b: cannot be listed: Permission denied"}));
}

TEST(ReportFolders, EntriesThatVanishOrCannotBeReadToTheEndAreUnreadable) {
  FakeFolders fs;
  // "gone" was listed as a folder and removed before the walk got to it; "what" could not even
  // be looked at; "half" failed part way, after one entry.
  fs.folder("fleet", {dir("gone"),
                      {"what", EntryKind::Unknown, ENOENT},
                      {"r.json", EntryKind::Unknown, ENOENT},
                      dir("half")});
  fs.folder("fleet/half", {file("h.json")}, EIO, true);
  const FoundReports found = findReports({"fleet"}, {}, fs);
  // A report whose kind could not be learnt is still read: its reader says what is wrong.
  EXPECT_EQ(found.files, (std::vector<std::string>{"fleet/half/h.json", "fleet/r.json"}));
  EXPECT_EQ(reasons(found), (std::vector<std::string>{
                                "fleet/what: cannot be examined: No such file or directory",
                                "fleet/gone: cannot be listed: No such file or directory",
                                "fleet/half: cannot be listed completely: Input/output error"}));
}

TEST(ReportFolders, AFolderMetAgainThroughABindMountIsWalkedOnce) {
  FakeFolders fs;
  fs.folder("fleet", {dir("mirror"), file("a.json")}, 0, true, 7);
  fs.folder("fleet/mirror", {dir("mirror"), file("a.json")}, 0, true, 7);
  const FoundReports found = findReports({"fleet"}, {}, fs);
  EXPECT_EQ(found.files, std::vector<std::string>{"fleet/a.json"});
  EXPECT_TRUE(found.unreadable.empty());
}

TEST(ReportFolders, AStopRequestEndsTheWalk) {
  FakeFolders fs;
  fs.folder("fleet", {dir("a"), dir("b")});
  fs.folder("fleet/a", {});
  fs.folder("fleet/b", {});
  int asked = 0;
  const StopRequest stop = [&asked] { return ++asked > 2 ? SIGINT : 0; };
  EXPECT_THROW(findReports({"fleet"}, stop, fs), Interrupted);
  EXPECT_LT(fs.listed.size(), 3u);
}

// In a child process: every descriptor taken, the walk of `fleet` must say so. Exits 0 when it
// does.
void walkWithoutDescriptors(const std::string& fleet) {
  const rlimit limit{16, 16};
  setrlimit(RLIMIT_NOFILE, &limit);
  while (open("/dev/null", O_RDONLY) >= 0) {
  }
  const FoundReports starved = findReports({fleet}, {});
  const bool ok = starved.files.empty() && starved.unreadable.size() == 1 &&
                  starved.unreadable[0].path == fleet &&
                  starved.unreadable[0].reason == "cannot be listed: Too many open files";
  std::_Exit(ok ? 0 : 1);
}

// The real file system: links, hidden entries, and the descriptor limit met in a child process
// that has used up its descriptors.
TEST(ReportFolders, TheFileSystemItself) {
  test::TempDir dir("folders");
  dir.write("fleet/rack/b.json", "{}");
  dir.write("fleet/a.json", "{}");
  dir.write("fleet/.tmp/c.json", "{}");
  dir.write("fleet/readme.txt", "");
  std::filesystem::create_directory_symlink(dir / "fleet", dir / "fleet/rack/loop");
  std::filesystem::create_symlink(dir / "fleet/a.json", dir / "fleet/rack/l.json");
  std::filesystem::create_symlink(dir / "nothing", dir / "fleet/dangling.json");
  const FoundReports found = findReports({dir / "fleet"}, {});
  EXPECT_EQ(found.files,
            (std::vector<std::string>{dir / "fleet/a.json", dir / "fleet/dangling.json",
                                      dir / "fleet/rack/b.json", dir / "fleet/rack/l.json"}));
  EXPECT_TRUE(found.unreadable.empty());

  EXPECT_EXIT(walkWithoutDescriptors(dir / "fleet"), ::testing::ExitedWithCode(0), "");
}

}  // namespace test_report_folders
}  // namespace nvbw
