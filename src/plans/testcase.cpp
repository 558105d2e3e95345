#include "plans/testcase.h"

namespace nvbw {

const char* axisName(Axis axis) {
  switch (axis) {
  case Axis::Cpu:
    return "CPU";
  case Axis::Gpu:
    return "GPU";
  case Axis::None:
    break;
  }
  return "";
}

}  // namespace nvbw
