#include "model/report_files.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#include "core/escape.h"
#include "core/unique_handle.h"

namespace nvbw {

std::string NamedFile::label() const { return option + " " + quotedArgument(path); }

namespace {

constexpr int kPollIntervalMs = 200;
constexpr std::size_t kChunkBytes = 1 << 16;

[[noreturn]] void refuse(const NamedFile& file, const std::string& why) {
  throw ReportFileError(file.label() + ": " + why);
}

std::string errnoText(int error) { return std::strerror(error); }

std::string mebibytes(std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

// What a file that is not a regular file is, for the message.
const char* fileKind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

struct CloseFile {
  void operator()(int fd) const noexcept { ::close(fd); }
};
using OwnedFile = UniqueHandle<int, CloseFile>;

// Opens a regular file without ever blocking: stat first (a FIFO is refused before any open
// could wait for a writer), O_NONBLOCK in case it was swapped for one since, then the opened
// file checked again.
OwnedFile openRegularFile(const NamedFile& file, std::uint64_t& size) {
  struct stat before {};
  if (::stat(file.path.c_str(), &before) != 0) refuse(file, errnoText(errno));
  if (!S_ISREG(before.st_mode))
    refuse(file, std::string("is ") + fileKind(before.st_mode) +
                     ", not a report file (use - to read standard input)");
  if (static_cast<std::uint64_t>(before.st_size) > kMaxReportBytes)
    refuse(file, "is " + mebibytes(before.st_size) + "; reports larger than " +
                     mebibytes(kMaxReportBytes) + " are not read");
  const int opened = ::open(file.path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (opened < 0) refuse(file, errnoText(errno));
  OwnedFile fd(opened, CloseFile{});
  struct stat now {};
  if (::fstat(opened, &now) != 0 || !S_ISREG(now.st_mode) || now.st_ino != before.st_ino ||
      now.st_dev != before.st_dev)
    refuse(file, "changed while it was being opened");
  ::fcntl(opened, F_SETFL, ::fcntl(opened, F_GETFL) & ~O_NONBLOCK);
  size = static_cast<std::uint64_t>(now.st_size);
  return fd;
}

// Waits until `fd` has something to read (or has hung up), asking `stop` every interval: a
// pipe nobody writes to must not hold the process past a signal.
void awaitInput(int fd, const StopRequest& stop) {
  for (;;) {
    throwIfStopped(stop);
    pollfd watch{fd, POLLIN, 0};
    const int ready = ::poll(&watch, 1, kPollIntervalMs);
    if (ready > 0 || (ready < 0 && errno != EINTR)) return;  // read() tells what it was
  }
}

std::string readAll(const NamedFile& file, int fd, std::uint64_t expected,
                    const StopRequest& stop) {
  std::string text;
  text.reserve(static_cast<std::size_t>(expected));
  std::vector<char> chunk(kChunkBytes);
  for (;;) {
    awaitInput(fd, stop);
    const ssize_t n = ::read(fd, chunk.data(), chunk.size());
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      refuse(file, "cannot be read: " + errnoText(errno));
    }
    if (n == 0) return text;
    if (text.size() + static_cast<std::size_t>(n) > kMaxReportBytes)
      refuse(file,
             "holds more than " + mebibytes(kMaxReportBytes) + "; reports that large are not read");
    text.append(chunk.data(), static_cast<std::size_t>(n));
  }
}

// The file's device and inode, following symlinks; false when it does not exist.
bool identity(const NamedFile& file, struct stat& st) {
  if (file.path == "-") return ::fstat(STDIN_FILENO, &st) == 0;
  return ::stat(file.path.c_str(), &st) == 0;
}

std::string directoryOf(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string baseNameOf(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// A temporary file that is removed unless it was renamed into place.
class TemporaryFile {
 public:
  TemporaryFile(const NamedFile& target, const std::string& path)
      : target_(target), name_(directoryOf(path) + "/." + baseNameOf(path) + ".XXXXXX") {
    fd_ = ::mkstemp(name_.data());
    if (fd_ < 0) fail("cannot create a temporary file beside it");
  }
  ~TemporaryFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!renamed_) ::unlink(name_.c_str());
  }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;

  void write(const std::vector<std::string_view>& pieces, mode_t mode) {
    if (::fchmod(fd_, mode) != 0) fail("cannot set its permissions");
    for (const std::string_view text : pieces)
      for (std::size_t done = 0; done < text.size();) {
        const ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) fail("cannot be written");
        done += static_cast<std::size_t>(n);
      }
    if (::fsync(fd_) != 0) fail("cannot be written");
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) fail("cannot be written");
  }
  void renameTo(const std::string& path) {
    if (::rename(name_.c_str(), path.c_str()) != 0) fail("cannot be put in place");
    renamed_ = true;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw FileWriteError(target_.label() + ": " + what + ": " + errnoText(errno));
  }

