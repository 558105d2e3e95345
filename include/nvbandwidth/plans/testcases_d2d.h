// The plan builders of the device-to-device testcases: the peer copies, the one-to-all/all-to-one
// fans and the peer chases (testcases_d2d.cpp).
//
// Each bandwidth builder serves both the copy engine ("_ce") and the SM copy kernel ("_sm") variant
// of a testcase: pass CopyMethod::CopyEngine or CopyMethod::SmCopy; any other method throws
// std::invalid_argument. Matrix keys are suffixes for the runner to qualify: "" for one matrix,
// "_read1"/"_read2"/"_total" (or "_write1"/...) for the bidirectional testcases.
//
// Two GPUs are paired only when cuDeviceCanAccessPeer holds in both directions; other cells are
// N/A. Upstream checks one direction, then enables access both ways and aborts if that fails, so
// the two rules differ only on asymmetric topologies, where upstream cannot run.
#pragma once

#include "plans/plan.h"
#include "plans/plan_context.h"

namespace nvbw::plans {

// N×N, one copy per cell [r][c]. Read: c -> r issued by r. Write: r -> c issued by r.
Plan deviceToDeviceRead(const PlanContext& ctx, CopyMethod method);
Plan deviceToDeviceWrite(const PlanContext& ctx, CopyMethod method);

// Three N×N matrices (direction 1, direction 2, their sum) from copies [c -> r, r -> c] running at
// once. Read: each copy is issued by its destination; write: by its source.
Plan deviceToDeviceBidirectionalRead(const PlanContext& ctx, CopyMethod method);
Plan deviceToDeviceBidirectionalWrite(const PlanContext& ctx, CopyMethod method);

// 1×N, cell [0][d]: the aggregate bandwidth of the copies between d and all its peers at once.
// allToOneWrite: peers -> d; allToOneRead: d -> peers; oneToAllWrite: d -> peers;
// oneToAllRead: peers -> d. Which GPU issues them is upstream's per-variant choice (see .cpp).
Plan allToOneWrite(const PlanContext& ctx, CopyMethod method);
Plan allToOneRead(const PlanContext& ctx, CopyMethod method);
Plan oneToAllWrite(const PlanContext& ctx, CopyMethod method);
Plan oneToAllRead(const PlanContext& ctx, CopyMethod method);

// N×N pointer-chase latency in ns: row r chases a 2 MiB chain on column c. Ignores bufferBytes.
// Sm: each access a load; Tma: each access a bulk copy of the node into shared memory.
Plan deviceToDeviceLatencySm(const PlanContext& ctx);
Plan deviceToDeviceLatencyTma(const PlanContext& ctx);

}  // namespace nvbw::plans
