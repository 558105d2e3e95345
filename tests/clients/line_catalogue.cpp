// The lines the program can print besides its matrices, derived from the code that makes them, as
// JSON for the client suite (check_lines.py), which checks where each one goes and that no known
// client reads a value from it:
//
// - waivers: every reason the registry's waive checks can give, over every faked machine the
//   checks can tell apart (GPU count, peer access, compute capability, confidential computing,
//   the processes' memory sharing and multicast as the start-up decides them), in both
//   interfaces; and the reasons of -H without huge pages. Each machine is a set of NVBW_FAKE_*
//   variables, built into a topology as nvbandwidth_fake builds it (fake_knobs.h), so the suite
//   can run the binary on the machines that give each reason and find the line there.
// - errors: every form of ERROR line (a failed testcase with the messages of each failure the
//   code reports in the user's terms, another rank's failure, a sweep's, an interruption, the
//   selection errors of -t, a run that cannot start);
// - cell notes (noisy cells, outliers) and run warnings; the header's notes.
//
// Every line but the header's is rendered by the text output itself (report/report_text.h:
// makeTextView), which decides its stream: {"stdout": ..., "stderr": ...}.
//
//   nvbw_line_catalogue > catalogue.json
#include <cerrno>
#include <csignal>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "app/application.h"
#include "app/selection.h"
#include "app/testcase_loop.h"
#include "engine/allocation_failure.h"
#include "engine/kernel_failure.h"
#include "facts/environment.h"
#include "fake_knobs.h"
#include "fake_platform.h"
#include "multinode/process_layout.h"
#include "output_fixtures.h"
#include "plans/pair_selection.h"
#include "plans/pattern.h"
#include "plans/registry.h"
#include "platform/communicator.h"
#include "platform/driver.h"
#include "platform/gpu.h"
#include "platform/huge_pages.h"
#include "platform/topology.h"
#include "report/report_text.h"

