#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>
#include <utility>

#include "core/text.h"
#include "model/report_files.h"

namespace nvbw {
namespace {

bool endsWithJson(const std::string& name) { return name.size() > 5 && endsWith(name, ".json"); }

std::string joined(const std::string& folder, const std::string& name) {
  return !folder.empty() && folder.back() == '/' ? folder + name : folder + "/" + name;
}

// Symbolic links followed: a link to nothing is no folder (its read says what is wrong).
bool isDirectory(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

EntryKind linkKind(const std::string& path) {
  return isDirectory(path) ? EntryKind::LinkToFolder : EntryKind::Other;
}

FolderEntry entryOf(const std::string& folder, const dirent& found) {
  FolderEntry entry;
  entry.name = found.d_name;
  const std::string path = joined(folder, entry.name);
  struct stat st {};
  if (found.d_type == DT_DIR) {
    entry.kind = EntryKind::Folder;
  } else if (found.d_type == DT_LNK) {
    entry.kind = linkKind(path);
  } else if (found.d_type != DT_UNKNOWN) {
    entry.kind = EntryKind::Other;
  } else if (::lstat(path.c_str(), &st) != 0) {  // the file system does not say: ask
    entry.kind = EntryKind::Unknown;
    entry.error = errno;
  } else {
    entry.kind = S_ISLNK(st.st_mode)   ? linkKind(path)
                 : S_ISDIR(st.st_mode) ? EntryKind::Folder
                                       : EntryKind::Other;
  }
  return entry;
}

class SystemFolders final : public FolderReader {
 public:
  bool isFolder(const std::string& path) const override { return isDirectory(path); }

  FolderListing list(const std::string& path) const override {
    FolderListing listing;
    DIR* dir = ::opendir(path.c_str());
    if (!dir) {
      listing.error = errno;
      return listing;
    }
    listing.opened = true;
    struct stat st {};
    if (::fstat(::dirfd(dir), &st) == 0) {
      listing.device = static_cast<std::uint64_t>(st.st_dev);
      listing.inode = static_cast<std::uint64_t>(st.st_ino);
    }
    for (;;) {
      errno = 0;
      const dirent* found = ::readdir(dir);
      if (!found) {
        listing.error = errno;
        break;
      }
      if (std::strcmp(found->d_name, ".") == 0 || std::strcmp(found->d_name, "..") == 0) continue;
      listing.entries.push_back(entryOf(path, *found));
    }
    ::closedir(dir);
    return listing;
  }
};

// Walks one folder named on the command line: its report files, sorted, and what it could not
// list.
class Walk {
 public:
  Walk(const FolderReader& folders, const StopRequest& stop, FoundReports& out)
      : folders_(folders), stop_(stop), out_(out) {}

  void run(const std::string& top) {
    std::vector<std::string> found;
    std::vector<std::string> pending = {top};
    while (!pending.empty()) {
      throwIfStopped(stop_);
      const std::string folder = std::move(pending.back());
      pending.pop_back();
      std::vector<std::string> below = visit(folder, found);
      // Depth first, in sorted order: the last pushed is visited first.
      pending.insert(pending.end(), std::make_move_iterator(below.rbegin()),
                     std::make_move_iterator(below.rend()));
    }
    std::sort(found.begin(), found.end());
    out_.files.insert(out_.files.end(), std::make_move_iterator(found.begin()),
                      std::make_move_iterator(found.end()));
  }

 private:
  // Lists `folder`: its report files into `found`; its folders are returned, sorted.
  std::vector<std::string> visit(const std::string& folder, std::vector<std::string>& found) {
    FolderListing listing = folders_.list(folder);
    if (!listing.opened) {
      unreadable(folder, "cannot be listed: " + std::string(std::strerror(listing.error)));
      return {};
    }
    // A folder met again (a bind mount of one above it): its reports are already found.
    if (!seen_.insert({listing.device, listing.inode}).second) return {};
    if (listing.error != 0)
      unreadable(folder,
                 "cannot be listed completely: " + std::string(std::strerror(listing.error)));
    std::sort(listing.entries.begin(), listing.entries.end(),
              [](const FolderEntry& a, const FolderEntry& b) { return a.name < b.name; });
    std::vector<std::string> below;
    for (const FolderEntry& entry : listing.entries) {
      if (startsWith(entry.name, ".")) continue;  // hidden
      std::string path = joined(folder, entry.name);
      if (entry.kind == EntryKind::Folder)
        below.push_back(std::move(path));
      else if (entry.kind == EntryKind::LinkToFolder)
        continue;  // not followed: no cycles
      else if (endsWithJson(entry.name))
        found.push_back(std::move(path));  // of an Unknown kind too: its reader says what is wrong
      else if (entry.kind == EntryKind::Unknown)  // it might have been a folder of reports
        unreadable(path, "cannot be examined: " + std::string(std::strerror(entry.error)));
    }
    return below;
  }

  void unreadable(const std::string& path, std::string reason) {
    out_.unreadable.push_back({path, std::move(reason)});
  }

  const FolderReader& folders_;
  const StopRequest& stop_;
  FoundReports& out_;
  std::set<std::pair<std::uint64_t, std::uint64_t>> seen_;
};

}  // namespace

const FolderReader& systemFolders() {
  static const SystemFolders folders;
  return folders;
}

FoundReports findReports(const std::vector<std::string>& paths, const StopRequest& stop,
                         const FolderReader& folders) {
  FoundReports found;
  for (const std::string& path : paths) {
    throwIfStopped(stop);
    if (path != "-" && folders.isFolder(path))
      Walk(folders, stop, found).run(path);
    else
      found.files.push_back(path);
  }
  return found;
}

}  // namespace nvbw
