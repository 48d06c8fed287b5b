// Instantiations of a template that agree on the fix give it (issue 15,
// item 8): the template as written is judged in its instantiations, and no
// longer vetoes their fix with its own answer.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=AGAIN
// AGAIN: {{^}}1 finding in 1 file (0 fixable)
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}

template <int N>
__global__ void first_warps(int *o) {
  int v = o[threadIdx.x];
  if (threadIdx.x < N)
    v += __shfl_down_sync(__activemask(), v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: __activemask() is the member mask of '__shfl_down_sync'
  // CHECK-MESSAGES: :[[@LINE-2]]:27: note: every lane of the warp reaches this call, so the full mask is exact
  // CHECK-MESSAGES: :[[@LINE-3]]:27: note: this assumes blocks are made of whole warps
  o[threadIdx.x] = v;
}
template __global__ void first_warps<64>(int *);
// CHECK-FIXES:{{^}}    v += __shfl_down_sync(0xffffffff, v, 1);

// Trap: instantiations that need different masks still give none.
template <int N>
__global__ void some_lanes(int *o) {
  int v = o[threadIdx.x];
  if (threadIdx.x < N)
    v += __shfl_down_sync(__activemask(), v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: __activemask() is the member mask of '__shfl_down_sync'
  // CHECK-MESSAGES: :[[@LINE-2]]:27: note: no automatic fix: this code is shared by several macro expansions, template instantiations or translation units, and they need different fixes
  o[threadIdx.x] = v;
}
template __global__ void some_lanes<64>(int *);
template __global__ void some_lanes<8>(int *);
// CHECK-FIXES:{{^}}    v += __shfl_down_sync(__activemask(), v, 1);
