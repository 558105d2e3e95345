// The report files under the paths a command names: files as given, folders walked. Shared by
// every command that takes folders of reports. What a folder gives (sorted, hidden names and
// links to folders left out, every other "*.json" entry a report file) and what is listed as
// unreadable: docs/fleet.md, "Summary of a fleet". The walk holds one descriptor at a time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/stop_request.h"

namespace nvbw {

// A path that could not be used, and why ("cannot be listed: Permission denied").
struct UnreadablePath {
  std::string path;
  std::string reason;
};

struct FoundReports {
  // The files named (as given, in the order given) and, in the place of each folder, the report
  // files under it, sorted.
  std::vector<std::string> files;
  std::vector<UnreadablePath> unreadable;  // folders and entries, in the order the walk met them
};

// What one folder holds, as the walk needs it.
enum class EntryKind {
  Folder,
  LinkToFolder,
  Other,    // a file, a link to one, a link to nothing, a FIFO, a device
  Unknown,  // its kind could not be learnt (`error`)
};

struct FolderEntry {
  std::string name;
  EntryKind kind = EntryKind::Other;
  int error = 0;  // Unknown: the errno of the look-up
};

struct FolderListing {
  int error = 0;             // errno when the folder could not be opened or read to the end
  bool opened = false;       // error with opened: the entries are those read before it
  std::uint64_t device = 0;  // identity of the folder, for loops through bind mounts
  std::uint64_t inode = 0;
  std::vector<FolderEntry> entries;
};

// How the walk sees the file system; tests substitute one that fails where they choose.
class FolderReader {
 public:
  virtual ~FolderReader() = default;
  // Whether `path` is a folder (symbolic links followed).
  virtual bool isFolder(const std::string& path) const = 0;
  // The entries of the folder `path`, opened and read to the end before it is closed again.
  virtual FolderListing list(const std::string& path) const = 0;
};

// The file system itself.
const FolderReader& systemFolders();

// Throws Interrupted when `stop` reports a signal (asked before each folder is listed).
FoundReports findReports(const std::vector<std::string>& paths, const StopRequest& stop,
                         const FolderReader& folders = systemFolders());

}  // namespace nvbw
