#include <sys.cuh>
#include "read.cuh"

__global__ void kernel(int *out) { out[threadIdx.x] = lane_sum(out[threadIdx.x]) + sys_broadcast(1); }