namespace {

using nlohmann::json;
using namespace nvbw;

using Knobs = std::map<std::string, std::string>;

// What the text output prints for one sequence of events, stream by stream.
template <typename Events> json rendered(Events events, OutputSettings settings = {}) {
  std::ostringstream out, err;
  const std::unique_ptr<Output> text = test::textOutput(out, err, settings);
  events(*text);
  return {{"stdout", out.str()}, {"stderr", err.str()}};
}

// ---- waivers ------------------------------------------------------------------------------------

// The processes' facts the start-up can decide for 4 ranks, each as the knobs that fake them:
// memory sharing (fabric or POSIX usable; neither, on several hosts or one) crossed with
// multicast (usable, disabled, unsupported, no fabric handles).
std::vector<Knobs> worlds() {
  // A single process of the plain build, and of the multinode build (mpirun -n 1).
  std::vector<Knobs> all = {{}, {{"NVBW_FAKE_RANKS", "1"}}};
  const std::string fabricError = "cuMemCreate failed: CUDA_ERROR_NOT_PERMITTED (operation not "
                                  "permitted)";
  const std::vector<SharingDecision> sharing = {
      decideSharing(4, true, "", true, true, ""),
      decideSharing(4, false, fabricError, true, true, ""),
      decideSharing(4, false, fabricError, false, false, ""),
      decideSharing(4, false, fabricError, true, false, fabricError)};
  for (const SharingDecision& s : sharing)
    for (const bool disabled : {false, true})
      for (const bool supported : {false, true}) {
        Knobs k = {{"NVBW_FAKE_RANKS", "4"}};
        if (s.problem) k["NVBW_FAKE_SHARING_PROBLEM"] = *s.problem;
        const std::optional<std::string> multicast =
            multicastProblem(disabled, supported, s.sharing);
        k["NVBW_FAKE_MULTICAST_PROBLEM"] = multicast.value_or("");
        if (!multicast) k.erase("NVBW_FAKE_MULTICAST_PROBLEM");
        all.push_back(k);
      }
  return all;
}

// Every machine the waive checks can tell apart: what the Topology interface lets them ask.
std::vector<Knobs> machines() {
  std::vector<Knobs> all;
  for (const int gpus : {1, 2, 8})
    for (const std::string peers : {"all", "none", "some"}) {
      if (gpus == 1 && peers != "all") continue;
      for (const bool oldGpu : {false, true})
        for (const bool confidential : {false, true})
          for (const Knobs& world : worlds()) {
            Knobs k = world;
            k["NVBW_FAKE_GPUS"] = std::to_string(gpus);
            if (peers == "some") k["NVBW_FAKE_NO_PEER"] = "0-1";
            if (peers == "none") {
              std::string pairs;
              for (int a = 0; a < gpus; ++a)
                for (int b = a + 1; b < gpus; ++b)
                  pairs += (pairs.empty() ? "" : ",") + std::to_string(a) + "-" + std::to_string(b);
              k["NVBW_FAKE_NO_PEER"] = pairs;
            }
            if (oldGpu) k["NVBW_FAKE_CC"] = std::to_string(gpus - 1) + ":80";
            if (confidential) k["NVBW_FAKE_CONFIDENTIAL"] = "1";
            all.push_back(k);
          }
    }
  return all;
}

test::Variables variablesOf(const Knobs& knobs) {
  return [knobs](const char* name) -> std::optional<std::string> {
    const auto it = knobs.find(name);
    if (it == knobs.end()) return std::nullopt;
    return it->second;
  };
}

const char* compatName(CompatMode c) { return c == CompatMode::V0_10 ? "v0.10" : "v0.8"; }

json waiverLine(const std::string& key, const std::string& reason, CompatMode compat) {
  OutputSettings settings;
  settings.compat = compat;
  return rendered([&](Output& o) { o.testcaseFinished(test::waivedResult(key, reason)); },
                  settings);
}

using Triple = std::vector<std::string>;  // interface, key, reason

Triple tripleOf(const json& waived) {
  return {waived["compat"].get<std::string>(), waived["key"].get<std::string>(),
          waived["reason"].get<std::string>()};
}

// The fewest machines (greedily) that give every distinct reason: the ones the suite runs.
json covering(const json& variants) {
  std::set<Triple> left;
  for (const json& v : variants)
    for (const json& w : v["waived"]) left.insert(tripleOf(w));
  json chosen = json::array();
  while (!left.empty()) {
    std::size_t best = 0;
    std::size_t bestCount = 0;
    for (std::size_t i = 0; i < variants.size(); ++i) {
      std::size_t count = 0;
      for (const json& w : variants[i]["waived"]) count += left.count(tripleOf(w));
      if (count > bestCount) {
        best = i;
        bestCount = count;
      }
    }
    for (const json& w : variants[best]["waived"]) left.erase(tripleOf(w));
    chosen.push_back(variants[best]);
  }
  return chosen;
}

// The machines that give every distinct (interface, key, reason), with the lines of each, and
// the distinct ones.
json waivers() {
  json variants = json::array();
  std::set<std::vector<std::string>> distinct;
  for (const Knobs& knobs : machines()) {
    const test::FakeMachine machine = test::fakeMachineFrom(variablesOf(knobs));
    json variant = {{"env", knobs}, {"waived", json::array()}};
    for (const CompatMode compat : {CompatMode::V0_8, CompatMode::V0_10}) {
      for (const TestcaseDef& def : makeRegistry(machine.scope, compat)) {
        const std::optional<std::string> reason = waiveReasonFor(def, machine.topology);
        if (!reason) continue;
        distinct.insert({compatName(compat), def.key, *reason});
        json line = waiverLine(def.key, *reason, compat);
        line["compat"] = compatName(compat);
        line["key"] = def.key;
        line["reason"] = *reason;
        variant["waived"].push_back(line);
      }
    }
    variants.push_back(variant);
  }
  json reasons = json::array();
  for (const auto& d : distinct) reasons.push_back(d);
  return {{"machines", variants.size()}, {"variants", covering(variants)}, {"distinct", reasons}};
}

// -H without huge pages waives the host testcases, with each reason hugePageProblem gives.
json hostMemoryWaivers() {
  json lines = json::array();
  HugePageInfo noSize;
  HugePageInfo noneReserved;
  noneReserved.pageBytes = 2 << 20;
  for (const HugePageInfo& info : {noSize, noneReserved}) {
    const std::optional<std::string> problem = hugePageProblem(info);
    if (!problem) continue;
    json line = waiverLine("host_device_latency_sm", *problem, CompatMode::V0_8);
    line["what"] = "waiver: host memory (-H)";
    lines.push_back(line);
  }
  return lines;
}

// ---- errors -------------------------------------------------------------------------------------

// Rank 0's view of a run where rank 1 failed: the message every rank agrees on.
class RankOneFailed final : public Communicator {
 public:
  int rank() const override { return 0; }
  int size() const override { return 2; }
  std::vector<std::string> allGather(const std::string& mine) override {
    Outcome failed;
    failed.error = testcaseFailure(
        "multinode_bisect_write_ce",
        mismatchMessage("the destination of Process 1's copy", 0, 12, 1u << 20, 4096));
    const std::string message = *failed.error;
    return {mine, "0 E" + std::to_string(message.size()) + ":" + message};
  }
  void broadcast(std::string&, int) override {}
};

std::vector<std::pair<std::string, std::string>> failureMessages() {
  constexpr std::size_t kMiB = std::size_t{1} << 20;
  AllocationFailure device;
  device.buffers = {90000 * kMiB, 90000 * kMiB};
  device.memory.totalBytes = 143771 * kMiB;
  device.memory.freeBytes = 143000 * kMiB;
  device.call = "cuMemAlloc";
  device.driverError = "CUDA_ERROR_OUT_OF_MEMORY (out of memory)";
  device.outOfMemory = true;
  AllocationFailure host = device;
  host.kind = MemoryKind::Host;
  host.devices = {0, 1};
  host.call = "cuMemHostRegister";
  host.memory.lockLimitBytes = 64 * 1024;
  KernelFailure kernel;
  kernel.kernel = "stridingCopyKernel";
  kernel.device = 3;
  kernel.computeCapability = 80;
  kernel.errorName = "cudaErrorNoKernelImageForDevice";
  kernel.errorText = "no kernel image is available for execution on the device";
  kernel.buildArchitectures = "900";
  const CudaError other(CUDA_ERROR_LAUNCH_FAILED, "cuStreamSynchronize",
                        "CUDA_ERROR_LAUNCH_FAILED (unspecified launch failure)", "");
  return {
      {"allocation, device", allocationFailureMessage(device)},
      {"allocation, host pinning", allocationFailureMessage(host)},
      {"peer access", peerAccessFailureMessage(0, 1, CUDA_ERROR_TOO_MANY_PEERS,
                                               "CUDA_ERROR_TOO_MANY_PEERS (peer mapping "
                                               "resources exhausted)")},
      {"kernel launch", kernelFailureMessage(kernel)},
      {"another driver call", other.what()},
      {"data verification",
       mismatchMessage("the destination of Device 0 -> Device 1", 2, 12, 1u << 27, 4096)},
      {"interrupted", Interrupted(SIGINT).what()},
  };
}

json errors(const std::vector<TestcaseDef>& registry) {
  json lines = json::array();
  auto add = [&lines](const std::string& what, json line) {
    line["what"] = what;
    lines.push_back(line);
  };
  for (const auto& [what, message] : failureMessages()) {
    const std::string key = "device_local_copy";
    for (const bool verbose : {false, true}) {
      OutputSettings settings;
      settings.verbose = verbose;
      add("failed testcase: " + what + (verbose ? " (-v)" : ""),
          rendered(
              [&](Output& o) {
                TestcaseResult r = test::failedResult(key, testcaseFailure(key, message));
                r.detail = "call(&x) at f.cpp:1";
                o.testcaseStarted(key);
                o.testcaseFinished(r);
              },
              settings));
    }
  }
  RankOneFailed world;
  const Outcome agreed = agreeOnOutcome(world, Outcome{});
  add("failed testcase: another rank's failure", rendered([&](Output& o) {
        o.testcaseStarted("multinode_bisect_write_ce");
        o.testcaseFinished(test::failedResult("multinode_bisect_write_ce", *agreed.error));
      }));
  add("failed size of a sweep", rendered([&](Output& o) {
        TestcaseResult r = test::failedResult(
            "device_local_copy", testcaseFailure("device_local_copy", "GPU 0 cannot hold it"));
        r.sweepSizeMiB = 4096;
        o.testcaseStarted("device_local_copy");
        o.testcaseFinished(r);
      }));
  Options options;
  options.testcases = {"no_such_testcase", "99", "", "1.5"};
  for (const Selection& s : selectTestcases(
           options,
           [&] {
             std::vector<std::string> keys;
             for (const TestcaseDef& def : registry) keys.push_back(def.key);
             return keys;
           }(),
           indicesOf(registry))) {
    if (s.index) continue;
    add("selection: -t '" + s.token + "'",
        rendered([&](Output& o) { o.testcaseFinished(test::failedResult(s.token, s.error)); }));
  }
  add("the run cannot start", rendered([&](Output& o) {
        o.header(test::failedStartHeader(test::systemWith(0)));
        o.globalError("cannot start: " + std::string(stubLibrary().what()), "");
        o.finish(RunEnd{});
      }));
  return lines;
}

// ---- notes --------------------------------------------------------------------------------------

MatrixResult noisyMatrix() {
  MatrixResult m(
      {"device_local_copy", "memcpy local GPU(column) bandwidth (GB/s)", Unit::GBps, 1, 2});
  m.at(0, 0) = test::cellOf({1834.0, 1900.0, 1700.0});
  m.at(0, 1) = test::cellOf({1834.0, 1834.5, 1833.5});
  return m;
}

MatrixResult outlierMatrix() {
  MatrixResult m(
      {"device_local_copy", "memcpy local GPU(column) bandwidth (GB/s)", Unit::GBps, 1, 3});
  const std::vector<double> values = {1834.0, 1830.0, 1500.0};
  for (std::size_t c = 0; c < values.size(); ++c) {
    m.at(0, c) = test::cellOf({values[c]});
    m.links.push_back({LinkPeak{"HBM", 4815.0},
                       "GPU " + std::to_string(c) + " -> GPU " + std::to_string(c),
                       "bytes copied"});
  }
  return m;
}

json notes() {
  json lines = json::array();
  auto add = [&lines](const std::string& what, json line) {
    line["what"] = what;
    lines.push_back(line);
  };
  for (const auto& [what, m] :
       {std::make_pair("noisy cells", noisyMatrix()), std::make_pair("outliers", outlierMatrix())})
    add("cell note: " + std::string(what), rendered([&, m = m](Output& o) {
          o.testcaseStarted(m.spec.key);
          o.testcaseFinished(test::passed(m.spec.key, {m}));
        }));
  EnvironmentSnapshot start = test::h200Environment(2);
  EnvironmentSnapshot end = start;
  end.gpus.front().throttleNs = 2350000000;
  end.gpus.front().pcie = PcieLinkState{16.0, 16, 32.0, 16};
  RunEnd runEnd;
  runEnd.warnings = runWarnings(start, end);
  add("run warnings", rendered([&](Output& o) {
        o.testcaseStarted("device_local_copy");
        o.testcaseFinished(test::passed("device_local_copy", {noisyMatrix()}));
        o.finish(runEnd);
      }));
  RunEnd interrupted;
  interrupted.interruptedBy = SIGTERM;
  interrupted.finished = 2;
  interrupted.selected = 3;
  add("interrupted run", rendered([&](Output& o) { o.finish(interrupted); }));
  return lines;
}

// The header's notes, printed before any Running line (no client reads there; check_lines.py
// checks that none could open a matrix or a testcase where one does).
json headerNotes() {
  json lines = json::array();
  auto add = [&lines](const std::string& what, const std::string& line) {
    lines.push_back({{"what", what}, {"line", line}});
  };
  add("small buffer", smallBufferWarning());
  add("no NVML", nvmlMissingNote("libnvidia-ml.so.1 not found"));
  FakeTopology some(8);
  some.setPeerAccess(0, 1, false);
  some.setPeerAccess(1, 0, false);
  add("peer access", peerAccessNote(some));
  HugePageInfo pages;
  pages.pageBytes = 2 << 20;
  pages.total = 1024;
  pages.free = 1000;
  add("huge pages", hugePageNote(pages));
  add("host testcases waived", hostTestcasesWaivedNote(*hugePageProblem(HugePageInfo{})));
  EnvironmentSnapshot odd = test::h200Environment(2);
  odd.gpus.front().pcie = PcieLinkState{16.0, 16, 32.0, 16};
  odd.gpus.front().migEnabled = true;
  odd.gpus.front().clocksLocked = true;
  for (const std::string& w : environmentWarnings(odd)) add("environment", w);
  SystemFacts two = test::systemWith(2);
  for (const std::string& n : pairRuleNotes(resolvePairRule({"0", "1"}, -1, two), false))
    add("--pair", n);
  for (const std::string& n : pairRuleNotes(resolvePairRule({}, 1, two), false)) add("-P", n);
  return lines;
}

}  // namespace

int main() {
  const std::vector<TestcaseDef> registry = makeRegistry(RegistryScope::WithMultinode);
  json doc = waivers();
  json lines = hostMemoryWaivers();
  for (const json& l : errors(registry)) lines.push_back(l);
  for (const json& l : notes()) lines.push_back(l);
  doc["lines"] = lines;
  doc["header"] = headerNotes();
  std::cout << doc.dump(1) << "\n";
  return 0;
}
