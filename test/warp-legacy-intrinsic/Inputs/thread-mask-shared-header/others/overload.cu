// Calls an overload of groupSum, which the helper's new parameter would take
// over: groupSum(v, 5u) would then pass 5 as the mask.
#include "group_sum.cuh"

__device__ int groupSum(int v, long extra) { return v + (int)extra; }
__global__ void overload(int *io) { io[threadIdx.x] = groupSum(io[threadIdx.x], 5u); }
