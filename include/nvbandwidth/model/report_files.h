// Report files named on the command line, treated as hostile input and never lost; the rules
// are docs/report-files.md's. Reading (--compare, --baseline, --from) goes through the report
// reader (readReportText, below), every fault a ReportFileError naming the option and the file (a
// usage error: exit 2). Writing (--html, --metrics, --output) goes through OutputFile: the target
// checked before anything runs (refuseIfReads), the text renamed into place only when complete.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/stop_request.h"
#include "model/json.h"
#include "model/report.h"
#include "model/report_limits.h"

namespace nvbw {

// The one reader of report documents: the text of a saved report (this tool's, every layout it
// has written; upstream v0.8's and v0.10's) read into a Report as hostile input. What a report must
// be, its limits and how a fault is refused: docs/report-files.md, "Reading". A text that is not
// JSON within the limits is refused with JsonInputError (its first fault: the text is read to its
// end before the report is checked); one that is JSON but not a usable report with
// ReportShapeError, whose message says where ("nvbandwidth.testcases[3] (\"key\").values[0][1]")
// and what is wrong; Interrupted when `stop` reports a signal (asked every entry and matrix row).
Report readReportText(const std::string& text, const ReadOptions& options = {},
                      const StopRequest& stop = {});

// A file an option names: {"--baseline", "base.json"}.
struct NamedFile {
  std::string option;
  std::string path;
  // "--baseline 'base.json'", escaped for one line.
  std::string label() const;
};

// A named file cannot be used: the message names it and says why. Exit status 2.
class ReportFileError : public UsageError {
 public:
  using UsageError::UsageError;
};

// A file could not be written (exit status 1).
class FileWriteError : public Error {
 public:
  using Error::Error;
};

// The bytes of the file (or of standard input for "-"). Throws ReportFileError, or Interrupted.
std::string readReportBytes(const NamedFile& file, const StopRequest& stop);

// Reads the report in `file` and hands its text to `parse` (readReportText, or a reader of its own
// such as the fleet summary's): an empty file, or a JsonInputError or ReportShapeError that `parse`
// throws, becomes the ReportFileError that readReport's message names. Throws Interrupted too.
void parseReportFile(const NamedFile& file, const StopRequest& stop,
                     const std::function<void(const std::string& text)>& parse);

// Reads a report. Throws ReportFileError ("<label>: not JSON at byte ...", "<label>: not a usable
// report: ..."), or Interrupted.
Report readReport(const NamedFile& file, const ReadOptions& options, const StopRequest& stop);

// A file the command will write. The constructor checks the target and throws ReportFileError
// when it cannot or must not be written (`inputs`: the files this command reads).
class OutputFile {
 public:
  OutputFile(NamedFile target, const std::vector<NamedFile>& inputs);
  // Throws ReportFileError when the target is the file `input` names, by device and inode (so
  // through symbolic and hard links). For the inputs a command learns of later than its targets:
  // the reports a folder holds.
  void refuseIfReads(const NamedFile& input) const;
  // Whether `other` would write the same file (an existing one by device and inode, a new one by
  // its folder and name).
  bool sameFileAs(const OutputFile& other) const;
  // Writes `text` completely to a temporary file beside the target, then renames it over the
  // target. Throws FileWriteError (nothing is left behind).
  void write(const std::string& text) const;
  // The same for a text in pieces, written one after the other (never joined in memory).
  void write(const std::vector<std::string>& pieces) const;
  const NamedFile& target() const { return target_; }

 private:
  void writePieces(const std::vector<std::string_view>& pieces) const;

  NamedFile target_;
  std::string path_;  // where the file goes: the target, or what a symlink target points to
  dev_t folderDevice_ = 0;
  ino_t folderInode_ = 0;
};

// ---- Finding them (report_folders.cpp) ----

// The report files under the paths a command names: files as given, folders walked. Shared by
// every command that takes folders of reports. What a folder gives (sorted, hidden names and
// links to folders left out, every other "*.json" entry a report file) and what is listed as
// unreadable: docs/fleet.md, "Summary of a fleet". The walk holds one descriptor at a time.
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
