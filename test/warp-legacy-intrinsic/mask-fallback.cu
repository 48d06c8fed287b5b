// --mask-fallback=activemask rewrites calls whose lanes are unknown with
// __activemask(), the legacy semantics, and marks each for review.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/k.cu
// RUN: %expect-exit 0 %warpfix --fix --mask-fallback=activemask %t/k.cu 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// SUMMARY: 1 finding in 1 file (1 fixable)

__global__ void divergent_loop(int *s) {
  int idx = threadIdx.x;
  for (int t = 16; idx < t; t >>= 1)
    s[idx] += __shfl_down(s[idx], t);
}
// CHECK-FIXES: s[idx] += __shfl_down_sync(__activemask() /* warpfix: legacy semantics, review this mask */, s[idx], t);
