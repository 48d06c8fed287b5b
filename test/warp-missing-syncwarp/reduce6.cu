// The SDK's reduce6 with its templated volatile warpReduce<blockSize>, called
// from `if (tid < 32)`: volatile does not order the lanes' accesses. Every
// instantiation agrees on one rewrite of the template.
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

template <unsigned int blockSize>
__device__ void warpReduce(volatile int *sdata, unsigned int tid) {
  if (blockSize >= 64) sdata[tid] += sdata[tid + 32];
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: lanes of one warp race on shared memory: lane 1 writes sdata[1] and lane 0 reads it with no __syncwarp() between them (Using CUDA Warp-Level Primitives, listing 7); volatile does not order accesses between lanes [warp-missing-syncwarp]
  if (blockSize >= 32) sdata[tid] += sdata[tid + 16];
  // CHECK-MESSAGES: :[[@LINE-1]]:24: note: the same rewrite orders this race too: lane 16 writes sdata[16] and lane 0 reads it
  if (blockSize >= 16) sdata[tid] += sdata[tid + 8];
  // CHECK-MESSAGES: :[[@LINE-1]]:24: note: the same rewrite orders this race too
  if (blockSize >= 8) sdata[tid] += sdata[tid + 4];
  // CHECK-MESSAGES: :[[@LINE-1]]:23: note: the same rewrite orders this race too
  if (blockSize >= 4) sdata[tid] += sdata[tid + 2];
  // CHECK-MESSAGES: :[[@LINE-1]]:23: note: the same rewrite orders this race too
  if (blockSize >= 2) sdata[tid] += sdata[tid + 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:23: note: the same rewrite orders this race too
}
// CHECK-FIXES:{{^}}__device__ void warpReduce(volatile int *sdata, unsigned int tid) {
// CHECK-FIXES-NEXT:{{^}}  auto warpfix_acc_17 = sdata[tid];
// CHECK-FIXES-NEXT:{{^}}  if (blockSize >= 64) { warpfix_acc_17 += sdata[tid + 32]; __syncwarp(0xffffffff); sdata[tid] = warpfix_acc_17; __syncwarp(0xffffffff); }
// CHECK-FIXES:{{^}}  if (blockSize >= 32) { warpfix_acc_17 += sdata[tid + 16]; __syncwarp(0xffffffff); sdata[tid] = warpfix_acc_17; __syncwarp(0xffffffff); }
// CHECK-FIXES:{{^}}  if (blockSize >= 2) { warpfix_acc_17 += sdata[tid + 1]; __syncwarp(0xffffffff); sdata[tid] = warpfix_acc_17; __syncwarp(0xffffffff); }

template <unsigned int blockSize>
__global__ void reduce6(int *g_idata, int *g_odata, unsigned int n) {
  extern __shared__ int sdata[];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockSize * 2) + tid;
  unsigned int gridSize = blockSize * 2 * gridDim.x;
  sdata[tid] = 0;
  while (i < n) {
    sdata[tid] += g_idata[i] + g_idata[i + blockSize];
    i += gridSize;
  }
  __syncthreads();
  if (blockSize >= 512) { if (tid < 256) { sdata[tid] += sdata[tid + 256]; } __syncthreads(); }
  if (blockSize >= 256) { if (tid < 128) { sdata[tid] += sdata[tid + 128]; } __syncthreads(); }
  if (blockSize >= 128) { if (tid < 64) { sdata[tid] += sdata[tid + 64]; } __syncthreads(); }
  if (tid < 32) warpReduce<blockSize>(sdata, tid);
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
template __global__ void reduce6<512>(int *, int *, unsigned int);
template __global__ void reduce6<64>(int *, int *, unsigned int);
template __global__ void reduce6<32>(int *, int *, unsigned int);
