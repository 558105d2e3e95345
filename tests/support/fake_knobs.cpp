#include "fake_knobs.h"

#include <cstdlib>
#include <sstream>
#include <utility>
#include <vector>

#include "multinode/process_layout.h"
#include "platform/logical_gpus.h"

namespace nvbw::test {
namespace {

int intOf(const Variables& v, const char* name, int fallback) {
  const std::optional<std::string> text = v(name);
  return text ? std::atoi(text->c_str()) : fallback;
}

std::string textOf(const Variables& v, const char* name) { return v(name).value_or(""); }

// "0-1,2-3" as pairs; "A:B,..." likewise with ':'.
std::vector<std::pair<int, int>> pairsOf(const std::string& list, char separator) {
  std::vector<std::pair<int, int>> pairs;
  std::istringstream items(list);
  std::string item;
  while (std::getline(items, item, ',')) {
    const std::size_t at = item.find(separator);
    if (at == std::string::npos) continue;
    pairs.emplace_back(std::atoi(item.substr(0, at).c_str()),
                       std::atoi(item.substr(at + 1).c_str()));
  }
  return pairs;
}

// The snapshots at the start and at the end of the run, with the conditions the knobs ask for on
// GPU 0; empty when no knob asks for an environment.
std::vector<EnvironmentSnapshot> environments(const Variables& v, int gpus) {
  const std::string links = textOf(v, "NVBW_FAKE_LINKS");
  const double throttle = std::atof(textOf(v, "NVBW_FAKE_THROTTLE_S").c_str());
  const std::string pcie = textOf(v, "NVBW_FAKE_PCIE");
  const bool mig = intOf(v, "NVBW_FAKE_MIG", 0) != 0;
  const bool clocksSet = intOf(v, "NVBW_FAKE_CLOCKS_SET", 0) != 0;
  if (links.empty() && throttle <= 0 && pcie.empty() && !mig && !clocksSet) return {};
  EnvironmentSnapshot start = h200Environment(gpus);
  if (links == "none") start.nvmlProblem = "libnvidia-ml.so.1 not found";
  if (gpus > 0) {
    GpuEnvironment& gpu0 = start.gpus.front();
    if (pcie == "start") gpu0.pcie = PcieLinkState{16.0, 16, 32.0, 16};
    if (mig) gpu0.migEnabled = true;
    if (clocksSet) gpu0.clocksLocked = true;
  }
  EnvironmentSnapshot end = start;
  if (gpus > 0) {
    GpuEnvironment& gpu0 = end.gpus.front();
    if (throttle > 0) gpu0.throttleNs = static_cast<std::uint64_t>(throttle * 1e9 + 0.5);
    if (pcie == "run") gpu0.pcie = PcieLinkState{16.0, 16, 32.0, 16};
  }
  return {start, end};
}

// A world of `ranks` processes in this one process: they share memory unless the knob says why
// not; multicast as the knob says, else not supported by the faked GPUs (the start-up's reason).
ProcessFacts worldOf(const Variables& v, int ranks) {
  ProcessFacts world;
  world.processes = ranks;
  world.sharingProblem = v("NVBW_FAKE_SHARING_PROBLEM");
  world.multicastProblem = v("NVBW_FAKE_MULTICAST_PROBLEM");
  if (!world.multicastProblem)
    world.multicastProblem = multicastProblem(textOf(v, "NVBANDWIDTH_DISABLE_MULTICAST") == "1",
                                              false, MemorySharing::PosixFd);
  return world;
}

FakeBehaviour behaviourFrom(const Variables& v) {
  FakeBehaviour b;
  b.perSample = std::chrono::milliseconds(intOf(v, "NVBW_FAKE_SAMPLE_MS", 0));
  b.scale = intOf(v, "NVBW_FAKE_SCALE", 100) / 100.0;
  b.firstRunScale = intOf(v, "NVBW_FAKE_FIRST_SCALE", 100) / 100.0;
  b.rampMiB = intOf(v, "NVBW_FAKE_RAMP_MIB", 0);
  b.jitter = intOf(v, "NVBW_FAKE_JITTER", 0) / 100.0;
  b.slowdown = std::atof(textOf(v, "NVBW_FAKE_SLOWDOWN").c_str()) / 100.0;
  b.noiseCv = std::atof(textOf(v, "NVBW_FAKE_NOISE").c_str()) / 100.0;
  b.noiseSeed = static_cast<unsigned>(intOf(v, "NVBW_FAKE_SEED", 1));
  b.executorFailure = textOf(v, "NVBW_FAKE_EXECUTOR_FAIL");
  if (const std::string fail = textOf(v, "NVBW_FAKE_FAIL"); !fail.empty()) b.failingTitles = {fail};
  b.gpuMemoryMiB = static_cast<std::uint64_t>(intOf(v, "NVBW_FAKE_GPU_MEMORY_MIB", 0));
  b.pinFails = intOf(v, "NVBW_FAKE_PIN_FAIL", 0) != 0;
  for (const auto& pair : pairsOf(textOf(v, "NVBW_FAKE_PEER_FAIL"), '-')) b.peerFails.insert(pair);
  b.launchFails = textOf(v, "NVBW_FAKE_LAUNCH_FAIL");
  for (const auto& pair : pairsOf(textOf(v, "NVBW_FAKE_FAIL_COPY"), '-'))
    b.failingCopies.insert(pair);
  b.countsFile = textOf(v, "NVBW_FAKE_COUNTS");
  return b;
}

}  // namespace

Variables processEnvironment() {
  return [](const char* name) -> std::optional<std::string> {
    const char* value = std::getenv(name);
    if (!value) return std::nullopt;
    return std::string(value);
  };
}

FakeMachine fakeMachineFrom(const Variables& v) {
  FakeMachine machine;
  const int gpus = intOf(v, "NVBW_FAKE_GPUS", 2);
  machine.topology = FakeTopology(gpus);
  const std::string links = textOf(v, "NVBW_FAKE_LINKS");
  if (!links.empty()) machine.topology = withH200Links(machine.topology, links);
  for (const auto& [a, b] : pairsOf(textOf(v, "NVBW_FAKE_NO_PEER"), '-')) {
    machine.topology.setPeerAccess(a, b, false);
    machine.topology.setPeerAccess(b, a, false);
  }
  for (const auto& [device, capability] : pairsOf(textOf(v, "NVBW_FAKE_CC"), ':'))
    machine.topology.setComputeCapability(device, capability);
  machine.topology.setConfidentialComputing(intOf(v, "NVBW_FAKE_CONFIDENTIAL", 0) != 0);
  // 1: the multinode build's world of one process (mpirun -n 1); 2 or more: that many.
  if (const int ranks = intOf(v, "NVBW_FAKE_RANKS", 0); ranks >= 1) {
    if (ranks >= 2) machine.topology.setProcessFacts(worldOf(v, ranks));
    machine.scope = RegistryScope::WithMultinode;
  }
  machine.behaviour = behaviourFrom(v);
  machine.behaviour.logicalGpus = v(kLogicalGpusVariable);
  // With link facts the figures stay below the links' peaks, as hardware's do.
  if (!links.empty()) {
    machine.behaviour.hostScale = kFakeH200HostScale;
    machine.behaviour.shareLinks = true;
  }
  if (const std::string scale = textOf(v, "NVBW_FAKE_HOST_SCALE"); !scale.empty())
    machine.behaviour.hostScale = std::atof(scale.c_str()) / 100.0;
  machine.behaviour.environments = environments(v, gpus);
  return machine;
}

}  // namespace nvbw::test
