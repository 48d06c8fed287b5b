// Early returns before a block barrier that warpfix does not move: where the
// threads that return would matter to the others on the way to the last
// barrier (a warp operation, inline PTX, a call out of sight, another exit,
// a barrier in a loop), where a declaration that later code uses cannot be
// left to them or split, and where the return's shape or text does not let
// the move be written. Each finding says why, and --fix leaves the file as
// it was.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,block-divergent-syncthreads %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: cp %t/k.cu %t/before.cu
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,block-divergent-syncthreads --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=FIX
// FIX: fixed 0 findings in 0 files; 17 remain
// RUN: cmp %t/k.cu %t/before.cu

__device__ int warpSum(int v) {
  for (int k = 16; k > 0; k >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, k);
  return v;
}
__device__ int opaque(int v);

// A full-mask shuffle would wait for the lanes that now wait at the barrier.
__global__ void shuffle(const int *in, int *out, int n) {
  __shared__ int s[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  s[threadIdx.x] = warpSum(in[i]);
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: not every thread
  // CHECK-MESSAGES: note: the threads part here
  // CHECK-MESSAGES: :17:10: note: no automatic fix: the statements between the early return and the last barrier hold '__shfl_xor_sync', which waits for or tells apart other threads: the threads that returned would be waiting at a barrier instead of having exited
  out[i] = s[threadIdx.x ^ 1];
}

__global__ void outOfSight(const int *in, int *out, int n) {
  __shared__ int s[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  s[threadIdx.x] = opaque(in[i]);
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: not every thread
  // CHECK-MESSAGES: note: the threads part here
  // CHECK-MESSAGES: :[[@LINE-4]]:20: note: no automatic fix: the statements between the early return and the last barrier hold a call of a function whose body is not in sight
  out[i] = s[threadIdx.x ^ 1];
}

__global__ void inlinePtx(const int *in, int *out, int n) {
  __shared__ int s[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  s[threadIdx.x] = in[i] + lane;
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: not every thread
  // CHECK-MESSAGES: note: the threads part here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: no automatic fix: the statements between the early return and the last barrier hold inline PTX
  out[i] = s[threadIdx.x ^ 1];
}

// A second return between the barriers: its threads would still skip the
// last one.
__global__ void secondExit(const int *in, int *out, int n, int m) {
  __shared__ int s[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  s[threadIdx.x] = in[i];
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: not every thread
  // CHECK-MESSAGES: note: the threads part here
  // CHECK-MESSAGES: :[[@LINE+2]]:14: note: no automatic fix: the statements between the early return and the last barrier hold an early return, which would still take threads away from the barriers after it
  int v = s[threadIdx.x ^ 1];
  if (v < m) return;
  s[threadIdx.x] = v;
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: not every thread
  // CHECK-MESSAGES: note: the threads part here
  // CHECK-MESSAGES: note: no automatic fix: not every thread of the block provably reaches the early return, each the same number of times
  out[i] = s[threadIdx.x ^ 1];
}

// A barrier in a loop between the return and the last barrier.
__global__ void loopBarrier(const int *in, int *out, int n) {
  __shared__ int s[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  for (int k = 0; k < 2; ++k) {
    s[threadIdx.x] = in[i] + k;
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: not every thread
    // CHECK-MESSAGES: note: the threads part here
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: no automatic fix: move the barrier where every thread
  }
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: not every thread
  // CHECK-MESSAGES: note: the threads part here
  // CHECK-MESSAGES: :[[@LINE-8]]:5: note: no automatic fix: the statements between the early return and the last barrier hold '__syncthreads'
  out[i] = s[threadIdx.x ^ 1];
}

// A const value read from memory and used after the barrier: the threads
// that returned must not read it, and a const cannot be assigned later.
__global__ void constLoad(const int *in, int *out, int n) {
  __shared__ int s[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int v = in[i];
  s[threadIdx.x] = v;
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: not every thread
  // CHECK-MESSAGES: note: the threads part here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: no automatic fix: a declaration between the early return and the last barrier is used outside the statements that the threads which returned would skip
  out[i] = s[threadIdx.x ^ 1] + v;
}

__global__ void autoLoad(const int *in, int *out, int n) {
  __shared__ int s[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  auto v = in[i];
  s[threadIdx.x] = v;
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: not every thread
  // CHECK-MESSAGES: note: the threads part here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: no automatic fix: a declaration between the early return and the last barrier is used outside
  out[i] = s[threadIdx.x ^ 1] + v;
}

// The threads that leave write first: not a plain return.
__global__ void writesThenLeaves(const int *in, int *out, int n) {
  __shared__ int s[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) {
    out[i % n] = 0;
    return;
  }
  s[threadIdx.x] = in[i];
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: not every thread
  // CHECK-MESSAGES: note: the threads part here
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: move the barrier where every thread
  out[i] = s[threadIdx.x ^ 1];
}

// A return in a helper goes back to its caller.
__device__ void helper(const int *in, int *out, int i, int n) {
  __shared__ int s[128];
  if (i >= n) return;
  s[threadIdx.x] = in[i];
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: not every thread
  // CHECK-MESSAGES: note: the threads part here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: no automatic fix: the early return is in a function that kernels call
  out[i] = s[threadIdx.x ^ 1];
}
__global__ void callsHelper(const int *in, int *out, int n) {
  helper(in, out, blockIdx.x * blockDim.x + threadIdx.x, n);
}

template <int Width>
__global__ void tmpl(const int *in, int *out, int n) {
  __shared__ int s[Width];
  int i = blockIdx.x * Width + threadIdx.x;
  if (i >= n) return;
  s[threadIdx.x] = in[i];
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: not every thread
  // CHECK-MESSAGES: note: the threads part here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: no automatic fix: the kernel is a template
  out[i] = s[threadIdx.x ^ 1];
}
template __global__ void tmpl<128>(const int *, int *, int);

#define LEAVE_IF(c) if (c) return
__global__ void macroExit(const int *in, int *out, int n) {
  __shared__ int s[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  LEAVE_IF(i >= n);
  s[threadIdx.x] = in[i];
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: not every thread
  // CHECK-MESSAGES: note: the threads part here
  // CHECK-MESSAGES: note: no automatic fix: the early return is written by a macro
  out[i] = s[threadIdx.x ^ 1];
}

__global__ void conditional(const int *in, int *out, int n) {
  __shared__ int s[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
#ifdef SCALE
  s[threadIdx.x] = 2 * in[i];
#else
  s[threadIdx.x] = in[i];
#endif
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: not every thread
  // CHECK-MESSAGES: note: the threads part here
  // CHECK-MESSAGES: note: no automatic fix: conditional compilation (#if, #else) or a #define stands between the early return and the last barrier
  out[i] = s[threadIdx.x ^ 1];
}

__global__ void sharedLine(const int *in, int *out, int n) {
  __shared__ int s[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  s[threadIdx.x] = in[i]; __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: not every thread
  // CHECK-MESSAGES: note: the threads part here
  // CHECK-MESSAGES: note: no automatic fix: a barrier after the early return shares its line with other code
  out[i] = s[threadIdx.x ^ 1];
}

// The threads that return destroy what was declared before the return: moved
// past the barriers, they would do it after them.
struct Counted {
  unsigned *count;
  __device__ ~Counted() { atomicAdd(count, 1u); }
};
__global__ void destructorBefore(const int *in, int *out, unsigned *left, int n) {
  __shared__ int s[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Counted mark = {left + blockIdx.x};
  if (i >= n) return;
  s[threadIdx.x] = in[i];
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: not every thread
  // CHECK-MESSAGES: note: the threads part here
  // CHECK-MESSAGES: :[[@LINE-6]]:11: note: no automatic fix: 'mark', declared before the early return, has a destructor, which the threads that return would run after the barriers instead of before them
  out[i] = s[threadIdx.x ^ 1];
}

// A comment that a backslash continues would take the moved return into it.
__global__ void continuedComment(const int *in, int *out, int n) {
  __shared__ int s[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  s[threadIdx.x] = in[i];
  __syncthreads(); // the next line is this comment's too \
  out[i] = -1;
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: not every thread
  // CHECK-MESSAGES: note: the threads part here
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: no automatic fix: the last barrier shares its line with other code, or with a comment that a backslash continues
  out[i] = s[threadIdx.x ^ 1];
}
