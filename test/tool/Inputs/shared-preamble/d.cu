#include "sysdefs.h"
// No #include <...> first: the preamble holds the implicit headers only.
__global__ void broken(int *out) {
  int v = out[threadIdx.x];
  v += __ballot(v > 0) + undeclared;
  out[threadIdx.x] = v;
}
__global__ void fine(int *out) {
  out[threadIdx.x] = __any(out[threadIdx.x] > 0);
}
