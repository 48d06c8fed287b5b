// Using CUDA Warp-Level Primitives, listing 7: each statement reads a neighbour's element and writes
// its own with no barrier in between. The chain becomes one register
// accumulator with __syncwarp() between the reads and the writes (listing 8,
// starting from the lane's own element rather than 0).
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --checks=-*,warp-missing-syncwarp %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 0 %warpfix --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// RUN: %if nvcc %{ %nvcc-check -arch=sm_75 %t/k.cu %}
// IDEMPOTENT: 0 findings in 0 files (0 fixable)

__global__ void listing7(int *out) {
  __shared__ int shmem[64];
  unsigned tid = threadIdx.x;
  shmem[tid] = out[tid];
  __syncthreads();
  if (tid < 32) {
    shmem[tid] += shmem[tid+16]; __syncwarp();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: lanes of one warp race on shared memory: lane 16 writes shmem[16] and lane 0 reads it with no __syncwarp() between them (Using CUDA Warp-Level Primitives, listing 7) [warp-missing-syncwarp]
    // CHECK-MESSAGES: :[[@LINE-2]]:5: note: each lane now reads into a register, all lanes synchronise, then each writes its own element (Using CUDA Warp-Level Primitives, listing 8)
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: every lane of the warp reaches this statement, so the full mask is exact
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: this assumes blocks are made of whole warps
    shmem[tid] += shmem[tid+8];  __syncwarp();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: note: the same rewrite orders this race too: lane 8 writes shmem[8] and lane 0 reads it
    shmem[tid] += shmem[tid+4];  __syncwarp();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: note: the same rewrite orders this race too: lane 4 writes shmem[4]
    shmem[tid] += shmem[tid+2];  __syncwarp();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: note: the same rewrite orders this race too: lane 2 writes shmem[2]
    shmem[tid] += shmem[tid+1];  __syncwarp();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: note: the same rewrite orders this race too: lane 1 writes shmem[1]
  }
  if (tid == 0)
    out[blockIdx.x] = shmem[0];
}
// CHECK-FIXES:{{^}}  if (tid < 32) {
// CHECK-FIXES-NEXT:{{^}}    auto warpfix_acc_22 = shmem[tid];
// CHECK-FIXES-NEXT:{{^}}    warpfix_acc_22 += shmem[tid+16];
// CHECK-FIXES-NEXT:{{^}}    __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}    shmem[tid] = warpfix_acc_22; __syncwarp();
// CHECK-FIXES:{{^}}    warpfix_acc_22 += shmem[tid+8];
// CHECK-FIXES-NEXT:{{^}}    __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}    shmem[tid] = warpfix_acc_22;  __syncwarp();
// CHECK-FIXES:{{^}}    warpfix_acc_22 += shmem[tid+1];
// CHECK-FIXES-NEXT:{{^}}    __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}    shmem[tid] = warpfix_acc_22;  __syncwarp();
