#include <ext/stdio_sync_filebuf.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "core/say_line.h"

namespace nvbw {
namespace test_say_line {

// A stream made as std::cerr is (an unbuffered FILE under a stdio_sync_filebuf) on one end of a
// socket that keeps the boundaries of writes (SOCK_SEQPACKET): each write(2) the stream makes
// arrives at the other end as one message.
class SeqpacketStream {
 public:
  SeqpacketStream() {
    if (::socketpair(AF_UNIX, SOCK_SEQPACKET, 0, fds_) != 0) return;
    file_ = ::fdopen(fds_[0], "w");
    if (file_ == nullptr) return;
    std::setvbuf(file_, nullptr, _IONBF, 0);
    buffer_ = std::make_unique<__gnu_cxx::stdio_sync_filebuf<char>>(file_);
    stream_ = std::make_unique<std::ostream>(buffer_.get());
  }
  ~SeqpacketStream() {
    stream_.reset();
    buffer_.reset();
    if (file_ != nullptr) std::fclose(file_);
    if (fds_[1] >= 0) ::close(fds_[1]);
  }
  bool ready() const { return stream_ != nullptr; }
  std::ostream& stream() { return *stream_; }
  // The messages written so far, one per write(2).
  std::vector<std::string> writes() {
    std::vector<std::string> seen;
    char buffer[4096];
    for (;;) {
      const ssize_t got = ::recv(fds_[1], buffer, sizeof buffer, MSG_DONTWAIT);
      if (got <= 0) break;
      seen.emplace_back(buffer, static_cast<std::size_t>(got));
    }
    return seen;
  }

 private:
  int fds_[2] = {-1, -1};
  std::FILE* file_ = nullptr;
  std::unique_ptr<__gnu_cxx::stdio_sync_filebuf<char>> buffer_;
  std::unique_ptr<std::ostream> stream_;
};

TEST(SayLine, TheLineAndItsNewlineAreOneWrite) {
  SeqpacketStream s;
  ASSERT_TRUE(s.ready());
  sayLine(s.stream(), "nvbandwidth: rank 0: no answer within 3 s: ending the run");
  EXPECT_EQ(s.writes(), std::vector<std::string>{
                            "nvbandwidth: rank 0: no answer within 3 s: ending the run\n"});
}

// What the test tells apart: the same line streamed in pieces is several writes, which another
// process's output can land between.
TEST(SayLine, StreamingInPiecesIsSeveralWrites) {
  SeqpacketStream s;
  ASSERT_TRUE(s.ready());
  s.stream() << "nvbandwidth: " << std::string("rank 0: no answer") << std::endl;
  EXPECT_GT(s.writes().size(), 1u);
}

TEST(SayLine, AnEmptyLineIsANewline) {
  SeqpacketStream s;
  ASSERT_TRUE(s.ready());
  sayLine(s.stream(), "");
  EXPECT_EQ(s.writes(), std::vector<std::string>{"\n"});
}

}  // namespace test_say_line
}  // namespace nvbw
