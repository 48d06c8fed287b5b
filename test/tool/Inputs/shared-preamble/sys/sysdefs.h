// A system header (-isystem) shared by the units of shared-preamble.test.
#pragma once
#define SYS_FULL 0xffffffff
template <typename T> __device__ T sys_twice(T v) { return v + v; }
struct SysPair {
  int a, b;
};
