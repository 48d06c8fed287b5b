__global__ void clean(int *p) { p[threadIdx.x] = 1; }
