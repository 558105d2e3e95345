#include "multinode/fd_channel.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <random>
#include <thread>

#include "core/error.h"

namespace nvbw::multinode {

void CloseFd::operator()(int fd) const noexcept {
  if (fd >= 0) close(fd);
}

namespace {

// A one-byte message with room for one file descriptor (SCM_RIGHTS): what send and receive
// exchange. Not copyable: `message` points into the object.
struct FdMessage {
  explicit FdMessage(char first) : byte(first) {
    message.msg_iov = &payload;
    message.msg_iovlen = 1;
    message.msg_control = control;
    message.msg_controllen = sizeof control;
  }
  FdMessage(const FdMessage&) = delete;
  FdMessage& operator=(const FdMessage&) = delete;

  char byte;
  iovec payload{&byte, 1};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  msghdr message{};
};

Error socketError(const std::string& what) {
  return Error("passing a memory handle between processes: " + what + ": " + std::strerror(errno));
}

// An abstract socket address: no file to create or clean up, gone with the process.
sockaddr_un abstractAddress(const std::string& name, socklen_t& length) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const std::size_t n = std::min(name.size(), sizeof(address.sun_path) - 2);
  std::memcpy(address.sun_path + 1, name.data(), n);
  length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + n);
  return address;
}

FileDescriptor unixSocket() {
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw socketError("socket");
  return FileDescriptor(fd, CloseFd{});
}

}  // namespace

FdChannel::FdChannel(Communicator& comm, std::chrono::seconds timeout)
    : rank_(comm.rank()), timeout_(timeout) {
  std::random_device random;
  session_ = fromRankZero(comm, std::to_string(getpid()) + "." + std::to_string(random()));
  for (const std::string& pid : comm.allGather(std::to_string(getpid())))
    pids_.push_back(std::stol(pid));
  listening_ = unixSocket();
  socklen_t length = 0;
  const sockaddr_un address = abstractAddress(socketName(rank_), length);
  std::optional<std::string> problem;
  if (bind(listening_.get(), reinterpret_cast<const sockaddr*>(&address), length) != 0 ||
      listen(listening_.get(), 16) != 0)
    problem = std::string("cannot listen on a Unix-domain socket: ") + std::strerror(errno);
  if (const auto agreed = agreeOnProblem(comm, problem)) throw Error(*agreed);
}

std::string FdChannel::socketName(int rank) const {
  return "nvbandwidth." + session_ + "." + std::to_string(rank);
}

void FdChannel::send(int to, int fd) {
  const FileDescriptor connection = unixSocket();
  socklen_t length = 0;
  const sockaddr_un address = abstractAddress(socketName(to), length);
  const auto start = std::chrono::steady_clock::now();
  // The receiver listens from the start of the run; retry briefly in case of a slow start.
  while (connect(connection.get(), reinterpret_cast<const sockaddr*>(&address), length) != 0) {
    if (std::chrono::steady_clock::now() - start > timeout_)
      throw socketError("connecting to rank " + std::to_string(to));
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  FdMessage sent('m');
  cmsghdr* header = CMSG_FIRSTHDR(&sent.message);
  header->cmsg_level = SOL_SOCKET;
  header->cmsg_type = SCM_RIGHTS;
  header->cmsg_len = CMSG_LEN(sizeof(int));
  std::memcpy(CMSG_DATA(header), &fd, sizeof(int));
  if (sendmsg(connection.get(), &sent.message, MSG_NOSIGNAL) != 1)
    throw socketError("sending to rank " + std::to_string(to));
}

FileDescriptor FdChannel::receive(int from) {
  pollfd ready{listening_.get(), POLLIN, 0};
  const int timeoutMs =
      static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(timeout_).count());
  const int polled = poll(&ready, 1, timeoutMs);
  if (polled <= 0) {
    if (polled == 0) errno = ETIMEDOUT;
    throw socketError("waiting for rank " + std::to_string(from));
  }
  const FileDescriptor connection(accept4(listening_.get(), nullptr, nullptr, SOCK_CLOEXEC),
                                  CloseFd{});
  if (connection.get() < 0) throw socketError("accepting a connection");
  // Only the expected rank of this run may hand us memory.
  ucred peer{};
  socklen_t size = sizeof peer;
  if (getsockopt(connection.get(), SOL_SOCKET, SO_PEERCRED, &peer, &size) != 0 ||
      peer.uid != getuid() || peer.pid != pids_.at(static_cast<std::size_t>(from)))
    throw Error("a process other than rank " + std::to_string(from) +
                " connected to this run's socket");
  FdMessage received(0);
  if (recvmsg(connection.get(), &received.message, MSG_CMSG_CLOEXEC) != 1)
    throw socketError("receiving from rank " + std::to_string(from));
  const cmsghdr* header = CMSG_FIRSTHDR(&received.message);
  if (!header || header->cmsg_type != SCM_RIGHTS)
    throw Error("rank " + std::to_string(from) + " sent no file descriptor");
  int fd = -1;
  std::memcpy(&fd, CMSG_DATA(header), sizeof(int));
  return FileDescriptor(fd, CloseFd{});
}

}  // namespace nvbw::multinode
