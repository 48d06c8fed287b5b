// Parses only with the flags of its compile command.
#include "config.h"
#if !FROM_INCLUDE_PATH || !FROM_D || !FORCED || __cplusplus < 201703L
#error "the compile command's flags were not applied"
#endif
#if __CUDA_ARCH__ < 800
#error "parsed for sm_75, not the database's sm_80"
#endif

__global__ void k(int *p) {
  int v = p[threadIdx.x];
  v += __shfl_up(v, 1);
  p[threadIdx.x] = v;
}
