#include <sys.cuh>
#ifdef __NVCC__
#include "include/nvcc-only.cuh"
#endif

__global__ void other(int *out) { out[threadIdx.x] = sys_broadcast(out[0]); }
