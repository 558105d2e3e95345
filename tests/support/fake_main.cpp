// nvbandwidth on the fake platform: the real command line, application core and signal
// handling, with no GPU. Environment variables shape the faked machine and force every line the
// program can add to its output (tests/clients/ runs the parsers of known clients over them):
//   NVBW_FAKE_GPUS=N           GPU count (default 2)
//   NVBW_FAKE_SAMPLE_MS=MS     how long each sample takes (default 0), so CLI tests can interrupt
//                              a run that is under way
//   NVBW_FAKE_LINKS=KIND       "direct", "nvswitch" or "none": H200 link facts and a healthy
//                              environment snapshot ("none": NVML missing), so reports carry peaks
//                              and outlier NOTEs; the figures then stay below those peaks, as
//                              hardware's do: host copies at kFakeH200HostScale (about 87% of
//                              PCIe Gen5 x16), copies into or out of one GPU at once share it
//   NVBW_FAKE_HOST_SCALE=PCT   host copies at PCT percent instead (100 with link facts: cells at
//                              300% of their peak, which a run must warn about)
//   NVBW_FAKE_SCALE=PCT        percent of the usual values (default 100)
//   NVBW_FAKE_SLOWDOWN=PCT     every copy PCT percent worse: bandwidths lower, latencies higher
//   NVBW_FAKE_NOISE=PCT        random sample noise of a CV of PCT percent (decimals allowed), with
//                              an outlier sample now and then (FakeBehaviour::noiseCv)
//   NVBW_FAKE_SEED=N           the noise's seed (default 1): runs with one seed are alike
//   NVBW_FAKE_FIRST_SCALE=PCT  the first measurement of each testcase at PCT percent as well,
//                              later ones (confirmation runs) not (default 100)
//   NVBW_FAKE_RAMP_MIB=MIB     values rise with the buffer size like S / (S + MIB)
//   NVBW_FAKE_JITTER=PCT       sample k of every copy is value * (1 + PCT/100 * (k % 3 - 1)):
//                              the medians stay, every cell is noisy (noisy-cell NOTEs)
//   NVBW_FAKE_THROTTLE_S=S     GPU 0's clocks held down for S seconds during the run (run WARNING)
//   NVBW_FAKE_PCIE=WHEN        GPU 0's PCIe link below its maximum: "start" (header WARNING) or
//                              "run" (trained down during the run: run WARNING)
//   NVBW_FAKE_MIG=1            GPU 0 in MIG mode (header WARNING)
//   NVBW_FAKE_CLOCKS_SET=1     GPU 0's application clocks set away from the defaults (header
//                              WARNING)
//   NVBW_FAKE_NO_PEER=A-B,...  no peer access between GPUs A and B, both ways (peer-access NOTE)
//   NVBW_FAKE_FAIL=TEXT        testcases whose first matrix title contains TEXT fail verification
//                              (ERROR lines)
//   NVBW_FAKE_EXECUTOR_FAIL=TEXT  the copies cannot be set up: the run stops with this error
//   NVBW_FAKE_SIGINT_AFTER=N   the process sends itself SIGINT at the N-th stop check (one per
//                              sample): an interrupted run that stops at the same point every time
//   NVBW_FAKE_RANKS=N          a world of N processes that share memory (N >= 2): the multinode
//                              testcases are registered and "measured" in this one process
// The environment knobs (THROTTLE, PCIE, MIG, CLOCKS_SET) give the GPUs the healthy H200 snapshot
// of NVBW_FAKE_LINKS first, with or without link facts.
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "app/application.h"
#include "core/version.h"
#include "fake_platform.h"
#include "fake_topology.h"
#include "platform/signals.h"

