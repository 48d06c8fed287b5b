// A ballot's predicate is an int: a condition of another type passed as it
// is converted, not tested. 0.5f and 1ull << 32 would become 0, and a
// pointer would not compile. Such a condition is written `!!(c)`, which is
// 1 exactly where the branch is taken; a bool or a 32-bit integer is
// written as it is.
// RUN: %{copy-to-k}
// RUN: %expect-exit 0 %warpfix --no-cache --checks=-*,warp-legacy-intrinsic --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// SUMMARY: fixed 6 findings in 1 file; 0 remain
// IDEMPOTENT: 0 findings in 0 files (0 fixable)

__global__ void predicates(const float *in, const int *p, int *out) {
  int x = threadIdx.x & 31, r = 0;
  float f = (x % 5) * 0.5f;
  if (f)
    r += __ballot(1);
  double d = (x % 3) * 0.25;
  r += d ? __ballot(1) : 0;
  unsigned long long wide = (unsigned long long)(x % 4) << 31;
  r += wide ? __ballot(1) : 0;
  const int *q = x & 1 ? p : nullptr;
  if (q)
    r += __ballot(1);
  short s = x & 2;
  if (s)
    r += __ballot(1);
  bool b = x & 4;
  r += b ? __ballot(1) : 0;
  out[threadIdx.x] = r + (int)in[0];
}
// CHECK-FIXES:      {{^}}  const unsigned warpfix_mask_[[F:[0-9]+]] = __ballot_sync(0xffffffff, !!(f));
// CHECK-FIXES-NEXT: {{^}}  if (f)
// CHECK-FIXES-NEXT: {{^}}    r += __ballot_sync(warpfix_mask_[[F]], 1);
// CHECK-FIXES:      {{^}}  const unsigned warpfix_mask_[[D:[0-9]+]] = __ballot_sync(0xffffffff, !!(d));
// CHECK-FIXES-NEXT: {{^}}  r += d ? __ballot_sync(warpfix_mask_[[D]], 1) : 0;
// CHECK-FIXES:      {{^}}  const unsigned warpfix_mask_[[W:[0-9]+]] = __ballot_sync(0xffffffff, !!(wide));
// CHECK-FIXES:      {{^}}  const unsigned warpfix_mask_[[Q:[0-9]+]] = __ballot_sync(0xffffffff, !!(q));
// CHECK-FIXES:      {{^}}  const unsigned warpfix_mask_[[S:[0-9]+]] = __ballot_sync(0xffffffff, s);
// CHECK-FIXES:      {{^}}  const unsigned warpfix_mask_[[B:[0-9]+]] = __ballot_sync(0xffffffff, b);
