// The plan builders of the multinode family: the multi-process testcases (upstream indices
// 35-47), one process per GPU.
//
// The world's GPU r is rank r's GPU: buffers are named by their owning rank (BufferSpec::ofRank)
// and matrices are indexed by rank. Unicast buffers are Exported (every rank maps them),
// buffers only their owner touches are ProcessLocal, and the broadcast testcases write to
// Multicast objects. Which rank issues a copy follows upstream's context preference: the owner
// of the preferred buffer. Titles keep upstream's (typos included); the bisect rows are labelled
// the way the data flows (docs/compatibility.md#c13).
#pragma once

#include "plans/plan.h"
#include "plans/plan_context.h"

namespace nvbw::plans {

// 35/39 read and 36/40 write: N×N, one copy per ordered pair of ranks; CE or SM.
Plan multinodeRead(const PlanContext& ctx, CopyMethod method);
Plan multinodeWrite(const PlanContext& ctx, CopyMethod method);
// 37/41 and 38/42: both directions of a pair at once; _read1/_read2/_total (_write1/...).
Plan multinodeBidirectionalRead(const PlanContext& ctx, CopyMethod method);
Plan multinodeBidirectionalWrite(const PlanContext& ctx, CopyMethod method);
// 43: every other rank writes into rank d's memory at once; 44: every other rank reads rank s's.
Plan multinodeAllToOneWrite(const PlanContext& ctx);
Plan multinodeAllFromOneRead(const PlanContext& ctx);
// 45: rank r broadcasts through its multicast object; 46: every rank at once, one cell.
Plan multinodeBroadcastOneToAll(const PlanContext& ctx);
Plan multinodeBroadcastAllToAll(const PlanContext& ctx);
// 47: rank i's memory is written from rank (i + N/2) mod N, all pairs at once; N×1.
Plan multinodeBisectWrite(const PlanContext& ctx);

// "<from>-><to>", each rank padded to the width of the largest rank number.
std::string bisectLabel(int from, int to, int processes);

}  // namespace nvbw::plans
