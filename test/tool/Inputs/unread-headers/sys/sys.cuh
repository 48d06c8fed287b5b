// Read by both units, through the shared preamble of their system headers.
__device__ inline int sys_broadcast(int v) { return __shfl(v, 0); }
