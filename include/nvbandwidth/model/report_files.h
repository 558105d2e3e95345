// Report files named on the command line, treated as hostile input and never lost; the rules
// are docs/report-files.md's. Reading (--compare, --baseline, --from) goes through the report
// reader (report_reader.h), every fault a ReportFileError naming the option and the file (a
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
#include "model/report.h"
#include "model/report_reader.h"

namespace nvbw {

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

}  // namespace nvbw
