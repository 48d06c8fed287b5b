// A thread-strided loop, `for (i = threadIdx.x; i < padded; i += blockDim.x)`,
// with `padded` a multiple of 32 and blockDim.x one too, runs the same number
// of iterations in every lane of a warp: the lanes of a warp hold 32 adjacent
// values of i in one 32-aligned window, which the bound never splits (issue
// 15, item 8a). Whole-warp blocks are the documented assumption, said in a
// note; a launch that contradicts it, or any missing fact, keeps the loop
// divergent.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// IDEMPOTENT: 0 findings in 0 files (0 fixable)
// Without the whole-warp assumption, blockDim.x is not known to be a multiple
// of 32 where no launch shows it:
// RUN: %expect-exit 1 %warpfix --no-cache --assume-whole-warps=false %s 2>&1 | FileCheck %s --check-prefix=NO-WHOLE-WARPS
// The near misses are in thread-strided-loop-divergent.cu.

__global__ void padded_divide(const int *in, int *out, int n) {
  int padded = (n + 31) / 32 * 32;
  int acc = 0;
  for (int i = threadIdx.x; i < padded; i += blockDim.x) {
    int v = i < n ? in[i] : 0;
    acc += __shfl_down(v, 16);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_down' is a legacy
    // CHECK-MESSAGES: :[[@LINE-2]]:12: note: every lane of the warp reaches this call, so the full mask is exact
    // CHECK-MESSAGES: :[[@LINE-3]]:12: note: this assumes blocks are made of whole warps (blockDim.x a multiple of 32); pass --assume-whole-warps=false if they are not
    // NO-WHOLE-WARPS: :[[@LINE-4]]:12: warning: '__shfl_down' is a legacy
    // NO-WHOLE-WARPS: :[[@LINE-7]]:3: note: the lanes that ran an iteration of this loop were those whose condition still held
  }
  out[threadIdx.x] = acc;
}
// CHECK-FIXES:{{^}}    acc += __shfl_down_sync(0xffffffff, v, 16);

// A grid-stride while loop; the bound rounded up with a mask, or assigned
// only multiples of 32.
__global__ void padded_mask(const int *in, int *out, int n) {
  int padded = 32;
  if (n > 32)
    padded = (n + 31) & ~31;
  int acc = 0;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  while (i < padded) {
    int v = i < n ? in[i] : 0;
    acc += __shfl_xor(v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_xor' is a legacy
    // CHECK-MESSAGES: :[[@LINE-2]]:12: note: every lane of the warp reaches this call, so the full mask is exact
    // CHECK-MESSAGES: :[[@LINE-3]]:12: note: this assumes blocks are made of whole warps
    i += blockDim.x * gridDim.x;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
// CHECK-FIXES:{{^}}    acc += __shfl_xor_sync(0xffffffff, v, 1);

// Launched with whole warps (host below), so nothing is assumed; the bound
// is warps * 32.
__global__ void padded_times(const int *in, int *out, int warps) {
  int acc = 0;
  for (unsigned i = threadIdx.x; i < warps * 32; i += blockDim.x)
    acc += __shfl_up(in[i], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_up' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: every lane of the warp reaches this call, so the full mask is exact
  out[threadIdx.x] = acc;
}
// CHECK-FIXES:{{^}}    acc += __shfl_up_sync(0xffffffff, in[i], 1);

void host(const int *in, int *out, int n) {
  padded_times<<<1, 256>>>(in, out, n / 32);
}
