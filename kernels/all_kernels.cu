// Every kernel in one CUDA translation unit. nvcc compiles a unit once per target architecture,
// and most of that time goes to the CUDA headers rather than to the kernels: the seven kernel
// files built one by one for the seven default architectures took 69 s of CPU, together 12 s
// (2-core build machine, nvcc 13.0). CMakeLists.txt compiles this file only; each part keeps its
// own includes, so a part can still be read (and compiled, if need be) on its own.
//
// The parts keep their kernels and helpers in the inline namespace nvbw::kernels::unit rather
// than an unnamed one: nvcc names an unnamed namespace after a hash of the source file's absolute
// path, and the kernels' names are in the binary (their registration, the device code), so two
// checkouts of one commit in different folders would build different programs.
#include "copy_kernels.cu"
#include "latency_kernels.cu"
#include "local_kernels.cu"
#include "multicast_kernel.cu"
#include "pattern_kernels.cu"
#include "spin_kernel.cu"
#include "tma_kernels.cu"
