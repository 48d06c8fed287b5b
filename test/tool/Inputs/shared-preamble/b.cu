#include <sysdefs.h>
// The same leading bytes as a.cu: it reuses a.cu's preamble.
// NOLINTBEGIN(warp-legacy-intrinsic), never closed: reported.

__global__ void divergent(int *out) {
  int v = out[threadIdx.x];
  if (threadIdx.x < 16)
    v = __shfl_down(v, 1, 16);
  out[threadIdx.x] = sys_twice(v);
}
