// Block barriers that some threads of the block never reach: in a branch on
// the thread's index, after an early return, in a loop whose trip count is
// the thread's, in a helper that only some threads call. Each is reported
// at the barrier, with a note where the threads part. Only the early return
// is fixed (exit-past-barriers.cu has that fix's shapes): --fix leaves the
// rest of the file as it was.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,block-divergent-syncthreads %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,block-divergent-syncthreads --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=FIX
// FIX: fixed 1 finding in 1 file; 11 remain
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --input-file=%t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_75 %t/k.cu %}
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// A reduction step that only the first threads take, with its barrier.
__global__ void inside_branch(float *out) {
  __shared__ float s[256];
  int idx = threadIdx.x;
  s[idx] = out[idx];
  __syncthreads();
  if (idx <= 8) {
    s[idx] += s[idx + 8];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: not every thread of the block reaches this '__syncthreads()': it is inside a branch whose condition depends on the thread; a barrier that some threads never arrive at may hang
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: the threads part here
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: no automatic fix: move the barrier where every thread of the block reaches it
  }
  out[idx] = s[idx];
}

__global__ void early_return(float *out, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  s[threadIdx.x] = out[i];
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: not every thread of the block reaches this '__syncthreads()': threads leave before it under a condition that depends on the thread
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: the threads part here
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: every thread of the block reaches this early return: the fix lets the threads that take it skip the statements up to the last __syncthreads() after it, take part in each barrier, and return after the last one
  out[i] = s[255 - threadIdx.x];
  // CHECK-FIXES: {{^}}  const bool returns_early = i >= n;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  if (!returns_early) {{[{]}}{{$}}
  // CHECK-FIXES-NEXT: {{^}}    s[threadIdx.x] = out[i];{{$}}
  // CHECK-FIXES-NEXT: {{^}}  }{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
}

__global__ void thread_strided_loop(float *out, int n) {
  __shared__ float s[256];
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    s[threadIdx.x] = out[i];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: not every thread of the block reaches this '__syncthreads()': the loop's condition is thread-dependent, so threads leave it at different iterations
    // CHECK-MESSAGES: :[[@LINE-4]]:29: note: the threads part here
    out[i] = s[0];
  }
}

__global__ void break_in_loop(float *out, int n) {
  for (int k = 0; k < n; ++k) {
    if (out[threadIdx.x] > k)
      break;
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: not every thread of the block reaches this '__syncthreads()': a break under a thread-dependent condition makes threads leave the loop at different iterations
    // CHECK-MESSAGES: :[[@LINE-4]]:9: note: the threads part here
  }
}

// The same within each warp is not the same across the block.
__global__ void per_warp(float *out) {
  __shared__ float s[256];
  if (threadIdx.x / 32 == 0) {
    s[threadIdx.x] = 1;
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: not every thread of the block reaches this '__syncthreads()': it is inside a branch
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: the threads part here
  }
  out[threadIdx.x] = s[threadIdx.x];
}

__device__ void helper(float *s) {
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: not every thread of the block reaches this '__syncthreads()': 'helper' is called here by only some threads of the block (a thread-dependent condition decides which threads make the call)
  // CHECK-MESSAGES: :[[@LINE+6]]:7: note: the threads part here
  s[threadIdx.x] = 0;
}

__global__ void calls_helper_under_branch(float *out) {
  __shared__ float s[256];
  if (threadIdx.x < 128)
    helper(s);
  out[threadIdx.x] = s[threadIdx.x];
}

__global__ void count_under_branch(int *out) {
  if (threadIdx.x & 1)
    out[0] = __syncthreads_count(1);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: not every thread of the block reaches this '__syncthreads_count()'
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: the threads part here
}

__global__ void group_sync(float *out) {
  cg::thread_block block = cg::this_thread_block();
  if (threadIdx.x < 16)
    block.sync();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: not every thread of the block reaches this 'thread_block::sync()'
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: the threads part here
  if (threadIdx.y == 0)
    cg::sync(block);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: not every thread of the block reaches this 'thread_block::sync()'
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: the threads part here
}

__global__ void ptx_barrier(float *out) {
  if (threadIdx.x < 32)
    asm volatile("bar.sync 0;");
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: not every thread of the block reaches this 'bar.sync'
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: the threads part here
}

template <int N> __global__ void templated(float *out) {
  if (N > 4)
    __syncthreads();
  if (threadIdx.x < N)
    __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: not every thread of the block reaches this '__syncthreads()'
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: the threads part here
}
template __global__ void templated<8>(float *);

// The last assignment before the test decides what it reads.
__global__ void reassigned(float *out, int n) {
  int first = blockIdx.x;
  out[first] = 0;
  first = threadIdx.x;
  if (first < n)
    __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: not every thread of the block reaches this '__syncthreads()'
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: the threads part here
}
