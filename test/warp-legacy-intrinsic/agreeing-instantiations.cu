// Instantiations of a template that agree on the fix give it (issue 15,
// item 8): the template as written is judged in its instantiations, where
// `threadIdx.x < N` with N = 64 or 128 is whole warps, and no longer vetoes
// the fix with its own answer (a ballot, since N is not known there).
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// IDEMPOTENT: 0 findings in 0 files (0 fixable)

template <int N>
__global__ void first_warps(int *o) {
  int v = o[threadIdx.x];
  if (threadIdx.x < N)
    v += __shfl_down(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: every lane of the warp reaches this call, so the full mask is exact
  // CHECK-MESSAGES: :[[@LINE-3]]:10: note: this assumes blocks are made of whole warps
  o[threadIdx.x] = v;
}
template __global__ void first_warps<64>(int *);
template __global__ void first_warps<128>(int *);
// CHECK-FIXES:{{^}}    v += __shfl_down_sync(0xffffffff, v, 1);

// One instantiation, from a kernel whose every lane calls it.
template <int N>
__device__ int below(int v) {
  if (threadIdx.x < N)
    v = __shfl(v, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: '__shfl' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:9: note: every lane of the warp reaches this call, so the full mask is exact
  // CHECK-MESSAGES: :[[@LINE-3]]:9: note: this assumes blocks are made of whole warps
  return v;
}
__global__ void calls_below(int *o) { o[threadIdx.x] = below<32>(o[threadIdx.x]); }
// CHECK-FIXES:{{^}}    v = __shfl_sync(0xffffffff, v, 0);
