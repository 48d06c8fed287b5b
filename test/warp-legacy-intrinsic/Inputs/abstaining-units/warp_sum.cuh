// A helper in a shared header, each of whose translation units sees only some
// of its callers.
#pragma once

__device__ inline int warpSum(int v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down(v, offset);
  return v;
}

// Called only by blockTotal, which no unit but chained.cu calls.
__device__ inline int lanePrefix(int v) {
  return v + __shfl_up(v, 1);
}

__device__ inline int blockTotal(int v) {
  return lanePrefix(v);
}

template <class T> __device__ T warpMax(T v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v = max(v, __shfl_xor(v, offset));
  return v;
}
