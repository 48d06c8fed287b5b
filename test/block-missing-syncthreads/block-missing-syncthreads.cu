// Shared memory that a thread of one warp writes and a thread of another
// warp reads or writes, with no barrier of the whole block between them: the
// load phase of a tiled kernel read too early, the first step of a reduction
// above warp size, the next iteration's load over the last one's reads, and
// a __syncwarp() where the block's threads meet. Each is reported at the
// write, with the two threads and the element, and fixed with a
// __syncthreads() that every thread of the block reaches, each the same
// number of times.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,block-missing-syncthreads %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --no-cache --checks=-*,block-missing-syncthreads --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=FIX
// FIX: fixed 5 findings in 1 file; 0 remain
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 0 %warpfix --no-cache --checks=-*,block-missing-syncthreads --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_75 %t/k.cu %}
// IDEMPOTENT: 0 findings in 0 files (0 fixable)

#define TILE 16

// Every thread loads one element of A's and B's tiles, then reads a row of
// one and a column of the other. The barrier after the reads is missing, so
// the next iteration's loads overwrite what slower warps still read: B's
// column was stored by the threads of other rows, other warps. A's row is
// its own warp's (two rows of 16 threads to a warp), a race of lanes of one
// warp that this check leaves to warp-missing-syncwarp; the barrier at the
// end of the body orders it too.
__global__ void matmul(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  float sum = 0;
  for (int k0 = 0; k0 < n; k0 += TILE) {
    As[ty][tx] = A[ty * n + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * n + tx];
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: threads of different warps race on shared memory: thread 0 (warp 0, lane 0) writes Bs[0][0] and thread 32 (warp 1, lane 0) reads it with no __syncthreads() between them [block-missing-syncthreads]
    // CHECK-MESSAGES: :[[@LINE+4]]:26: note: the other thread reads it here
    // CHECK-MESSAGES: :[[@LINE-5]]:3: note: every thread of the block runs this loop's body to its end, each the same number of times: a __syncthreads() there orders the accesses
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      sum += As[ty][k] * Bs[k][tx];
  }
  C[ty * n + tx] = sum;
}
// CHECK-FIXES:    __syncthreads();
// CHECK-FIXES-NEXT:    for (int k = 0; k < TILE; ++k)
// CHECK-FIXES-NEXT:      sum += As[ty][k] * Bs[k][tx];
// CHECK-FIXES-NEXT:    __syncthreads();
// CHECK-FIXES-NEXT:  }
// CHECK-FIXES-NEXT:  C[ty * n + tx] = sum;

// The first step of the tree reduction reads what the upper warps stored,
// with no barrier after the load.
__global__ void reduce(const float *in, float *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * 256 + t];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: threads of different warps race on shared memory: thread 128 (warp 4, lane 0) writes s[128] and thread 0 (warp 0, lane 0) reads it with no __syncthreads() between them [block-missing-syncthreads]
  // CHECK-MESSAGES: :[[@LINE+3]]:13: note: the other thread reads it here
  // CHECK-MESSAGES: :[[@LINE+1]]:3: note: every thread of the block reaches this statement, each the same number of times: a __syncthreads() before it orders the accesses
  if (t < 128)
    s[t] += s[t + 128];
  __syncthreads();
  if (t < 64)
    s[t] += s[t + 64];
  __syncthreads();
  if (t == 0)
    out[blockIdx.x] = s[0] + s[1];
}
// CHECK-FIXES:  s[t] = in[blockIdx.x * 256 + t];
// CHECK-FIXES:  __syncthreads();
// CHECK-FIXES-NEXT:  if (t < 128)
// CHECK-FIXES-NEXT:    s[t] += s[t + 128];

// A __syncwarp() orders the lanes of each warp, not two warps.
__global__ void swap_halves(float *data) {
  __shared__ float s[64];
  int t = threadIdx.x;
  s[t] = data[t];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: threads of different warps race on shared memory: thread 0 (warp 0, lane 0) writes s[0] and thread 32 (warp 1, lane 0) reads it with no __syncthreads() between them [block-missing-syncthreads]
  // CHECK-MESSAGES: :[[@LINE+3]]:13: note: the other thread reads it here
  // CHECK-MESSAGES: :[[@LINE+2]]:3: note: every thread of the block reaches this statement, each the same number of times: a __syncthreads() before it orders the accesses
  __syncwarp();
  data[t] = s[(t + 32) % 64];
}
// CHECK-FIXES:  __syncwarp();
// CHECK-FIXES-NEXT:  __syncthreads();
// CHECK-FIXES-NEXT:  data[t] = s[(t + 32) % 64];

// Each warp's last lane publishes its sum and the first warp reads them,
// with no barrier between. With no launch in sight it is modelled in a
// block of two warps, but which element a thread names does not depend on
// the block's size: the barrier is right in any block.
__global__ void warp_sums(float *out) {
  __shared__ float warpSums[32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float v = out[threadIdx.x];
  if (lane == 31)
    warpSums[warp] = v;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: threads of different warps race on shared memory: thread 63 (warp 1, lane 31) writes warpSums[1] and thread 1 (warp 0, lane 1) reads it with no __syncthreads() between them, in a block of two warps, as modelled with no launch in sight [block-missing-syncthreads]
  // CHECK-MESSAGES: :[[@LINE+3]]:10: note: the other thread reads it here
  // CHECK-MESSAGES: :[[@LINE+1]]:3: note: every thread of the block reaches this statement, each the same number of times: a __syncthreads() before it orders the accesses
  if (warp == 0)
    v += warpSums[lane];
  out[threadIdx.x] = v;
}
// CHECK-FIXES:    warpSums[warp] = v;
// CHECK-FIXES:  __syncthreads();
// CHECK-FIXES-NEXT:  if (warp == 0)

// The barrier goes between a block-uniform loop's load and its use: every
// thread runs blockIdx.x + 1 iterations, and the branch on the block's
// parity keeps the whole block together.
__global__ void per_block_rounds(int *out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  int acc = 0;
  if (blockIdx.x % 2 == 0) {
    for (int r = 0; r <= blockIdx.x; ++r) {
      s[t] = r * t;
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: threads of different warps race on shared memory: thread 0 (warp 0, lane 0) writes s[0] and thread 64 (warp 2, lane 0) reads it with no __syncthreads() between them [block-missing-syncthreads]
      // CHECK-MESSAGES: :[[@LINE+2]]:14: note: the other thread reads it here
      // CHECK-MESSAGES: :[[@LINE+1]]:7: note: every thread of the block reaches this statement, each the same number of times: a __syncthreads() before it orders the accesses
      acc += s[(t + 64) % 128];
      __syncthreads();
    }
  }
  out[blockIdx.x * 128 + t] = acc;
}
// CHECK-FIXES:      s[t] = r * t;
// CHECK-FIXES:      __syncthreads();
// CHECK-FIXES-NEXT:      acc += s[(t + 64) % 128];
// CHECK-FIXES-NEXT:      __syncthreads();

int main() {
  float *p = nullptr;
  int *q = nullptr;
  matmul<<<1, dim3(TILE, TILE)>>>(p, p, p, 64);
  reduce<<<4, 256>>>(p, p);
  swap_halves<<<1, 64>>>(p);
  per_block_rounds<<<4, 128>>>(q);
}
