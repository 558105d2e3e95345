// The report files under the paths a command names: files as given, folders walked. Shared by
// every command that takes folders of reports.
//
// A folder is read recursively in sorted order; hidden files and folders (names starting with
// '.', such as the temporary files OutputFile writes) are left out, and so are symbolic links to
// folders (no cycles). Every other entry whose name ends in ".json" is a report file, links to
// files and entries that are not regular files included (the reader refuses those, one by one).
// A folder that cannot be listed, at any depth and for any reason (permissions, the descriptor
// limit, a path longer than the system takes, an entry that vanished while the walk went on), is
// listed as unreadable with the reason, and the walk goes on with the rest: nothing is passed
// over in silence. The walk holds one descriptor at a time, whatever the depth.
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
