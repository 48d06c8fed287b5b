// Calls groupSum from every lane: the full mask is right here, and this unit
// fixes the helper with it.
#include "group_sum.cuh"

__global__ void wholeWarp(int *io) { io[threadIdx.x] = groupSum(io[threadIdx.x]); }
