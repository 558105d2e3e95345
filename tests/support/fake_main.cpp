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
//                              testcases are registered and "measured" in this one process; 1:
//                              the multinode build run as one process (they are waived)
//   NVBW_FAKE_SHARING_PROBLEM=TEXT  with RANKS: the processes cannot share memory, TEXT says why
//   NVBW_FAKE_MULTICAST_PROBLEM=TEXT with RANKS: why multicast objects cannot be used (default:
//                              the faked GPUs do not support them)
//   NVBW_FAKE_CC=D:CC,...      GPU D's compute capability as 10 * major + minor (default 90)
//   NVBW_FAKE_CONFIDENTIAL=1   confidential computing on
//   NVBW_LOGICAL_GPUS=N        as on the real platform (platform/logical_gpus.h): with
//                              NVBW_FAKE_GPUS=1, that GPU presented as N logical GPUs
// Driver failures, each reported through the code a real run reports it with:
//   NVBW_FAKE_GPU_MEMORY_MIB=M every GPU has M MiB: a measurement whose buffers on one GPU need
//                              more fails as cuMemAlloc does (the buffers come from the real
//                              buffer pool, whose message says what was asked and what there is)
//   NVBW_FAKE_PIN_FAIL=1       pinning host buffers fails as cuMemHostRegister does when out of
//                              memory (the message quotes this host's memory and ulimit -l)
//   NVBW_FAKE_PEER_FAIL=A-B,.. enabling peer access from GPU A to GPU B fails
//   NVBW_FAKE_LAUNCH_FAIL=ERR  every SM copy kernel launch fails with the CUDA runtime error ERR
//                              (cudaErrorNoKernelImageForDevice, cudaErrorLaunchOutOfResources)
//   NVBW_FAKE_FAIL_COPY=A-B,.. copies from GPU A to GPU B fail verification (in whichever
//                              measurement or round they run), as their destination's check would
// What a run does (the cost model's input, tools/cost_model.py):
//   NVBW_FAKE_COUNTS=FILE      every testcase run appends a line of JSON to FILE: its
//                              measurements, rounds, samples, copies, fills, checks, allocations
// The environment knobs (THROTTLE, PCIE, MIG, CLOCKS_SET) give the GPUs the healthy H200 snapshot
// of NVBW_FAKE_LINKS first, with or without link facts.
#include <csignal>
#include <iostream>
#include <string>
#include <vector>

#include "app/application.h"
#include "core/version.h"
#include "fake_knobs.h"
#include "platform/signals.h"

int main(int argc, char** argv) {
  const nvbw::test::Variables variables = nvbw::test::processEnvironment();
  nvbw::test::FakeMachine machine = nvbw::test::fakeMachineFrom(variables);
  // The build's release, as a real run reports it: the report names what --version prints.
  machine.behaviour.release = nvbw::kRelease;
  const nvbw::PlatformFactory platform =
      nvbw::test::fakePlatform(machine.topology, machine.behaviour);
  nvbw::SignalStop signals;
  const int sigintAfter = std::atoi(variables("NVBW_FAKE_SIGINT_AFTER").value_or("0").c_str());
  int stopChecks = 0;
  auto stopRequested = [&signals, &stopChecks, sigintAfter] {
    if (sigintAfter > 0 && ++stopChecks == sigintAfter) std::raise(SIGINT);
    return signals.pending();
  };
  nvbw::AppContext context{platform, std::cout, std::cerr,    stopRequested,
                           {},       nullptr,   machine.scope};
  return nvbw::runCommandLine(std::vector<std::string>(argv + 1, argv + argc), context);
}
