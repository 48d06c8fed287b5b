// Nothing here may be reported: the legacy names appear only in comments and
// strings, in HIP code, as user functions and members, and in code that already
// uses the *_sync forms or their PTX.
// RUN: %expect-exit 0 %warpfix %s 2>&1 | FileCheck %s --implicit-check-not=warning:
// CHECK: 0 findings in 0 files (0 fixable)

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// __shfl_down(v, 1) used to be how this was written; __ballot(1) too.
__device__ const char *Doc = "__shfl_xor(v, 1) and __any(p) are legacy";

namespace mine {
__device__ int any(int x) { return x; }
}
__device__ int all_of_them(int x) { return mine::any(x); }

__global__ void modern(int *p) {
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  int v = __shfl_down_sync(0xffffffff, p[threadIdx.x], 1);
  v += tile.any(v) + tile.all(v) + tile.ballot(v);
  unsigned r;
  asm volatile("shfl.sync.bfly.b32 %0, %1, 1, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v));
  p[threadIdx.x] = v + r;
}

#ifdef __HIP_PLATFORM_AMD__
__global__ void hip_only(int *p) { p[0] = __shfl_down(p[0], 1) + __ballot(1); }
#endif
