// Nothing here may be reported: each kernel's threads of different warps
// meet only across a barrier of the block (__syncthreads() and its
// counting form, a thread block's sync(), a grid's sync(), bar.sync in PTX,
// a named barrier's arrival, libcu++'s barrier, a split barrier, a barrier
// too many calls deep), or never: accesses that stay within one warp and are ordered by
// __syncwarp(), blocks of one warp, atomics, stores of one constant by
// every thread, and double buffering whose alternation keeps the next
// iteration's stores off the buffer being read.
// RUN: %expect-exit 0 %warpfix --no-cache --checks=-*,block-missing-syncthreads %s 2>&1 | FileCheck %s --implicit-check-not=warning:
// CHECK: 0 findings in 0 files (0 fixable)
// RUN: %if nvcc %{ %nvcc-check -arch=sm_75 %s %}
#include <cooperative_groups.h>
#include <cuda/barrier>
namespace cg = cooperative_groups;

#define TILE 16

__global__ void matmul(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  float sum = 0;
  for (int k0 = 0; k0 < n; k0 += TILE) {
    As[ty][tx] = A[ty * n + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * n + tx];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[ty * n + tx] = sum;
}

__global__ void reduce(const float *in, float *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  for (int step = 128; step > 0; step /= 2) {
    if (t < step)
      s[t] += s[t + step];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}

// Each warp exchanges within itself.
__global__ void within_warps(float *data) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = data[t];
  __syncwarp();
  data[t] = s[t ^ 1];
}

__global__ void other_barriers(float *data) {
  __shared__ float s[64];
  int t = threadIdx.x;
  s[t] = data[t];
  int any = __syncthreads_count(s[t] > 0);
  data[t] = s[63 - t] + any;
  __syncthreads();
  s[t] = data[t] * 2;
  cg::this_thread_block().sync();
  data[t] = s[63 - t];
  __syncthreads();
  s[t] = data[t] * 3;
  asm volatile("bar.sync 0;" ::: "memory");
  data[t] = s[63 - t];
}

__global__ void grid_barrier(float *data) {
  __shared__ float s[64];
  cg::grid_group grid = cg::this_grid();
  int t = threadIdx.x;
  s[t] = data[t];
  grid.sync();
  data[t] = s[63 - t];
}

// One warp per block: no other warp to meet.
__global__ void one_warp(float *data) {
  __shared__ float s[32];
  int t = threadIdx.x;
  s[t] = data[t];
  __syncwarp();
  data[t] = s[31 - t];
}

__global__ void counters(int *out) {
  __shared__ int count;
  __shared__ int done;
  if (threadIdx.x == 0)
    count = 0;
  done = 0;
  __syncthreads();
  atomicAdd(&count, 1);
  __syncthreads();
  out[threadIdx.x] = count + done;
}

// Iteration k reads buf[k % 2] after its barrier; iteration k + 1 stores
// into the other buffer, and iteration k + 2's stores into this one come
// after iteration k + 1's barrier.
__global__ void double_buffered(const float *in, float *out) {
  __shared__ float buf[2][128];
  int t = threadIdx.x;
  float sum = 0;
  for (int k = 0; k < 8; ++k) {
    buf[k % 2][t] = in[k * 128 + t];
    __syncthreads();
    sum += buf[k % 2][127 - t];
  }
  out[t] = sum;
}

// The same with a trip count that is not known, in a kernel written for
// blocks of 128 threads: a model of a larger block, with no launch in
// sight, indexes outside buf's rows, which shows no race.
__global__ void double_buffered_n(const float *in, float *out, int n) {
  __shared__ float buf[2][128];
  int t = threadIdx.x;
  float sum = 0;
  for (int k = 0; k < n; ++k) {
    buf[k % 2][t] = in[k * 128 + t];
    __syncthreads();
    sum += buf[k % 2][127 - t];
  }
  out[t] = sum;
}

__global__ void strided_load(const float *in, float *out, int n) {
  __shared__ float table[1024];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x)
    table[i] = in[i];
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    out[i] = table[(i * 7) % 1024];
}

// Each warp's last lane publishes its sum, the first warp scans them, and
// every thread reads its warp's.
__global__ void scan_warp_sums(float *out) {
  __shared__ float warpSums[32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float v = out[threadIdx.x];
  if (lane == 31)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    float w = warpSums[lane];
    warpSums[lane] = w * 2;
  }
  __syncthreads();
  out[threadIdx.x] = v + warpSums[warp];
}

