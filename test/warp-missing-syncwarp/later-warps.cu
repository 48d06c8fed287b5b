// Every warp of a launched block is modelled: a race that only the third
// and fourth warps of a 128-thread block run is found and fixed.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-missing-syncwarp %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --no-cache --checks=-*,warp-missing-syncwarp --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// IDEMPOTENT: 0 findings in 0 files (0 fixable)

__global__ void later_warps(int *out, const int *in) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * 128 + t];
  __syncthreads();
  if (t >= 64) {
    if ((t & 31) < 16) s[t] += s[t + 16];
    if ((t & 31) < 8) s[t] += s[t + 8];
  }
  if (t == 64) out[blockIdx.x] = s[64];
}
// CHECK-MESSAGES: :19:24: warning: lanes of one warp race on shared memory: lane 8 of warp 2 writes s[72] and lane 0 reads it
// CHECK-MESSAGES: :20:31: note: the other lane reads it here
// CHECK-MESSAGES: :19:5: note: each lane now reads into a register, all lanes synchronise, then each writes its own element
// CHECK-FIXES:{{^}}  if (t >= 64) {
// CHECK-FIXES-NEXT:{{^}}    auto warpfix_acc_19 = s[t];
// CHECK-FIXES-NEXT:{{^}}    if ((t & 31) < 16) warpfix_acc_19 += s[t + 16];
// CHECK-FIXES-NEXT:{{^}}    __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}    if ((t & 31) < 16) s[t] = warpfix_acc_19;
// CHECK-FIXES-NEXT:{{^}}    __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}    if ((t & 31) < 8) warpfix_acc_19 += s[t + 8];
// CHECK-FIXES-NEXT:{{^}}    __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}    if ((t & 31) < 8) s[t] = warpfix_acc_19;
// CHECK-FIXES-NEXT:{{^}}    __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  }

void host(int *o, const int *i) { later_warps<<<4, 128>>>(o, i); }
