#pragma once
__device__ inline int warpSum(int v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down(v, offset);
  return v + __shfl_up(v, 1);
}
