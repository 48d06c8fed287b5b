// --mask-fallback=activemask rewrites calls whose lanes are unknown with
// __activemask(), the legacy semantics, and marks each for review. Such a
// finding is not resolved: the run says that it remains, and exits 1, and the
// next run reports the mask (warp-activemask-mask).
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --fix --mask-fallback=activemask %t/k.cu 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: %expect-exit 1 %warpfix %t/k.cu 2>&1 | FileCheck %s --check-prefix=SECOND
// RUN: cp %s %t/j.cu
// RUN: %expect-exit 1 %warpfix --fix --mask-fallback=activemask --format=json %t/j.cu > %t/report.json
// RUN: %python %S/../Inputs/check-json-report.py %t/report.json | FileCheck %s --check-prefix=VALID
// RUN: FileCheck %s --check-prefix=JSON --input-file=%t/report.json
// VALID: ok: 1 findings, 1 fixable, 1 fixed
// JSON: "fixedForReview": 1,
// JSON: "remaining": 1,
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// SUMMARY: 1 finding in 1 file (1 fixable)
// SUMMARY: fixed 1 finding in 1 file; 1 remain, 1 of them fixed with __activemask() marked for review
// SECOND: warning: __activemask() is the member mask of '__shfl_down_sync'{{.*}}[warp-activemask-mask]
// SECOND: 1 finding in 1 file (0 fixable)

__global__ void divergent_loop(int *s) {
  int idx = threadIdx.x;
  for (int t = 16; idx < t; t >>= 1)
    s[idx] += __shfl_down(s[idx], t);
}
// CHECK-FIXES: s[idx] += __shfl_down_sync(__activemask() /* warpfix: legacy semantics, review this mask */, s[idx], t);
