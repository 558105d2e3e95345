// The world of the multinode build: the MPI ranks, one process per GPU. Only rank 0 prints.
#include <iostream>
#include <streambuf>

#include "app/world.h"
#include "multinode/mpi/mpi_communicator.h"
#include "multinode/mpi/mpi_platform.h"

namespace nvbw {
namespace {

// Accepts and drops everything: the reports of ranks other than 0.
class DiscardingBuffer final : public std::streambuf {
 protected:
  int_type overflow(int_type c) override { return traits_type::not_eof(c); }
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

class MpiWorld final : public World {
 public:
  MpiWorld(int& argc, char**& argv)
      : session_(argc, argv), comm_(multinode::collectiveTimeout()), discard_(&discardBuffer_) {}

  Communicator& comm() override { return comm_; }
  std::ostream& out() override { return comm_.rank() == 0 ? std::cout : discard_; }
  std::ostream& err() override { return comm_.rank() == 0 ? std::cerr : discard_; }
  PlatformFactory platform() override {
    return [this](const PlatformStart&) { return multinode::openMpiPlatform(comm_); };
  }
  RegistryScope registryScope() const override { return RegistryScope::WithMultinode; }
  void watchStop(StopRequest stop) override { comm_.watchStop(std::move(stop)); }
  int close(int status) override { return multinode::endJobIfLost(comm_, status); }

 private:
  multinode::MpiSession session_;  // first in, last out
  multinode::MpiCommunicator comm_;
  DiscardingBuffer discardBuffer_;
  std::ostream discard_;
};

}  // namespace

std::unique_ptr<World> openWorld(int& argc, char**& argv) {
  return std::make_unique<MpiWorld>(argc, argv);
}

}  // namespace nvbw
