// The early return before a block barrier, fixed: every thread of the block
// reaches the return, so the threads that take it can skip the statements up
// to the last __syncthreads() of the kernel's body after it, take part in
// each barrier, and return after the last one. Declarations that later code
// uses stay outside the skipped statements: kept where the threads that left
// may run them (no memory read, no call), split into a declaration and an
// assignment where not.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,block-divergent-syncthreads %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --no-cache --checks=-*,block-divergent-syncthreads --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=FIX
// FIX: fixed 7 findings in 1 file; 0 remain
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 0 %warpfix --no-cache --checks=-*,block-divergent-syncthreads --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_75 %t/k.cu %}
// IDEMPOTENT: 0 findings in 0 files (0 fixable)

// A name of the translation unit's own: the flag takes another.
__device__ int returns_early;

// A tile reversed: the threads past the end leave before the barrier.
__global__ void reverse(const float *in, float *out, int n) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  tile[threadIdx.x] = in[i];
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: not every thread of the block reaches this '__syncthreads()'
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: the threads part here
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: every thread of the block reaches this early return
  out[i] = tile[blockDim.x - 1 - threadIdx.x];
}
// CHECK-FIXES:__global__ void reverse(const float *in, float *out, int n) {
// CHECK-FIXES-NEXT:  __shared__ float tile[256];
// CHECK-FIXES-NEXT:  int i = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-FIXES-NEXT:  const bool returns_early_ = i >= n;
// CHECK-FIXES-NEXT:  if (!returns_early_) {
// CHECK-FIXES-NEXT:    tile[threadIdx.x] = in[i];
// CHECK-FIXES-NEXT:  }
// CHECK-FIXES-NEXT:  __syncthreads();
// CHECK-FIXES-NEXT:  if (returns_early_) return;

// Three barriers: a value loaded before the first is used after the last
// (split), an index computed between them is used after it too (kept: the
// threads that left may compute it), and a #pragma'd loop is skipped whole.
__global__ void phases(const int *in, int *out, int n) {
  __shared__ int s[128];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  if (i >= n) return;
  int v = in[i];
  s[t] = v;
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: not every thread of the block reaches this '__syncthreads()'
  int j = t ^ 1;
  int w = s[j];
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: not every thread of the block reaches this '__syncthreads()'
  s[t] = w + v;
#pragma unroll
  for (int k = 0; k < 2; ++k)
    s[t] += k;
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: not every thread of the block reaches this '__syncthreads()'
  out[i] = s[j] + v;
}
// CHECK-FIXES:  const bool returns_early_ = i >= n;
// CHECK-FIXES-NEXT:  int v;
// CHECK-FIXES-NEXT:  if (!returns_early_) {
// CHECK-FIXES-NEXT:    v = in[i];
// CHECK-FIXES-NEXT:    s[t] = v;
// CHECK-FIXES-NEXT:  }
// CHECK-FIXES-NEXT:  __syncthreads();
// CHECK-FIXES:  int j = t ^ 1;
// CHECK-FIXES-NEXT:  int w;
// CHECK-FIXES-NEXT:  if (!returns_early_) {
// CHECK-FIXES-NEXT:    w = s[j];
// CHECK-FIXES-NEXT:  }
// CHECK-FIXES-NEXT:  __syncthreads();
// CHECK-FIXES:  if (!returns_early_) {
// CHECK-FIXES-NEXT:    s[t] = w + v;
// CHECK-FIXES-NEXT:#pragma unroll
// CHECK-FIXES-NEXT:    for (int k = 0; k < 2; ++k)
// CHECK-FIXES-NEXT:      s[t] += k;
// CHECK-FIXES-NEXT:  }
// CHECK-FIXES-NEXT:  __syncthreads();
// CHECK-FIXES:  if (returns_early_) return;
// CHECK-FIXES:  out[i] = s[j] + v;

// A 2-D bounds test in braces, and the barrier last: nothing to return from
// after it. A value used only between the return and the barrier goes
// inside with them.
__global__ void transpose(const float *in, float *out, int w, int h) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  if (x >= w || y >= h) {
    return;
  }
  float value = in[y * w + x];
  tile[threadIdx.y][threadIdx.x] = value;
  out[x * h + y] = tile[threadIdx.x][threadIdx.y] * 0.0f + value;
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: not every thread of the block reaches this '__syncthreads()'
}
// CHECK-FIXES:  const bool returns_early_ = x >= w || y >= h;
// CHECK-FIXES-NEXT:  if (!returns_early_) {
// CHECK-FIXES-NEXT:    float value = in[y * w + x];
// CHECK-FIXES-NEXT:    tile[threadIdx.y][threadIdx.x] = value;
// CHECK-FIXES-NEXT:    out[x * h + y] = tile[threadIdx.x][threadIdx.y] * 0.0f + value;
// CHECK-FIXES-NEXT:  }
// CHECK-FIXES-NEXT:  __syncthreads();

// Nothing between the return and a last barrier: the return goes.
__global__ void lastBarrier(int *out, int n) {
  if (threadIdx.x >= n) return;
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: not every thread of the block reaches this '__syncthreads()'
}
// CHECK-FIXES:__global__ void lastBarrier(int *out, int n) {
// CHECK-FIXES-NEXT:  __syncthreads();

// The return's condition reads memory that the skipped statements write:
// it is taken once, where the return was.
__global__ void conditionReadOnce(int *flags, int *out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  if (flags[t] == 0) return;
  flags[t] = 0;
  s[t] = t;
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: not every thread of the block reaches this '__syncthreads()'
  out[t] = s[63 - t];
}
// CHECK-FIXES:  const bool returns_early_ = flags[t] == 0;
// CHECK-FIXES-NEXT:  if (!returns_early_) {
// CHECK-FIXES-NEXT:    flags[t] = 0;
// CHECK-FIXES-NEXT:    s[t] = t;
// CHECK-FIXES-NEXT:  }
// CHECK-FIXES-NEXT:  __syncthreads();
// CHECK-FIXES-NEXT:  if (returns_early_) return;