  const NamedFile& target_;
  std::string name_;
  int fd_ = -1;
  bool renamed_ = false;
};

// New files get what the umask allows of rw-rw-rw-, as a plain open would give them.
mode_t newFileMode() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

}  // namespace

std::string readReportBytes(const NamedFile& file, const StopRequest& stop) {
  if (file.path == "-") return readAll(file, STDIN_FILENO, 0, stop);
  std::uint64_t size = 0;
  const OwnedFile fd = openRegularFile(file, size);
  return readAll(file, fd.get(), size, stop);
}

void parseReportFile(const NamedFile& file, const StopRequest& stop,
                     const std::function<void(const std::string& text)>& parse) {
  const std::string text = readReportBytes(file, stop);
  if (text.empty()) refuse(file, "is empty, not a report");
  throwIfStopped(stop);
  try {
    parse(text);
  } catch (const JsonInputError& e) {
    refuse(file, e.what());
  } catch (const ReportShapeError& e) {
    refuse(file, std::string("not a usable report: ") + e.what());
  }
}

Report readReport(const NamedFile& file, const ReadOptions& options, const StopRequest& stop) {
  Report report;
  parseReportFile(file, stop,
                  [&](const std::string& text) { report = readReportText(text, options, stop); });
  return report;
}

OutputFile::OutputFile(NamedFile target, const std::vector<NamedFile>& inputs)
    : target_(std::move(target)), path_(target_.path) {
  if (path_ == "-") refuse(target_, "name a file (standard output carries the report)");
  struct stat st {};
  if (::lstat(path_.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    // Replace what the link points at, not the link.
    char* real = ::realpath(path_.c_str(), nullptr);
    if (!real) refuse(target_, "is a symbolic link to nothing that can be written");
    path_ = real;
    std::free(real);
  }
  if (::stat(path_.c_str(), &st) == 0) {
    if (!S_ISREG(st.st_mode))
      refuse(target_, std::string("is ") + fileKind(st.st_mode) + ", not a file to write");
    for (const NamedFile& input : inputs) refuseIfReads(input);
  } else if (errno != ENOENT) {
    refuse(target_, errnoText(errno));
  }
  const std::string directory = directoryOf(path_);
  struct stat dir {};
  if (::stat(directory.c_str(), &dir) != 0)
    refuse(target_, "its directory " + quotedArgument(directory) + ": " + errnoText(errno));
  if (!S_ISDIR(dir.st_mode)) refuse(target_, quotedArgument(directory) + " is not a directory");
  folderDevice_ = dir.st_dev;
  folderInode_ = dir.st_ino;
  // The only sure test: make the temporary file now (and remove it), before anything runs.
  std::string probe = directory + "/." + baseNameOf(path_) + ".XXXXXX";
  const int fd = ::mkstemp(probe.data());
  if (fd < 0) refuse(target_, "its directory cannot be written: " + errnoText(errno));
  ::close(fd);
  ::unlink(probe.c_str());
}

void OutputFile::refuseIfReads(const NamedFile& input) const {
  struct stat target {};
  struct stat read {};
  if (::stat(path_.c_str(), &target) == 0 && identity(input, read) &&
      read.st_dev == target.st_dev && read.st_ino == target.st_ino)
    refuse(target_, "is " + input.label() + ", which this command reads: it would be lost");
}

bool OutputFile::sameFileAs(const OutputFile& other) const {
  struct stat mine {};
  struct stat theirs {};
  if (::stat(path_.c_str(), &mine) == 0 && ::stat(other.path_.c_str(), &theirs) == 0)
    return mine.st_dev == theirs.st_dev && mine.st_ino == theirs.st_ino;
  return folderDevice_ == other.folderDevice_ && folderInode_ == other.folderInode_ &&
         baseNameOf(path_) == baseNameOf(other.path_);
}

void OutputFile::write(const std::string& text) const { writePieces({text}); }

void OutputFile::write(const std::vector<std::string>& pieces) const {
  writePieces(std::vector<std::string_view>(pieces.begin(), pieces.end()));
}

void OutputFile::writePieces(const std::vector<std::string_view>& pieces) const {
  struct stat existing {};
  const mode_t mode =
      ::stat(path_.c_str(), &existing) == 0 ? (existing.st_mode & 07777) : newFileMode();
  TemporaryFile file(target_, path_);
  file.write(pieces, mode);
  file.renameTo(path_);
}

}  // namespace nvbw
