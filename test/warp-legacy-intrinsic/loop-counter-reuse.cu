// A counter declared once and reused by several loops, as C-era kernels do
// (`int i; ... for (i = 0; i < 4; i++)`): inside a for loop whose init
// assigns it, the counter holds what the init and the loop itself give it,
// whatever earlier code assigned, even under a lane-dependent branch. So a
// uniform loop stays uniform, and its legacy calls are fixed. The near
// misses are in loop-counter-reuse-refused.cu.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// IDEMPOTENT: 0 findings in 0 files (0 fixable)

__device__ float reduceStep(float v) { return v + __shfl_down(v, 1); }
// CHECK-MESSAGES: :[[@LINE-1]]:51: warning: '__shfl_down' is a legacy
// CHECK-MESSAGES: :[[@LINE-2]]:51: note: every lane of the warp reaches this call, so the full mask is exact
// CHECK-FIXES: __device__ float reduceStep(float v) { return v + __shfl_down_sync(0xffffffff, v, 1); }

__global__ void reusedAfterBranch(const int *n, float *out) {
  int i;
  float acc[4];
  for (i = 0; i < 4; i++)
    acc[i] = 0.f;
  if (threadIdx.x < n[0]) {
    for (i = 0; i < 4; i++)
      acc[i] += 1.f;
  }
  for (i = 0; i < 4; i++)
    out[i] = reduceStep(acc[i]);
}

__global__ void steppedInTheLoop(float *out) {
  int i = threadIdx.x;
  float v = out[i];
  for (i = 0; i < 8; i += 2) {
    if (i == 4)
      v += __shfl_xor(v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_xor' is a legacy
    // CHECK-MESSAGES: :[[@LINE-2]]:12: note: every lane of the warp reaches this call, so the full mask is exact
    // CHECK-FIXES: v += __shfl_xor_sync(0xffffffff, v, 1);
  }
  out[threadIdx.x] = v;
}
