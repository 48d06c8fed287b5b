// `gid < N` with N a multiple of 32 is warp-uniform only in blocks of whole
// warps: a launch in the file that says otherwise turns the assumption off
// for the kernels it reaches (issue 13, pattern 4).
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 0 %warpfix --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// IDEMPOTENT: 0 findings in 0 files (0 fixable)
#define N 1024

__global__ void launched_with_48(int *p) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = 1;
  if (gid < N)
    v = __shfl_xor(v, 1);
  p[gid] = v;
}

__global__ void launched_with_64(int *p) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = 1;
  if (gid < N)
    v = __shfl_xor(v, 1);
  p[gid] = v;
}

void host(int *p) {
  launched_with_48<<<N / 48 + 1, 48>>>(p);
  launched_with_64<<<N / 64, 64>>>(p);
}

// CHECK-MESSAGES: :19:9: warning: '__shfl_xor' is a legacy warp intrinsic that CUDA 13 no longer compiles; use '__shfl_xor_sync' with an explicit member mask
// CHECK-MESSAGES: :19:9: note: only some lanes reach this call; the mask is a ballot of the branch conditions, taken before the branch (Using CUDA Warp-Level Primitives, listing 3)
// CHECK-MESSAGES: :32:3: note: the whole-warp assumption is off for kernel 'launched_with_48': it is launched here with blocks of 48 threads in x, not a multiple of 32
// CHECK-MESSAGES: :27:9: warning: '__shfl_xor' is a legacy warp intrinsic that CUDA 13 no longer compiles; use '__shfl_xor_sync' with an explicit member mask
// CHECK-MESSAGES: :27:9: note: every lane of the warp reaches this call, so the full mask is exact
// CHECK-FIXES: const unsigned warpfix_mask_18 = __ballot_sync(0xffffffff, gid < N);
// CHECK-FIXES: v = __shfl_xor_sync(warpfix_mask_18, v, 1);
// CHECK-FIXES: v = __shfl_xor_sync(0xffffffff, v, 1);
