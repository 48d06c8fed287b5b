#include <sysdefs.h>
// Macros from the command line (-D), from clang (__UINT32_MAX__) and from
// the main file, through a wrapper that drops its mask: the preamble's
// macros must count as they do in a parse alone.

#define XOR_A(var, lane, mask) __shfl_xor(var, lane)
#define XOR_B(var, lane, mask) __shfl_xor(var, lane)
#define XOR_C(var, lane, mask) __shfl_xor(var, lane)
#define XOR_D(var, lane, mask) __shfl_xor(var, lane)
#undef LATE_FULL
#define LATE_FULL 0x0000ffff

__global__ void from_command_line(int *out) {
  int v = sys_twice(out[threadIdx.x]);
  v += XOR_A(v, 1, CMDLINE_FULL);
  out[threadIdx.x] = v;
}

__global__ void from_clang(int *out) {
  int v = out[threadIdx.x];
  v += XOR_B(v, 2, __UINT32_MAX__);
  out[threadIdx.x] = v;
}

__global__ void redefined(int *out) {
  int v = out[threadIdx.x];
  v += XOR_C(v, 4, LATE_FULL);
  out[threadIdx.x] = v;
}

__global__ void from_system(int *out) {
  int v = out[threadIdx.x];
  v += XOR_D(v, 8, SYS_FULL);
  out[threadIdx.x] = v;
}
