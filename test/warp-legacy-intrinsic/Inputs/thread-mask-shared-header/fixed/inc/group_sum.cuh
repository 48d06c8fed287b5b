#pragma once
// Sums v over each aligned group of eight lanes, which call it together.
__device__ inline int groupSum(int v, unsigned warpfix_mask) {
  for (int offset = 4; offset > 0; offset /= 2)
    v += __shfl_xor_sync(warpfix_mask, v, offset);
  return v;
}

// A caller in the header itself, from the low half-warp only.
__device__ inline int lowHalfSum(int v) {
  const unsigned warpfix_mask_11 = __ballot_sync(0xffffffff, threadIdx.x % 32 < 16);
  if (threadIdx.x % 32 < 16)
    v = groupSum(v, warpfix_mask_11);
  return v;
}
