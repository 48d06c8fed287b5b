// Warp helpers of a project, in a header that several units include. Each
// works on aligned groups of eight lanes, which call it together; which
// groups call it is up to the caller.
#pragma once

// Each lane of a group gets the group's sum.
__device__ inline int groupSum8(int v) {
  for (int offset = 4; offset > 0; offset /= 2)
    v += __shfl_xor(v, offset);
  return v;
}

// The lanes that call it, with p true.
__device__ inline unsigned voters(bool p) { return __ballot(p); }

// A caller in the header itself: the low half-warp sums its groups.
__device__ inline int lowHalfSums(int v) {
  if (threadIdx.x % 32 < 16)
    v = groupSum8(v);
  return v;
}
