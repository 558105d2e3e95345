// The world of the plain build: this process alone, on this machine's GPUs.
#include <iostream>

#include "app/gpu_platform.h"
#include "app/world.h"

namespace nvbw {
namespace {

class SingleProcessWorld final : public World {
 public:
  Communicator& comm() override { return alone_; }
  std::ostream& out() override { return std::cout; }
  std::ostream& err() override { return std::cerr; }
  PlatformFactory platform() override { return openGpuPlatform; }
  RegistryScope registryScope() const override { return RegistryScope::SingleNode; }

 private:
  SingleProcess alone_;
};

}  // namespace

std::unique_ptr<World> openWorld(int&, char**&) { return std::make_unique<SingleProcessWorld>(); }

}  // namespace nvbw
