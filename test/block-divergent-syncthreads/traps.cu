// Nothing here may be reported: barriers under conditions that are the same
// for every thread of the block (its index, its size, the kernel's
// parameters, shared memory after a barrier, a barrier's own result), the
// tree reduction whose guarded step leaves its barrier outside the branch,
// a grid's sync, a PTX barrier with a thread count, a helper that every
// thread calls, conditions on a helper's result, code that clang could not
// read, and a template that nothing instantiates.
// RUN: %expect-exit 0 %warpfix --no-cache --checks=-*,block-* %s 2>&1 | FileCheck %s --implicit-check-not=warning:
// CHECK: 0 findings in 0 files (0 fixable)
// A unit with an error exits 1 all the same: findings may be missing.
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,block-* %s -- -DWITH_ERROR 2>&1 | FileCheck %s --implicit-check-not=warning:
// RUN: %if nvcc %{ %nvcc-check -arch=sm_75 %s %}
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void uniform_conditions(float *out, int n, bool flag) {
  __shared__ float s[256];
  s[threadIdx.x] = out[threadIdx.x];
  if (blockIdx.x > 3)
    __syncthreads();
  if (flag)
    __syncthreads();
  if (blockDim.x >= 128)
    __syncthreads();
  for (int k = 0; k < n; ++k)
    __syncthreads();
  out[threadIdx.x] = s[0];
}

// The reduction of "Using CUDA Warp-Level Primitives"' predecessors: the
// step is guarded, its barrier is not.
__global__ void tree_reduction(float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride)
      s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = s[0];
}

__global__ void shared_flag(float *out) {
  __shared__ int go;
  if (threadIdx.x == 0)
    go = out[0] > 0;
  __syncthreads();
  if (go)
    __syncthreads();
  while (__syncthreads_or(out[threadIdx.x] > 0)) {
    out[threadIdx.x] -= 1;
    __syncthreads();
  }
}

__global__ void grid_sync(float *out) {
  cg::grid_group grid = cg::this_grid();
  if (threadIdx.x == 0)
    out[0] = 1;
  if (blockIdx.x == 0)
    grid.sync();
}

__global__ void named_barrier_with_count(float *out) {
  if (threadIdx.x < 64)
    asm volatile("bar.sync 1, 64;");
}

__device__ void every_thread_calls(float *s) { __syncthreads(); }
__global__ void calls_helper(float *out) {
  __shared__ float s[256];
  every_thread_calls(s);
  if (blockIdx.x == 0)
    every_thread_calls(s);
}

// The analysis does not follow a helper's result, nor a local that a helper
// writes through a reference: it takes them as differing between threads,
// which nothing here shows. Not reported.
__device__ void block_sum(float v, float &total) {
  __shared__ float partial;
  if (threadIdx.x == 0)
    partial = 0;
  __syncthreads();
  atomicAdd(&partial, v);
  __syncthreads();
  total = partial;
}
__device__ int round_up(int n) { return (n + 31) & ~31; }
__global__ void helper_results_decide(float *out, int n) {
  float total;
  block_sum(out[threadIdx.x], total);
  if (total > 0)
    __syncthreads();
  for (int k = 0; k < round_up(n); k += 32)
    __syncthreads();
}

// Every thread runs SUM / STEP iterations where the block has at most STEP
// threads, which the launch decides.
template <int SUM, int STEP> __device__ void strided_sum(float *s) {
  for (int pos = threadIdx.x; pos < SUM; pos += STEP) {
    __syncthreads();
    s[pos] += s[pos + SUM];
  }
}
__global__ void launch_decides_trip_count(float *out) {
  __shared__ float s[512];
  strided_sum<256, 128>(s);
  out[threadIdx.x] = s[threadIdx.x];
}

// A block that takes work from a queue: one thread draws, the block reads
// the draw from shared memory, and every thread leaves together. The
// variable holds a thread's own draw elsewhere, but where it is tested it
// holds the shared one.
__global__ void work_queue(int *queue, int n, float *out) {
  __shared__ int drawn;
  int item = blockIdx.x;
  while (true) {
    if (threadIdx.x == 0) {
      item = atomicAdd(queue, 1);
      drawn = item;
    }
    __syncthreads();
    item = drawn;
    if (item >= n)
      return;
    out[item * blockDim.x + threadIdx.x] = 0;
    __syncthreads();
  }
}

#ifdef WITH_ERROR
__global__ void condition_with_error(float *out) {
  if (undeclared_index(threadIdx.x))
    __syncthreads();
}
#endif

template <typename T> __global__ void never_instantiated(T *out) {
  if (threadIdx.x < sizeof(T))
    __syncthreads();
}
