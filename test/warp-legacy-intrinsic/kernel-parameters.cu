// A kernel's parameter is what the launch passed, the same in every thread,
// as long as the kernel never assigns it and never lets its address out: a
// bound on it (`if (n > 4)`) is reached by whole warps, and the full mask is
// exact. Traps: a parameter assigned under a lane-dependent branch, stepped
// by the thread index, or written through its address keeps its ballot.
//
// The bounds below that fold to 32 pin what the constant folder is still
// asked about: an array's address arithmetic and a short-circuit, which fold
// although they name a variable, and a product by zero, which does not fold
// but is still known to be a multiple of 32.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: %expect-exit 0 %warpfix --no-cache %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}

__global__ void uniform_bound(int *io, int n) {
  int v = io[threadIdx.x];
  if (n > 4)
    v += __shfl_down(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: every lane of the warp reaches this call, so the full mask is exact
  io[threadIdx.x] = v;
}
// CHECK-FIXES:{{^}}  if (n > 4)
// CHECK-FIXES-NEXT:{{^}}    v += __shfl_down_sync(0xffffffff, v, 1);

__global__ void assigned_bound(int *io, int n) {
  if (threadIdx.x & 1)
    n = 0;
  int v = io[threadIdx.x];
  if (n > 4)
    v += __shfl_down(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: only some lanes reach this call
  io[threadIdx.x] = v;
}
// CHECK-FIXES:{{^}}  const unsigned [[A:warpfix_mask_[0-9]+]] = __ballot_sync(0xffffffff, n > 4);
// CHECK-FIXES-NEXT:{{^}}  if (n > 4)
// CHECK-FIXES-NEXT:{{^}}    v += __shfl_down_sync([[A]], v, 1);

__global__ void stepped_bound(int *io, int n) {
  n += threadIdx.x;
  int v = io[threadIdx.x];
  if (n > 4)
    v += __shfl_down(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: only some lanes reach this call
  io[threadIdx.x] = v;
}
// CHECK-FIXES:{{^}}  const unsigned [[S:warpfix_mask_[0-9]+]] = __ballot_sync(0xffffffff, n > 4);
// CHECK-FIXES-NEXT:{{^}}  if (n > 4)
// CHECK-FIXES-NEXT:{{^}}    v += __shfl_down_sync([[S]], v, 1);

__device__ void clear(int *p) { *p = 0; }

__global__ void escaped_bound(int *io, int n) {
  if (threadIdx.x & 1)
    clear(&n);
  int v = io[threadIdx.x];
  if (n > 4)
    v += __shfl_down(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: only some lanes reach this call
  io[threadIdx.x] = v;
}
// CHECK-FIXES:{{^}}  const unsigned [[E:warpfix_mask_[0-9]+]] = __ballot_sync(0xffffffff, n > 4);
// CHECK-FIXES-NEXT:{{^}}  if (n > 4)
// CHECK-FIXES-NEXT:{{^}}    v += __shfl_down_sync([[E]], v, 1);

__global__ void array_distance_bound(int *io) {
  int lanes[64];
  lanes[threadIdx.x % 64] = io[threadIdx.x];
  int v = lanes[threadIdx.x % 64];
  if (threadIdx.x < (lanes + 32) - lanes)
    v += __shfl_down(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: every lane of the warp reaches this call, so the full mask is exact
  io[threadIdx.x] = v;
}
// CHECK-FIXES:{{^}}  if (threadIdx.x < (lanes + 32) - lanes)
// CHECK-FIXES-NEXT:{{^}}    v += __shfl_down_sync(0xffffffff, v, 1);

__global__ void short_circuit_bound(int *io) {
  int k = threadIdx.x;
  int v = io[k];
  if (threadIdx.x < 32 + (0 && k))
    v += __shfl_down(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: every lane of the warp reaches this call, so the full mask is exact
  io[threadIdx.x] = v;
}
// CHECK-FIXES:{{^}}  if (threadIdx.x < 32 + (0 && k))
// CHECK-FIXES-NEXT:{{^}}    v += __shfl_down_sync(0xffffffff, v, 1);

__global__ void product_bound(int *io, int n) {
  int v = io[threadIdx.x];
  if (threadIdx.x < n * 0 + 32)
    v += __shfl_down(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: every lane of the warp reaches this call, so the full mask is exact
  io[threadIdx.x] = v;
}
// CHECK-FIXES:{{^}}  if (threadIdx.x < n * 0 + 32)
// CHECK-FIXES-NEXT:{{^}}    v += __shfl_down_sync(0xffffffff, v, 1);
