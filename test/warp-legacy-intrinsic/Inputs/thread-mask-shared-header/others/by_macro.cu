#include "group_sum.cuh"
#include "named_by_macro.cuh"

__global__ void byMacro(int *io) {
  if (threadIdx.x % 32 < 8)
    io[threadIdx.x] = SUM_OF_EIGHT(io[threadIdx.x]);
}
