// Readable renderings of plans and registry lookups shared by the plan tests, so a failing
// comparison shows the whole plan ("host0[S] -> gpu0[S] CE on 0 | m0[0][0]=copy0").
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "plans/plan.h"
#include "plans/registry.h"
#include "platform/topology.h"

namespace nvbw::test {

// Odd on purpose: the builders must pass the size through untouched (SM truncation is the
// executor's business), and 2S must be exactly twice that.
inline constexpr std::size_t kBytes = (std::size_t{3} << 20) + 48;
inline constexpr std::size_t kLatencyBytes = std::size_t{2} << 20;

// ---- Readable renderings, so a failing comparison shows the whole plan ----------------------

inline std::string describe(const BufferSpec& b) {
  const std::string size = b.bytes == kBytes          ? "S"
                           : b.bytes == 2 * kBytes    ? "2S"
                           : b.bytes == kLatencyBytes ? "2MiB"
                                                      : std::to_string(b.bytes) + "B";
  switch (b.sharing) {
  case Sharing::ProcessLocal:
    return "local" + std::to_string(b.process) + "[" + size + "]";
  case Sharing::Exported:
    return "unicast" + std::to_string(b.process) + "[" + size + "]";
  case Sharing::Multicast:
    return "mcast" + std::to_string(b.process) + "[" + size + "]";
  case Sharing::Private:
    break;
  }
  return (b.kind == MemoryKind::Host ? "host" : "gpu") + std::to_string(b.device) + "[" + size +
         "]";
}

inline std::string describe(CopyMethod m) {
  switch (m) {
  case CopyMethod::CopyEngine:
    return "CE";
  case CopyMethod::SmCopy:
    return "SM";
  case CopyMethod::SmSplitWarp:
    return "SM-split";
  case CopyMethod::SmMulticast:
    return "SM-multicast";
  case CopyMethod::Tma:
    return "TMA";
  case CopyMethod::SmReadOnly:
    return "SM-read";
  case CopyMethod::SmWriteOnly:
    return "SM-write";
  }
  return "?";
}

inline std::string describe(const OutputTarget& o) {
  std::string s = "m" + std::to_string(o.matrix) + "[" + std::to_string(o.row) + "][" +
                  std::to_string(o.col) + "]=";
  switch (o.source) {
  case ValueSource::Copy:
    return s + "copy" + std::to_string(o.copyIndex);
  case ValueSource::Total:
    return s + "total";
  case ValueSource::SumOfCopies:
    return s + "sum";
  }
  return s + "?";
}

// "host0[S] -> gpu0[S] CE on 0, gpu0[2S] -> host0[2S] CE on 0 | m0[0][0]=copy0", or
// "chase on 0: host0[2MiB] | m0[0][0]=copy0" for latency ("TMA chase on 1: ..." through the TMA).
inline std::string describe(const Measurement& m) {
  std::string s;
  if (m.latency)
    s += std::string(m.latency->access == ChaseAccess::TmaBulkCopy ? "TMA " : "") + "chase on " +
         std::to_string(m.latency->chaseDevice) + ": " + describe(m.latency->target);
  for (std::size_t i = 0; i < m.copies.size(); ++i) {
    const CopySpec& c = m.copies[i];
    s += (i ? ", " : "") + describe(c.src) + " -> " + describe(c.dst) + " " + describe(c.method) +
         " on " + std::to_string(c.execDevice);
  }
  s += " |";
  for (const OutputTarget& o : m.outputs) s += " " + describe(o);
  return s;
}

inline std::vector<std::string> describe(const Plan& plan) {
  std::vector<std::string> out;
  for (const Measurement& m : plan.measurements) out.push_back(describe(m));
  return out;
}

// ---- Registry helpers -------------------------------------------------------------------------

// The single-node build's registry.
inline const std::vector<TestcaseDef>& registry() {
  static const std::vector<TestcaseDef> defs = makeRegistry();
  return defs;
}

// The multinode build's: the 35 single-node testcases, then the 13 multi-process ones.
inline const std::vector<TestcaseDef>& multinodeRegistry() {
  static const std::vector<TestcaseDef> defs = makeRegistry(RegistryScope::WithMultinode);
  return defs;
}

inline const TestcaseDef& def(const std::string& key) {
  for (const TestcaseDef& d : multinodeRegistry())
    if (d.key == key) return d;
  throw std::out_of_range("no testcase " + key);
}

inline Plan planFor(const std::string& key, const Topology& topo, std::size_t bytes = kBytes) {
  const TestcaseDef& d = def(key);
  if (!d.testcase) throw std::logic_error(key + " has no testcase");
  return d.plan(PlanContext{topo, bytes});
}

}  // namespace nvbw::test
