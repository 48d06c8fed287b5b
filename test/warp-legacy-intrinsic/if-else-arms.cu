// Calls in both arms of an if/else each get the ballot of their arm, both
// inserted before the if, in one pass; the exported fixes give the same file.
// RUN: rm -rf %t && mkdir -p %t/fixes %t/export && cp %s %t/k.cu && cp %s %t/export/k.cu
// RUN: %expect-exit 0 %warpfix --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: %expect-exit 1 %warpfix --export-fixes=%t/fixes/k.yaml %t/export/k.cu
// RUN: %clang-apply-replacements %t/fixes
// RUN: diff %t/k.cu %t/export/k.cu
// RUN: %expect-exit 0 %warpfix %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// SUMMARY: fixed 3 findings in 1 file; 0 remain

__global__ void arms(int *p) {
  int v = p[threadIdx.x];
  if (v & 1) {
    v += __shfl(v, 1);
  } else {
    v += __shfl_xor(v, 1) + __any(v);
  }
  p[threadIdx.x] = v;
}
// CHECK-FIXES:{{^}}  const unsigned warpfix_mask_15 = __ballot_sync(0xffffffff, v & 1);
// CHECK-FIXES-NEXT:{{^}}  const unsigned warpfix_mask_15_else = __ballot_sync(0xffffffff, !(v & 1));
// CHECK-FIXES-NEXT:{{^}}  if (v & 1) {
// CHECK-FIXES-NEXT:{{^}}    v += __shfl_sync(warpfix_mask_15, v, 1);
// CHECK-FIXES-NEXT:{{^}}  } else {
// CHECK-FIXES-NEXT:{{^}}    v += __shfl_xor_sync(warpfix_mask_15_else, v, 1) + __any_sync(warpfix_mask_15_else, v);
