// The plan builders of the device-local family: testcases within one GPU's memory. Pure,
// like every plan builder.
#pragma once

#include "plans/plan.h"
#include "plans/plan_context.h"

namespace nvbw::plans {

// One GPU's own memory (testcases_local.cpp): the copy engine (device_local_copy), a TMA copy
// and an SM copy kernel (bytes copied count), and read-only and write-only SM passes (bandwidth
// counts the bytes read or written).
Plan deviceLocalCopy(const PlanContext& ctx);
Plan deviceLocalCopyTma(const PlanContext& ctx);
Plan deviceLocalCopySm(const PlanContext& ctx);
Plan deviceLocalRead(const PlanContext& ctx);
Plan deviceLocalWrite(const PlanContext& ctx);

}  // namespace nvbw::plans
