// With no launch in sight a kernel may run in blocks of any shape, and a
// __syncwarp() is no fix where threads of different warps meet through the
// same accesses in any of them. The shapes: two warps and the largest block
// in x; where the kernel names threadIdx.y, rows of 32 and of 64 threads too.
// A race whose two accesses meet only within a warp in the small model, but
// across warps in the largest, is a block-level race. No model shows every
// size, so a race is not fixed where the elements depend on blockDim, or
// where the kernel names threadIdx.y (the rows' width decides the warps).
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-missing-syncwarp %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// SUMMARY: 7 findings in 1 file (1 fixable)
// IDEMPOTENT: 6 findings in 1 file (0 fixable)

// Threads 64 and up read what warp 0 wrote: in the largest block only.
__global__ void wraps_at_64(int *out) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  s[t] = t;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: lanes of one warp race on shared memory: lane 0 writes s[0] and lane 1 reads it
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: no automatic fix: threads of different warps meet through these accesses too (thread 1 (warp 0, lane 1) writes s[1] and thread 64 (warp 2, lane 0) reads it, in a block of 1024 threads, as modelled with no launch in sight)
  out[t] = s[(t ^ 1) % 64];
}

// In x only, the pairs stay in their warp: fixed.
__global__ void neighbours(int *out) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  s[t] = t;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: lanes of one warp race on shared memory: lane 0 writes s[0] and lane 1 reads it
  out[t] = s[t ^ 1];
}
// CHECK-FIXES:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  out[t] = s[t ^ 1];

// The same with rows: the second row's warp writes what the first reads.
__global__ void neighbours_in_rows(int *out) {
  __shared__ int s[64];
  int x = threadIdx.x;
  s[x] = threadIdx.y;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: lanes of one warp race on shared memory: lane 0 writes s[0] and lane 1 reads it
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: no automatic fix: threads of different warps meet through these accesses too (thread 1 (warp 0, lane 1) writes s[1] and thread 32 (warp 1, lane 0) reads it, in a block of 32x2 threads, as modelled with no launch in sight)
  out[threadIdx.y * blockDim.x + x] = s[x ^ 1];
}

// A row of 64 threads is two warps: its last thread of warp 0 reads the
// first of warp 1.
__global__ void row_rotation(int *out) {
  __shared__ int s[32][64];
  int x = threadIdx.x, y = threadIdx.y;
  s[y][x] = x;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: lanes of one warp race on shared memory: lane 1 writes s[0][1] and lane 0 reads it
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: no automatic fix: threads of different warps meet through these accesses too (thread 0 (warp 0, lane 0) writes s[0][0] and thread 63 (warp 1, lane 31) reads it, in a block of two warps, as modelled with no launch in sight)
  out[y * blockDim.x + x] = s[y][(x + 1) % blockDim.x];
}

// The linear thread index of a 2-D block, and the volatile warp reduction
// on it: every thread then reads s[0], which warp 0 writes.
__global__ void linear_index(const int *in, int *out) {
  __shared__ volatile int s[1024];
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  if (tid < 32) {
    s[tid] += s[tid + 16];
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: lanes of one warp race on shared memory: lane 16 writes s[16] and lane 0 reads it
    // CHECK-MESSAGES: :[[@LINE-2]]:5: note: no automatic fix: threads of different warps meet through these accesses too (thread 0 (warp 0, lane 0) writes s[0] and thread 32 (warp 1, lane 0) reads it, in a block of two warps
    s[tid] += s[tid + 8];
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: lanes of one warp race on shared memory: lane 8 writes s[8] and lane 0 reads it
  }
  out[tid] = s[0];
}

// The partner depends on the block's size: t ^ 1 in blocks of 64 and t ^ 16
// in blocks of 1024, within a warp in both models. The models do not show
// every size, so the race is reported, not fixed.
__global__ void partner_by_size(int *out) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  s[t] = t;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: lanes of one warp race on shared memory: lane 0 writes s[0] and lane 1 reads it
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: no automatic fix: which elements these accesses touch depends on the block's size (blockDim or gridDim), and warpfix cannot see the block size of every launch of this kernel
  out[t] = s[t ^ (blockDim.x / 64)];
}
