// With warp-missing-syncwarp running too: a write whose threads of
// different warps meet is this check's, fixed with a __syncthreads(); the
// races of lanes of one warp stay warp-missing-syncwarp's. A write that this
// check does not report (a model of rows that no launch gave) stays
// warp-missing-syncwarp's finding, refused there, so nothing is lost.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --checks=warp-*,block-* %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --checks=warp-*,block-* --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=FIX
// FIX: fixed 2 findings in 1 file; 1 remain
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 1 %warpfix --no-cache --checks=warp-*,block-* --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=AGAIN
// AGAIN: fixed 0 findings in 0 files; 1 remain
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_75 %t/k.cu %}

#define TILE 16

// A's row is the lanes of one warp's (two rows of 16 threads to a warp);
// B's column is other warps'. Both barriers go at the end of the body; the
// __syncthreads() alone would do, but each check writes its own.
__global__ void matmul(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  float sum = 0;
  for (int k0 = 0; k0 < n; k0 += TILE) {
    As[ty][tx] = A[ty * n + k0 + tx];
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: lanes of one warp race on shared memory: lane 0 writes As[0][0] and lane 1 reads it with no __syncwarp() between them (Using CUDA Warp-Level Primitives, listing 7) [warp-missing-syncwarp]
    Bs[ty][tx] = B[(k0 + ty) * n + tx];
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: threads of different warps race on shared memory: thread 0 (warp 0, lane 0) writes Bs[0][0] and thread 32 (warp 1, lane 0) reads it with no __syncthreads() between them [block-missing-syncthreads]
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      sum += As[ty][k] * Bs[k][tx];
  }
  C[ty * n + tx] = sum;
}
// CHECK-FIXES:      sum += As[ty][k] * Bs[k][tx];
// CHECK-FIXES-NEXT:    __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:    __syncthreads();
// CHECK-FIXES-NEXT:  }

// Rows of 32 that no launch shows: the block check sets such models aside,
// so the warp check keeps the write and says why it cannot fix it.
__global__ void rows(float *p) {
  __shared__ float s[8][32];
  s[threadIdx.y][threadIdx.x] = p[threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: lanes of one warp race on shared memory: lane 0 writes s[0][0] and lane 31 reads it with no __syncwarp() between them (Using CUDA Warp-Level Primitives, listing 7) [warp-missing-syncwarp]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: no automatic fix: threads of different warps meet through these accesses too
  p[threadIdx.x] = s[threadIdx.y][31 - threadIdx.x] +
                   s[(threadIdx.y + 1) % 8][threadIdx.x];
}

int main() {
  float *p = nullptr;
  matmul<<<1, dim3(TILE, TILE)>>>(p, p, p, 64);
}
