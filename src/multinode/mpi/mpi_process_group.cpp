#include "multinode/mpi/mpi_process_group.h"

#include <optional>
#include <string>
#include <variant>

#include "engine/coordinator.h"
#include "multinode/attempt.h"

namespace nvbw::multinode {
namespace {

// A buffer of a measurement, as this rank holds it: shared unicast memory, this rank's own local
// memory, a multicast object, or nothing (another rank's local memory).
using RankBuffer = std::variant<std::monostate, std::unique_ptr<SharedAllocation>, DeviceBuffer,
                                std::unique_ptr<MulticastObject>>;

// The buffers of one measurement, in spec order.
class MeasurementMemory final : public SharedBuffers {
 public:
  std::vector<RankBuffer> buffers;

  BufferView view(std::size_t i) const override {
    const RankBuffer& b = buffers.at(i);
    if (const auto* shared = std::get_if<std::unique_ptr<SharedAllocation>>(&b))
      return (*shared)->view();
    if (const auto* local = std::get_if<DeviceBuffer>(&b)) return {local->ptr(), nullptr, 0};
    if (const auto* multicast = std::get_if<std::unique_ptr<MulticastObject>>(&b))
      return (*multicast)->view();
    return {};
  }
};

// The owner allocates; every rank agrees on whether it could, so that a failure never leaves the
// others waiting in the next collective step.
RankBuffer localBuffer(const SharingContext& ctx, const BufferSpec& spec) {
  RankBuffer buffer;
  std::optional<std::string> problem;
  if (spec.process == ctx.comm.rank())
    problem = attempt([&] { buffer = DeviceBuffer(ctx.gpu, ctx.device, spec.bytes); });
  if (const auto agreed = agreeOnProblem(ctx.comm, problem)) {
    if (problem) throw Error(*problem);
    throw PeerFailed("allocating GPU memory failed on another process: " + *agreed);
  }
  return buffer;
}

}  // namespace

MpiProcessGroup::MpiProcessGroup(const Gpu& gpu, int device, MpiCommunicator& comm,
                                 MemorySharing sharing)
    : device_(device), comm_(comm),
      fds_(sharing == MemorySharing::PosixFd
               ? std::make_unique<FdChannel>(comm, std::chrono::seconds(60))
               : nullptr),
      ctx_{gpu, device, comm, sharing, fds_.get()},
      coordinator_(std::make_unique<MpiCoordinator>(ctx_, comm)) {}

std::unique_ptr<SharedBuffers> MpiProcessGroup::acquire(const std::vector<BufferSpec>& specs) {
  auto memory = std::make_unique<MeasurementMemory>();
  for (const BufferSpec& spec : specs) {
    switch (spec.sharing) {
    case Sharing::Exported:
      memory->buffers.emplace_back(
          std::make_unique<SharedAllocation>(ctx_, spec.process, spec.bytes));
      break;
    case Sharing::Multicast:
      memory->buffers.emplace_back(
          std::make_unique<MulticastObject>(ctx_, spec.process, spec.bytes));
      break;
    case Sharing::ProcessLocal:
      memory->buffers.emplace_back(localBuffer(ctx_, spec));
      break;
    case Sharing::Private:
      throw Error("a multi-process plan named a single-process buffer");
    }
  }
  return memory;
}

}  // namespace nvbw::multinode
