#pragma once
// Sums v over each aligned group of eight lanes, which call it together.
__device__ inline int groupSum(int v) {
  for (int offset = 4; offset > 0; offset /= 2)
    v += __shfl_xor(v, offset);
  return v;
}

// A caller in the header itself, from the low half-warp only.
__device__ inline int lowHalfSum(int v) {
  if (threadIdx.x % 32 < 16)
    v = groupSum(v);
  return v;
}