namespace {

int envInt(const char* name, int fallback) {
  const char* text = std::getenv(name);
  return text ? std::atoi(text) : fallback;
}

std::string envText(const char* name) {
  const char* text = std::getenv(name);
  return text ? text : "";
}

// "0-1,2-3": no peer access between 0 and 1, nor between 2 and 3.
void removePeerAccess(nvbw::FakeTopology& topology, const std::string& pairs) {
  std::istringstream list(pairs);
  std::string pair;
  while (std::getline(list, pair, ',')) {
    const std::size_t dash = pair.find('-');
    if (dash == std::string::npos) continue;
    const int a = std::atoi(pair.substr(0, dash).c_str());
    const int b = std::atoi(pair.substr(dash + 1).c_str());
    topology.setPeerAccess(a, b, false);
    topology.setPeerAccess(b, a, false);
  }
}

// The snapshots at the start and at the end of the run, with the conditions the knobs ask for on
// GPU 0; empty when no knob asks for an environment.
std::vector<nvbw::EnvironmentSnapshot> environments(int gpus) {
  const std::string links = envText("NVBW_FAKE_LINKS");
  const double throttle = std::atof(envText("NVBW_FAKE_THROTTLE_S").c_str());
  const std::string pcie = envText("NVBW_FAKE_PCIE");
  const bool mig = envInt("NVBW_FAKE_MIG", 0) != 0;
  const bool clocksSet = envInt("NVBW_FAKE_CLOCKS_SET", 0) != 0;
  if (links.empty() && throttle <= 0 && pcie.empty() && !mig && !clocksSet) return {};
  nvbw::EnvironmentSnapshot start = nvbw::test::h200Environment(gpus);
  if (links == "none") start.nvmlProblem = "libnvidia-ml.so.1 not found";
  if (gpus > 0) {
    nvbw::GpuEnvironment& gpu0 = start.gpus.front();
    if (pcie == "start") gpu0.pcie = nvbw::PcieLinkState{16.0, 16, 32.0, 16};
    if (mig) gpu0.migEnabled = true;
    if (clocksSet) gpu0.clocksLocked = true;
  }
  nvbw::EnvironmentSnapshot end = start;
  if (gpus > 0) {
    nvbw::GpuEnvironment& gpu0 = end.gpus.front();
    if (throttle > 0) gpu0.throttleNs = static_cast<std::uint64_t>(throttle * 1e9 + 0.5);
    if (pcie == "run") gpu0.pcie = nvbw::PcieLinkState{16.0, 16, 32.0, 16};
  }
  return {start, end};
}

}  // namespace

int main(int argc, char** argv) {
  nvbw::test::FakeBehaviour behaviour;
  // The build's release, as a real run reports it: the report names what --version prints.
  behaviour.release = nvbw::kRelease;
  behaviour.perSample = std::chrono::milliseconds(envInt("NVBW_FAKE_SAMPLE_MS", 0));
  behaviour.scale = envInt("NVBW_FAKE_SCALE", 100) / 100.0;
  behaviour.firstRunScale = envInt("NVBW_FAKE_FIRST_SCALE", 100) / 100.0;
  behaviour.rampMiB = envInt("NVBW_FAKE_RAMP_MIB", 0);
  behaviour.jitter = envInt("NVBW_FAKE_JITTER", 0) / 100.0;
  behaviour.slowdown = std::atof(envText("NVBW_FAKE_SLOWDOWN").c_str()) / 100.0;
  behaviour.noiseCv = std::atof(envText("NVBW_FAKE_NOISE").c_str()) / 100.0;
  behaviour.noiseSeed = static_cast<unsigned>(envInt("NVBW_FAKE_SEED", 1));
  if (const std::string fail = envText("NVBW_FAKE_FAIL"); !fail.empty())
    behaviour.failingTitles = {fail};
  const int gpus = envInt("NVBW_FAKE_GPUS", 2);
  nvbw::FakeTopology topology(gpus);
  if (const std::string links = envText("NVBW_FAKE_LINKS"); !links.empty()) {
    topology = nvbw::test::withH200Links(topology, links);
    behaviour.hostScale = nvbw::test::kFakeH200HostScale;
    behaviour.shareLinks = true;
  }
  if (const std::string scale = envText("NVBW_FAKE_HOST_SCALE"); !scale.empty())
    behaviour.hostScale = std::atof(scale.c_str()) / 100.0;
  removePeerAccess(topology, envText("NVBW_FAKE_NO_PEER"));
  nvbw::RegistryScope scope = nvbw::RegistryScope::SingleNode;
  if (const int ranks = envInt("NVBW_FAKE_RANKS", 0); ranks >= 2) {
    nvbw::ProcessFacts world;
    world.processes = ranks;
    world.sharingProblem.reset();
    topology.setProcessFacts(world);
    scope = nvbw::RegistryScope::WithMultinode;
  }
  behaviour.environments = environments(gpus);
  behaviour.executorFailure = envText("NVBW_FAKE_EXECUTOR_FAIL");
  const nvbw::PlatformFactory platform = nvbw::test::fakePlatform(topology, behaviour);
  nvbw::SignalStop signals;
  const int sigintAfter = envInt("NVBW_FAKE_SIGINT_AFTER", 0);
  int stopChecks = 0;
  auto stopRequested = [&signals, &stopChecks, sigintAfter] {
    if (sigintAfter > 0 && ++stopChecks == sigintAfter) std::raise(SIGINT);
    return signals.pending();
  };
  nvbw::AppContext context{platform, std::cout, std::cerr, stopRequested, {}, nullptr, scope};
  return nvbw::runCommandLine(std::vector<std::string>(argv + 1, argv + argc), context);
}