// A kernel that names blockDim.y, with no launch in sight: a model with a
// second row, of a width warpfix guesses, gives two threads one tid.
__global__ void names_rows(float *data) {
  __shared__ float s[256];
  int tid = threadIdx.x;
  int threads = blockDim.x * blockDim.y;
  s[tid] = data[tid];
  __syncthreads();
  if (tid == 0)
    for (int j = 1; j < threads; ++j)
      s[0] += s[j];
  __syncthreads();
  data[tid] = s[0];
}

// A call through a pointer, which warpfix does not follow, gets shared
// memory: which elements it touches, and in which threads, is unknown.
__device__ float first(volatile float *p) { return p[0]; }
__global__ void through_pointer(float *data,
                                float (*scan)(volatile float *)) {
  __shared__ float s[64];
  s[threadIdx.x] = data[threadIdx.x];
  data[threadIdx.x] = scan(s + threadIdx.x);
}

// A producer warp arrives at a named barrier and goes on; the consumer
// warp waits at it before it reads.
__global__ void producer_consumer(float *data) {
  __shared__ float s[32];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp == 0) {
    s[lane] = data[lane];
    asm volatile("bar.arrive 1, 64;" ::: "memory");
  } else {
    asm volatile("bar.sync 1, 64;" ::: "memory");
    data[32 + lane] = s[31 - lane];
  }
}

// The barrier is six calls deep, past the depth the walk follows.
__device__ void wait6() { __syncthreads(); }
__device__ void wait5() { wait6(); }
__device__ void wait4() { wait5(); }
__device__ void wait3() { wait4(); }
__device__ void wait2() { wait3(); }
__device__ void wait1() { wait2(); }
__global__ void deep_barrier(float *data) {
  __shared__ float s[128];
  int t = threadIdx.x;
  s[t] = data[t];
  wait1();
  data[t] = s[127 - t];
}

// libcu++'s barrier, and a thread block's split barrier.
__global__ void library_barriers(float *data) {
  using Barrier = cuda::barrier<cuda::thread_scope_block>;
  __shared__ float s[128];
  alignas(Barrier) __shared__ unsigned char storage[sizeof(Barrier)];
  Barrier *bar = reinterpret_cast<Barrier *>(storage);
  cg::thread_block block = cg::this_thread_block();
  int t = threadIdx.x;
  if (t == 0)
    init(bar, blockDim.x);
  __syncthreads();
  s[t] = data[t];
  bar->arrive_and_wait();
  data[t] = s[127 - t];
  __syncthreads();
  s[t] = data[t] + 1;
  auto token = block.barrier_arrive();
  block.barrier_wait(std::move(token));
  data[t] = s[127 - t];
}

// Only the grid's first thread runs the branch: in a block of the launch,
// thread 32 is never global thread 0.
__global__ void first_thread_of_grid(unsigned *out) {
  __shared__ unsigned n;
  unsigned idx = threadIdx.x + blockIdx.x * blockDim.x;
  if (idx == 0) {
    n = 0;
    for (int i = 0; i < 8; ++i)
      n += out[i];
  }
  __syncthreads();
  out[idx] = n;
}

// Written for blocks of 256 threads, as the array's size says; no launch
// in sight. In a model of 1024 threads, thread 256 would add to the
// element where the first thread adds the total.
__global__ void sized_for_256(float *data, int n) {
  __shared__ float s[256 + 1];
  int t = threadIdx.x;
  float sum = 0;
  for (int i = 0; i < n; ++i) {
    s[t] = data[t + i * blockDim.x];
    __syncthreads();
    s[t] += sum;
    if (t == 0)
      s[256] += sum;
    __syncthreads();
    sum = s[256];
  }
  data[t] = sum;
}

int main() {
  float *p = nullptr;
  int *q = nullptr;
  matmul<<<1, dim3(TILE, TILE)>>>(p, p, p, 64);
  reduce<<<4, 256>>>(p, p);
  within_warps<<<1, 256>>>(p);
  other_barriers<<<1, 64>>>(p);
  grid_barrier<<<1, 64>>>(p);
  one_warp<<<8, 32>>>(p);
  counters<<<1, 128>>>(q);
  double_buffered<<<1, 128>>>(p, p);
  producer_consumer<<<1, 64>>>(p);
  deep_barrier<<<1, 128>>>(p);
  library_barriers<<<1, 128>>>(p);
  first_thread_of_grid<<<4, 128>>>((unsigned *)q);
}
