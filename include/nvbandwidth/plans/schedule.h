// In which order the pair testcases measure their GPU pairs: one pair after another (upstream's
// way), or in rounds of disjoint pairs that run at once. In a round no GPU takes part in two
// pairs, so on a fabric where pairs that share no GPU share no link (NVLink switches, or direct
// NVLinks between every pair) each pair measures what it measures alone, and N GPUs need about
// 2N rounds instead of N(N-1) turns. Proven on real kernels by the GPU test
// LogicalGpus.RoundsMeasureTheCellsPairsDo (tests/gpu/test_logical_gpus.cpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "plans/pair_selection.h"
#include "plans/plan.h"
#include "platform/communicator.h"
#include "platform/topology.h"

namespace nvbw {

// What the run asks of the pair testcases: of the single-node ones (this process's GPUs) and of
// the multinode ones (one GPU per rank).
struct ScheduleRule {
  PairSchedule devices = PairSchedule::PairByPair;
  PairSchedule ranks = PairSchedule::PairByPair;
};

// "pair_by_pair" or "rounds", as the report names them.
const char* scheduleName(PairSchedule schedule);

// Rounds of disjoint ordered pairs (a, b), a != b, of `n` GPUs, covering each exactly once (the
// circle method): for even n, 2(n - 1) rounds of n / 2 pairs; for odd n, 2n rounds of (n - 1) / 2
// pairs (one GPU rests in each). Both are the fewest rounds possible. First every pair with a < b,
// then the same rounds reversed.
std::vector<std::vector<GpuPair>> roundRobinRounds(int n);

// The GPUs (or ranks) a measurement uses: its buffers' and its issuers'; -1 stands for host
// memory, which every host buffer shares.
std::vector<int> resourcesOf(const Measurement& m);

// Sets the plan's schedule. PairByPair leaves each measurement on its own. Rounds groups the
// measurements (one per ordered pair of `n` GPUs or ranks, the pair being the cell its first
// output writes): each, in the order of roundRobinRounds(n), goes into the first round that uses
// none of its resources. With every pair measured this is roundRobinRounds(n) itself; a selection
// (--pair, -P, pairs without peer access) packs into as few rounds as it fits. Within a round
// measurements keep the plan's order.
void applySchedule(Plan& plan, PairSchedule schedule, int n);

// Why pairs of this process's GPUs may share a link (a single-node run), or nullopt when every
// pair with peer access both ways is connected through NVLink switches or directly: from NVML's
// NVLinks (remote device types and bus ids), else from the driver's P2P attributes.
std::optional<std::string> sharedLinkProblem(const Topology& topo);

// Why the ranks' GPUs may share a link (a multi-process run, judged by each process for the GPUs
// it sees), or nullopt when every NVLink of each of them goes to a switch (NVML).
std::optional<std::string> fabricProblem(const Topology& topo);

// What --schedule asks for, decided against the machine: rounds where the problems above are
// none, else pair by pair with a note; force-rounds measures in rounds all the same, with a
// warning.
struct ScheduleChoice {
  ScheduleRule rule;
  std::vector<std::string> notes;  // for the person running it (stderr), one per line
};

// `option`: --schedule as given ("" or "pairs": pair by pair, no note). The single-node testcases
// follow rank 0's topology (its GPUs measure them); the multinode ones, in a run of two processes
// or more, every rank's (each judges the GPUs it sees, and all agree).
ScheduleChoice chooseSchedule(const std::string& option, const Topology& topology,
                              Communicator& comm);

}  // namespace nvbw
