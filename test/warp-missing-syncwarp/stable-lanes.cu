// The trap of unstable-lanes.cu: a ballot whose condition reads only
// registers and constants (warpSize is a const variable that no device code
// writes) names the same lanes in every iteration of the loop inside it, so
// the listing-8 rewrite under it is right.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-missing-syncwarp %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// IDEMPOTENT: 0 findings in 0 files (0 fixable)
__global__ void warp_size_guard(float *out, const float *in) {
  __shared__ float ssum[256];
  int tid = threadIdx.x;
  ssum[tid] = in[blockIdx.x * 256 + tid];
  __syncthreads();
  for (int shift = 128; shift > warpSize; shift >>= 1) {
    if (tid < shift) {
      ssum[tid] += ssum[tid + shift];
    }
    __syncthreads();
  }
  if (tid < warpSize / 2) {
    for (int shift = warpSize / 2; shift > 0; shift >>= 1) {
      ssum[tid] += ssum[tid + shift];
    }
  }
  __syncthreads();
  out[blockIdx.x * 256 + tid] = ssum[0];
}
void launch(float *o, const float *i, int n) { warp_size_guard<<<n, 256>>>(o, i); }
// CHECK-MESSAGES: :27:7: warning: lanes of one warp race on shared memory: lane 8 writes ssum[8] and lane 0 reads it
// CHECK-MESSAGES: :27:7: note: each lane now reads into a register, all lanes synchronise, then each writes its own element
// CHECK-MESSAGES: :27:7: note: only some lanes reach this statement; the mask is a ballot of the branch conditions
// CHECK-FIXES:{{^}}  const unsigned warpfix_mask_25 = __ballot_sync(0xffffffff, tid < warpSize / 2);
// CHECK-FIXES-NEXT:{{^}}  if (tid < warpSize / 2) {
// CHECK-FIXES-NEXT:{{^}}    for (int shift = warpSize / 2; shift > 0; shift >>= 1) {
// CHECK-FIXES-NEXT:{{^}}      auto warpfix_acc_27 = ssum[tid];
// CHECK-FIXES-NEXT:{{^}}      warpfix_acc_27 += ssum[tid + shift];
// CHECK-FIXES-NEXT:{{^}}      __syncwarp(warpfix_mask_25);
// CHECK-FIXES-NEXT:{{^}}      ssum[tid] = warpfix_acc_27;
// CHECK-FIXES-NEXT:{{^}}      __syncwarp(warpfix_mask_25);
