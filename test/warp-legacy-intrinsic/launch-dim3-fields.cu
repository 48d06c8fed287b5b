// A block size built up field by field (`dim3 block; block.x = 32;`, as the
// SDK samples and popsift write it) is evaluated where the launch reads it:
// each field takes the one store certain to come last, or the declaration's
// 1. With 32 threads in x, each warp lies in one row, so `threadIdx.y == 0`
// is warp-uniform and the full mask is exact. Traps: a store under a branch,
// a store later in a loop around the launch, a case label between the store
// and the launch, and a dim3 passed by reference leave the size unknown, and
// the kernel keeps its ballot.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: %expect-exit 0 %warpfix --no-cache %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}

__global__ void rows_in_arms(float *p) {
  float v = p[threadIdx.x];
  if (threadIdx.y == 0)
    v += __shfl_down(v, 16);
  p[threadIdx.x] = v;
}

__global__ void rows_whole_store(float *p) {
  float v = p[threadIdx.x];
  if (threadIdx.y == 0)
    v += __shfl_down(v, 16);
  p[threadIdx.x] = v;
}

__global__ void rows_branch_store(float *p) {
  float v = p[threadIdx.x];
  if (threadIdx.y == 0)
    v += __shfl_down(v, 16);
  p[threadIdx.x] = v;
}

__global__ void rows_loop_store(float *p) {
  float v = p[threadIdx.x];
  if (threadIdx.y == 0)
    v += __shfl_down(v, 16);
  p[threadIdx.x] = v;
}

__global__ void rows_case_label(float *p) {
  float v = p[threadIdx.x];
  if (threadIdx.y == 0)
    v += __shfl_down(v, 16);
  p[threadIdx.x] = v;
}

__global__ void rows_by_reference(float *p) {
  float v = p[threadIdx.x];
  if (threadIdx.y == 0)
    v += __shfl_down(v, 16);
  p[threadIdx.x] = v;
}

void configure(dim3 &block);

void host(float *p, int n) {
  {
    dim3 block;
    dim3 grid;
    if (n > 32) {
      block.x = 32;
      block.y = 2;
      grid.x = n / 2;
      rows_in_arms<<<grid, block>>>(p);
    } else {
      block.x = 32;
      grid.x = n;
      rows_in_arms<<<grid, block>>>(p);
    }
  }
  {
    dim3 block;
    block = dim3(32, 4);
    rows_whole_store<<<n, block>>>(p);
  }
  {
    dim3 block;
    block.x = 32;
    if (n > 4)
      block.x = 16;
    rows_branch_store<<<n, block>>>(p);
  }
  {
    dim3 block;
    block.x = 32;
    for (int i = 0; i < n; ++i) {
      rows_loop_store<<<n, block>>>(p);
      block.x = 16;
    }
  }
  {
    dim3 block;
    switch (n) {
    case 0:
      block.x = 32;
    case 1:
      rows_case_label<<<n, block>>>(p);
    }
  }
  {
    dim3 block;
    block.x = 32;
    configure(block);
    rows_by_reference<<<n, block>>>(p);
  }
}

// CHECK-MESSAGES: :19:10: warning: '__shfl_down' is a legacy warp intrinsic
// CHECK-MESSAGES: :19:10: note: every lane of the warp reaches this call, so the full mask is exact
// CHECK-MESSAGES: :26:10: warning: '__shfl_down' is a legacy warp intrinsic
// CHECK-MESSAGES: :26:10: note: every lane of the warp reaches this call, so the full mask is exact
// CHECK-MESSAGES: :33:10: warning: '__shfl_down' is a legacy warp intrinsic
// CHECK-MESSAGES: :33:10: note: only some lanes reach this call; the mask is a ballot
// CHECK-MESSAGES: :85:5: note: the whole-warp assumption is off for kernel 'rows_branch_store': it is launched here with a block size that warpfix cannot evaluate
// CHECK-MESSAGES: :40:10: warning: '__shfl_down' is a legacy warp intrinsic
// CHECK-MESSAGES: :40:10: note: only some lanes reach this call; the mask is a ballot
// CHECK-MESSAGES: :91:7: note: the whole-warp assumption is off for kernel 'rows_loop_store': it is launched here with a block size that warpfix cannot evaluate
// CHECK-MESSAGES: :47:10: warning: '__shfl_down' is a legacy warp intrinsic
// CHECK-MESSAGES: :47:10: note: only some lanes reach this call; the mask is a ballot
// CHECK-MESSAGES: :101:7: note: the whole-warp assumption is off for kernel 'rows_case_label': it is launched here with a block size that warpfix cannot evaluate
// CHECK-MESSAGES: :54:10: warning: '__shfl_down' is a legacy warp intrinsic
// CHECK-MESSAGES: :54:10: note: only some lanes reach this call; the mask is a ballot
// CHECK-MESSAGES: :108:5: note: the whole-warp assumption is off for kernel 'rows_by_reference': it is launched here with a block size that warpfix cannot evaluate
// CHECK-FIXES:    v += __shfl_down_sync(0xffffffff, v, 16);
// CHECK-FIXES:    v += __shfl_down_sync(0xffffffff, v, 16);
// CHECK-FIXES:  const unsigned warpfix_mask_32 = __ballot_sync(0xffffffff, threadIdx.y == 0);
