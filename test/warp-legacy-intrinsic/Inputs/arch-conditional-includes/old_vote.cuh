// Included only where __CUDA_ARCH__ < 700: no parse for sm_70 reads it.
#include "old_scan.cuh"
#include "shared_vote.cuh"
#include <sys_vote.cuh>
__device__ int vote(int p) { return __any(p); }
