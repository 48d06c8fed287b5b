// Regressions for the crash of issue 14: the lane-dependence analysis paired
// call arguments with parameters by index, which ran past the parameters of a
// variadic call (printf) and of a member operator call whose object is
// argument 0 (a functor's operator(), a vector type's implicit operator=).
// Each kernel below crashed warpfix; now each is analysed and fixed.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
#include <cstdio>

__global__ void logs(int *o, int n) {
  int x = o[threadIdx.x], m = n * 2;
  printf("%d %d\n", x, m);
  if (m > 1) x += __shfl_down(x, 1);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:19: warning: '__shfl_down' is a legacy
  // CHECK-FIXES:   if (m > 1) x += __shfl_down_sync(0xffffffff, x, 1);
  o[threadIdx.x] = x;
}

struct Add {
  __device__ int operator()(int a, int b) const { return a + b; }
};

__global__ void functor(int *o, int n) {
  Add g;
  int x = o[threadIdx.x], m = n;
  int y = g(x, m);
  if (m > 1) y += __shfl_xor(y, 1);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:19: warning: '__shfl_xor' is a legacy
  // CHECK-FIXES:   if (m > 1) y += __shfl_xor_sync(0xffffffff, y, 1);
  o[threadIdx.x] = y;
}

__global__ void vectors(uint2 *o, int n) {
  uint2 a = o[threadIdx.x], b, c = o[0];
  for (int i = 0; i < n; ++i) {
    b = a;
    c = b;
    a.x = __shfl(b.x, 0);
    // CHECK-MESSAGES: k.cu:[[@LINE-1]]:11: warning: '__shfl' is a legacy
    // CHECK-FIXES:     a.x = __shfl_sync(0xffffffff, b.x, 0);
  }
  o[threadIdx.x] = a;
  o[0] = c;
}
