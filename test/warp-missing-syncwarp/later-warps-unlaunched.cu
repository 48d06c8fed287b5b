// With no launch in sight a kernel is modelled in a block of two warps and
// in one of 1024 threads: a race that only warps past the second run is
// found and fixed. Where the larger model would cost too much, the
// findings say that it was not made.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-missing-syncwarp %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-missing-syncwarp --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// IDEMPOTENT: fixed 0 findings in 0 files; 1 remain

__global__ void laterWarpsOnly(int *out, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * 1024 + t];
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE+2]]:24: warning: lanes of one warp race on shared memory: lane 8 of warp 16 writes s[520] and lane 0 reads it
  if (t >= 512) {
    if ((t & 31) < 16) s[t] += s[t + 16];
    if ((t & 31) < 8) s[t] += s[t + 8];
  }
  if (t == 512) out[blockIdx.x] = s[512];
}

__global__ void tooCostly(int *out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+2]]:3: warning: lanes of one warp race on shared memory: lane 1 writes s[1] and lane 0 reads it
  // CHECK-MESSAGES: :[[@LINE+1]]:3: note: with no launch in sight this kernel was modelled in a block of two warps only (a block of 1024 threads would cost too much): races that only later warps make are not reported
  s[t] = t;
  int acc = s[t ^ 1];
  for (int k = 0; k < 64; k++)
    for (int j = 0; j < 64; j++)
      acc += s[(t + k * j) & 63];
  out[t] = acc;
}
// CHECK-FIXES:{{^}}  if (t >= 512) {
// CHECK-FIXES-NEXT:{{^}}    auto warpfix_acc_{{[0-9]+}} = s[t];
// CHECK-FIXES-NEXT:{{^}}    if ((t & 31) < 16) warpfix_acc_{{[0-9]+}} += s[t + 16];
// CHECK-FIXES-NEXT:{{^}}    __syncwarp(0xffffffff);
