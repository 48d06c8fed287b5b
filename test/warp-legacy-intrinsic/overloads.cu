// Every overload is rewritten the same way: int, unsigned, long, long long and
// their unsigned forms, float, double, __half and __half2; the width argument,
// casts, odd spacing and comments stay as written.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES
// RUN: %expect-exit 0 %warpfix --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: %expect-exit 0 %warpfix %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// RUN: %if nvcc %{ %nvcc-check -arch=sm_75 %t/k.cu %}
// CHECK-MESSAGES: 14 findings in 1 file (14 fixable)
#include <cuda_fp16.h>

__global__ void every_type(int *i, unsigned *u, long *l, unsigned long *ul,
                           long long *ll, unsigned long long *ull, float *f,
                           double *d, __half *h, __half2 *h2) {
  int t = threadIdx.x;
  i[t] = __shfl(i[t], 0);
  u[t] = __shfl_up(u[t], 1, 16);
  l[t] = __shfl_down(l[t], 2);
  ul[t] = __shfl_xor(ul[t], 3, 8);
  ll[t] = __shfl(ll[t], 4);
  ull[t] = __shfl_down(ull[t], 5, 32);
  f[t] = __shfl_xor((float)i[t], 1) + f[t];
  d[t] = __shfl_up(d[t], 2, warpSize);
  h[t] = __shfl_down(h[t], 1);
  h2[t] = __shfl_xor(h2[t], 1, 16);
  i[t] += __shfl_down /* from below */ (i[t], 1);
  i[t] += ::__shfl(i[t], 7);
  u[t] += __shfl_up
      (u[t], 1);
  f[t] += static_cast<float>(__shfl((int)f[t], 0));
}
// CHECK-FIXES: i[t] = __shfl_sync(0xffffffff, i[t], 0);
// CHECK-FIXES-NEXT: u[t] = __shfl_up_sync(0xffffffff, u[t], 1, 16);
// CHECK-FIXES-NEXT: l[t] = __shfl_down_sync(0xffffffff, l[t], 2);
// CHECK-FIXES-NEXT: ul[t] = __shfl_xor_sync(0xffffffff, ul[t], 3, 8);
// CHECK-FIXES-NEXT: ll[t] = __shfl_sync(0xffffffff, ll[t], 4);
// CHECK-FIXES-NEXT: ull[t] = __shfl_down_sync(0xffffffff, ull[t], 5, 32);
// CHECK-FIXES-NEXT: f[t] = __shfl_xor_sync(0xffffffff, (float)i[t], 1) + f[t];
// CHECK-FIXES-NEXT: d[t] = __shfl_up_sync(0xffffffff, d[t], 2, warpSize);
// CHECK-FIXES-NEXT: h[t] = __shfl_down_sync(0xffffffff, h[t], 1);
// CHECK-FIXES-NEXT: h2[t] = __shfl_xor_sync(0xffffffff, h2[t], 1, 16);
// CHECK-FIXES-NEXT: i[t] += __shfl_down_sync /* from below */ (0xffffffff, i[t], 1);
// CHECK-FIXES-NEXT: i[t] += ::__shfl_sync(0xffffffff, i[t], 7);
// CHECK-FIXES-NEXT: u[t] += __shfl_up_sync
// CHECK-FIXES-NEXT: (0xffffffff, u[t], 1);
// CHECK-FIXES-NEXT: f[t] += static_cast<float>(__shfl_sync(0xffffffff, (int)f[t], 0));
