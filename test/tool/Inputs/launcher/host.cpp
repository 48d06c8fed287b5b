__global__ void as_cuda(int *p) { p[threadIdx.x] = __any(p[threadIdx.x]); }
