// A guard on blockIdx picks the code that a block runs, and some block runs
// each part of it: the analysis takes such a guard as possibly true. It used
// to evaluate blockIdx as 0, which made the off-diagonal tile of an n-body
// kernel (blockIdx.y < blockIdx.x) dead code and hid its race, once the
// launch's 32-thread blocks left no second warp whose own index made the
// guard hold. In an index, blockIdx is still one value for both lanes.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-missing-syncwarp %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// IDEMPOTENT: 0 findings in 0 files (0 fixable)

__global__ void off_diagonal(float *out, const float *in) {
  __shared__ float forces[32 * 33];
  int lane = threadIdx.x & 31;
  if (blockIdx.y < blockIdx.x) {
    // CHECK-MESSAGES: :[[@LINE+2]]:7: warning: lanes of one warp race on shared memory: lane 1 writes forces[33] and lane 0 reads it
    for (int j = 0; j < 32; ++j)
      forces[33 * lane + j] = in[lane] - in[j];
    float sum = 0;
    for (int j = 0; j < 32; ++j)
      sum += forces[33 * j + lane];
    out[blockIdx.x * 32 + lane] = sum;
  }
}
// CHECK-FIXES:{{^}}      forces[33 * lane + j] = in[lane] - in[j];
// CHECK-FIXES-NEXT:{{^}}    float sum = 0;
// CHECK-FIXES-NEXT:{{^}}    __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}    for (int j = 0; j < 32; ++j)

// Not reported: a guard that is false for every lane of every block, on the
// lane alone, whatever blockIdx is.
__global__ void never(float *out) {
  __shared__ float s[64];
  int lane = threadIdx.x & 31;
  if (blockIdx.x < 4 && lane > 40) {
    s[lane] = 1;
    out[lane] = s[lane ^ 1];
  }
}

void launch(float *out, const float *in) {
  off_diagonal<<<dim3(8, 8), 32>>>(out, in);
  never<<<8, 32>>>(out);
}
