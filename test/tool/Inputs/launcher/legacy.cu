__global__ void legacy(int *p) { p[threadIdx.x] = __shfl(p[threadIdx.x], 0); }
