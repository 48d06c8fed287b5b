// A barrier orders only the lanes it names: `__syncwarp(0x0000ffff)` the low
// half-warp, a tile's sync() the lanes of each tile. A read of the other
// half's element after such a barrier still races, and the fix is a
// __syncwarp() of the whole warp. Within the half or the tile it does not.
// The kernels are launched in blocks of one warp, so the races stay within
// it.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-missing-syncwarp %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --no-cache --checks=-*,warp-missing-syncwarp --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// IDEMPOTENT: 0 findings in 0 files (0 fixable)
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void halves(int *out, const int *in) {
  __shared__ int s[32];
  int lane = threadIdx.x & 31;
  s[lane] = in[lane];
  if (lane < 16)
    __syncwarp(0x0000ffff);
  else
    __syncwarp(0xffff0000);
  out[lane] = s[(lane + 16) & 31];
}
// CHECK-MESSAGES: :22:3: warning: lanes of one warp race on shared memory: lane 0 writes s[0] and lane 16 reads it
// CHECK-MESSAGES: :27:15: note: the other lane reads it here
// CHECK-MESSAGES: :27:3: note: a __syncwarp() between the accesses orders them
// CHECK-FIXES:{{^}}    __syncwarp(0xffff0000);
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  out[lane] = s[(lane + 16) & 31];

__global__ void tiles(int *out, const int *in) {
  __shared__ int s[32];
  int lane = threadIdx.x & 31;
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
  s[lane] = in[lane];
  tile.sync();
  out[lane] = s[lane ^ 16];
}
// CHECK-MESSAGES: :40:3: warning: lanes of one warp race on shared memory: lane 0 writes s[0] and lane 16 reads it
// CHECK-MESSAGES: :42:15: note: the other lane reads it here
// CHECK-MESSAGES: :42:3: note: a __syncwarp() between the accesses orders them
// CHECK-FIXES:{{^}}  tile.sync();
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  out[lane] = s[lane ^ 16];

// Not reported: each half reads its own half after its barrier, each tile
// its own tile.
__global__ void within_half(int *out, const int *in) {
  __shared__ int s[32];
  int lane = threadIdx.x & 31;
  if (lane < 16) {
    s[lane] = in[lane];
    __syncwarp(0x0000ffff);
    out[lane] = s[lane ^ 1];
  }
}

__global__ void within_tile(int *out, const int *in) {
  __shared__ int s[32];
  int lane = threadIdx.x & 31;
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
  s[lane] = in[lane];
  tile.sync();
  out[lane] = s[lane ^ 8];
}

void host(int *out, const int *in) {
  halves<<<8, 32>>>(out, in);
  tiles<<<8, 32>>>(out, in);
  within_half<<<8, 32>>>(out, in);
  within_tile<<<8, 32>>>(out, in);
}
