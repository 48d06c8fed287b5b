// A local is lane-dependent once a lane-dependent value may reach it, through
// its address, a reference, or an element store; its initializer alone says
// nothing then (issue 13, pattern 1).
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 0 %warpfix --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// IDEMPOTENT: 0 findings in 0 files (0 fixable)
__device__ void load4(int *dst, const int *src) {
  for (int i = 0; i < 4; ++i)
    dst[i] = src[i];
}

__global__ void through_pointer(int *out, const int *in) {
  int buf[4] = {0, 0, 0, 0};
  load4(buf, in + 4 * (blockIdx.x * blockDim.x + threadIdx.x));
  int x = buf[1];
  if (buf[0] > 50)
    x = __ballot(x & 1);
  out[threadIdx.x] = x;
}

__global__ void range_for_by_reference(int *out, const int *in) {
  int vals[2] = {0, 0};
  int k = threadIdx.x;
  for (int &v : vals)
    v = in[k++];
  int x = 0;
  if (vals[1] != 0)
    x = __any(vals[0] > 2);
  out[threadIdx.x] = x;
}

__global__ void element_store(int *out) {
  int lanes[2] = {0, 0};
  lanes[1] = threadIdx.x & 31;
  int x = 1;
  if (lanes[1] < 16)
    x = __shfl_down(x, 16);
  out[threadIdx.x] = x;
}

__global__ void alias_store(int *out) {
  int flag = 0;
  int *p = &flag;
  *p = threadIdx.x % 3;
  int x = 1;
  if (flag == 0)
    x = __shfl_xor(x, 1);
  out[threadIdx.x] = x;
}

// Trap: nothing lane-dependent ever reaches this table.
__global__ void constant_table(int *out, int n) {
  int table[2] = {3, 4};
  int x = out[threadIdx.x];
  if (table[0] + n > 3)
    x = __shfl_xor(x, 1);
  out[threadIdx.x] = x;
}

// CHECK-MESSAGES: :23:9: warning: '__ballot' is a legacy warp intrinsic that CUDA 13 no longer compiles; use '__ballot_sync' with an explicit member mask
// CHECK-MESSAGES: :23:9: note: only some lanes reach this call; the mask is a ballot of the branch conditions, taken before the branch (Using CUDA Warp-Level Primitives, listing 3)
// CHECK-MESSAGES: :34:9: warning: '__any' is a legacy warp intrinsic that CUDA 13 no longer compiles; use '__any_sync' with an explicit member mask
// CHECK-MESSAGES: :34:9: note: only some lanes reach this call; the mask is a ballot of the branch conditions, taken before the branch (Using CUDA Warp-Level Primitives, listing 3)
// CHECK-MESSAGES: :43:9: warning: '__shfl_down' is a legacy warp intrinsic that CUDA 13 no longer compiles; use '__shfl_down_sync' with an explicit member mask
// CHECK-MESSAGES: :43:9: note: only some lanes reach this call; the mask is a ballot of the branch conditions, taken before the branch (Using CUDA Warp-Level Primitives, listing 3)
// CHECK-MESSAGES: :53:9: warning: '__shfl_xor' is a legacy warp intrinsic that CUDA 13 no longer compiles; use '__shfl_xor_sync' with an explicit member mask
// CHECK-MESSAGES: :53:9: note: only some lanes reach this call; the mask is a ballot of the branch conditions, taken before the branch (Using CUDA Warp-Level Primitives, listing 3)
// CHECK-MESSAGES: :62:9: warning: '__shfl_xor' is a legacy warp intrinsic that CUDA 13 no longer compiles; use '__shfl_xor_sync' with an explicit member mask
// CHECK-MESSAGES: :62:9: note: every lane of the warp reaches this call, so the full mask is exact
// CHECK-FIXES: const unsigned warpfix_mask_22 = __ballot_sync(0xffffffff, buf[0] > 50);
// CHECK-FIXES: x = __ballot_sync(warpfix_mask_22, x & 1);
// CHECK-FIXES: const unsigned warpfix_mask_33 = __ballot_sync(0xffffffff, vals[1] != 0);
// CHECK-FIXES: x = __any_sync(warpfix_mask_33, vals[0] > 2);
// CHECK-FIXES: const unsigned warpfix_mask_42 = __ballot_sync(0xffffffff, lanes[1] < 16);
// CHECK-FIXES: x = __shfl_down_sync(warpfix_mask_42, x, 16);
// CHECK-FIXES: const unsigned warpfix_mask_52 = __ballot_sync(0xffffffff, flag == 0);
// CHECK-FIXES: x = __shfl_xor_sync(warpfix_mask_52, x, 1);
// CHECK-FIXES: x = __shfl_xor_sync(0xffffffff, x, 1);
