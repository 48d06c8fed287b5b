// __activemask() kept in a local, an element of a local array or a field of
// a local struct, then used as a member mask where every lane arrives (issue
// 15, item 4b). Nothing guarantees the warp is converged there: the full
// mask, written where the value is taken, once for all its uses. Taken in a
// branch, it is the ballot of the branch, as for a mask used directly.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: %expect-exit 0 %warpfix --no-cache %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}

// As TVM writes a warp reduction.
extern "C" __global__ void tvm_reduce(float *__restrict__ out,
                                      const float *__restrict__ in) {
  float red_buf0[1];
  unsigned mask[1];
  float t0[1];
  red_buf0[0] = in[blockIdx.x * 32 + threadIdx.x];
  mask[0] = __activemask();
  t0[0] = __shfl_down_sync(mask[0], red_buf0[0], 16, 32);
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: __activemask() is the member mask of '__shfl_down_sync'
  // CHECK-MESSAGES: :[[@LINE-3]]:13: note: the mask is taken here
  // CHECK-MESSAGES: :[[@LINE-4]]:13: note: 'mask[0]' is used only as the member mask of primitives that every lane reaches, so the full mask is written where it is taken
  // CHECK-MESSAGES: :[[@LINE-5]]:13: note: every lane of the warp reaches this call, so the full mask is exact
  red_buf0[0] = red_buf0[0] + t0[0];
  t0[0] = __shfl_down_sync(mask[0], red_buf0[0], 8, 32);
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: __activemask() is the member mask of '__shfl_down_sync'
  red_buf0[0] = red_buf0[0] + t0[0];
  red_buf0[0] = __shfl_sync(mask[0], red_buf0[0], 0, 32);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: __activemask() is the member mask of '__shfl_sync'
  out[blockIdx.x * 32 + threadIdx.x] = red_buf0[0];
}

__global__ void scalar(int *io) {
  int v = io[threadIdx.x];
  unsigned m = __activemask();
  for (int k = 16; k > 0; k >>= 1)
    v += __shfl_down_sync(m, v, k);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: __activemask() is the member mask of '__shfl_down_sync'
  // CHECK-MESSAGES: :[[@LINE-4]]:16: note: the mask is taken here
  // CHECK-MESSAGES: :[[@LINE-5]]:16: note: 'm' is used only as the member mask
  io[threadIdx.x] = v;
}

struct Lanes {
  unsigned mask;
  int count;
};

__global__ void field(int *io) {
  Lanes l;
  l.count = 2;
  l.mask = __activemask();
  int v = io[threadIdx.x];
  v += __shfl_xor_sync(l.mask, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: __activemask() is the member mask of '__shfl_xor_sync'
  // CHECK-MESSAGES: :[[@LINE-4]]:12: note: the mask is taken here
  // CHECK-MESSAGES: :[[@LINE-5]]:12: note: 'l.mask' is used only as the member mask
  io[threadIdx.x] = v + l.count;
}

__global__ void in_branch(int *io) {
  int v = io[threadIdx.x];
  unsigned mask[2];
  if (v > 0) {
    mask[1] = __activemask();
    v += __shfl_xor_sync(mask[1], v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: __activemask() is the member mask of '__shfl_xor_sync'
    // CHECK-MESSAGES: :[[@LINE-3]]:15: note: the mask is taken here
    // CHECK-MESSAGES: :[[@LINE-4]]:15: note: only some lanes reach this call; the mask is a ballot of the branch conditions
  }
  io[threadIdx.x] = v;
}

// Traps: another element, and a field of another struct, are not the mask.
__global__ void traps(int *io, unsigned lanes) {
  unsigned mask[2];
  Lanes a, b;
  mask[0] = __activemask();
  mask[1] = lanes;
  a.mask = __activemask();
  b.mask = lanes;
  int v = io[threadIdx.x];
  if (v > 0)
    v += __shfl_xor_sync(mask[1], v, 1) + __shfl_xor_sync(b.mask, v, 2);
  io[threadIdx.x] = v + __popc(mask[0]) + __popc(a.mask);
}
// CHECK-MESSAGES: 6 findings in 1 file (6 fixable)

// CHECK-FIXES:{{^}}  red_buf0[0] = in[blockIdx.x * 32 + threadIdx.x];
// CHECK-FIXES-NEXT:{{^}}  mask[0] = 0xffffffff;
// CHECK-FIXES-NEXT:{{^}}  t0[0] = __shfl_down_sync(mask[0], red_buf0[0], 16, 32);
// CHECK-FIXES:{{^}}  unsigned m = 0xffffffff;
// CHECK-FIXES:{{^}}  l.mask = 0xffffffff;
// CHECK-FIXES:{{^}}  const unsigned [[M:warpfix_mask_[0-9]+]] = __ballot_sync(0xffffffff, v > 0);
// CHECK-FIXES-NEXT:{{^}}  if (v > 0) {
// CHECK-FIXES-NEXT:{{^}}    mask[1] = [[M]];
// CHECK-FIXES:{{^}}  mask[0] = __activemask();
// CHECK-FIXES-NEXT:{{^}}  mask[1] = lanes;
// CHECK-FIXES-NEXT:{{^}}  a.mask = __activemask();
