// How the processes of a run pool a measurement's samples: each process measured the copies it
// issued and contributes their samples; every process merges every contribution (pure text, so
// any communicator can carry it).
#pragma once

#include <string>
#include <vector>

#include "engine/sample_recording.h"
#include "plans/plan.h"

namespace nvbw {

// The samples of the copies of `m` that process `rank` issued, as text.
std::string samplesContribution(const Measurement& m, const MeasurementSamples& samples, int rank);

// Fills `samples` with every contribution's copies.
void mergeSamples(const std::vector<std::string>& contributions, MeasurementSamples& samples);

}  // namespace nvbw
