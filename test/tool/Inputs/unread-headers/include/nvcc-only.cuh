// Only a branch on __NVCC__ includes it, which clang never takes.
__device__ int first_lane(int p) { return __ffs(__ballot(p)) - 1; }
