// What --schedule asks for, decided against the machine: rounds of disjoint pairs where the
// topology says that pairs which share no GPU share no link, else pair by pair with a note;
// force-rounds measures in rounds all the same, with a warning.
#pragma once

#include <string>
#include <vector>

#include "plans/schedule.h"
#include "platform/communicator.h"
#include "platform/topology.h"

namespace nvbw {

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
