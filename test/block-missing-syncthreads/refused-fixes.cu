// Races between warps that no __syncthreads() fixes automatically: where
// not every thread of the block provably reaches the place between the
// accesses, the same number of times (a thread-dependent trip count, branch,
// early return or break), where the place is in a template or in a function
// the kernel calls, where a continue skips the end of the loop body, where
// one statement reads and writes, and where the threads meet only in a block
// size modelled with no launch in sight. Each is reported with the reason,
// and --fix leaves the file as it was.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,block-missing-syncthreads %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: cp %t/k.cu %t/before.cu
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,block-missing-syncthreads --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=FIX
// FIX: fixed 0 findings in 0 files; 9 remain
// RUN: cmp %t/k.cu %t/before.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_75 %t/k.cu %}

// A loop whose trip count differs by thread: some threads would wait at the
// barrier for iterations they never run.
__global__ void ragged(float *out, const int *counts) {
  __shared__ float s[64];
  int t = threadIdx.x;
  for (int i = 0; i < counts[t]; ++i) {
    s[t] = i;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: threads of different warps race on shared memory: thread 0 (warp 0, lane 0) writes s[0] and thread 32 (warp 1, lane 0) reads it with no __syncthreads() between them [block-missing-syncthreads]
    // CHECK-MESSAGES: :[[@LINE+2]]:15: note: the other thread reads it here
    // CHECK-MESSAGES: :[[@LINE+1]]:5: note: no automatic fix: a __syncthreads() here would order the accesses, but not every thread of the block provably reaches it: the loop's condition is thread-dependent, so threads leave it at different iterations
    out[t] += s[(t + 32) % 64];
  }
}

// An edit of a template's text goes into all of its instantiations.
template <int N> __global__ void rotateT(float *p) {
  __shared__ float s[N];
  int t = threadIdx.x;
  s[t] = p[t];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: threads of different warps race on shared memory: thread 0 (warp 0, lane 0) writes s[0] and thread 32 (warp 1, lane 0) reads it with no __syncthreads() between them [block-missing-syncthreads]
  // CHECK-MESSAGES: :[[@LINE+2]]:10: note: the other thread reads it here
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the kernel is a template, and a __syncthreads() in its text would go into every instantiation, which warpfix has not each shown to reach it with every thread
  p[t] = s[(t + 32) % N];
}

// Both accesses are a helper's: its other callers may hold only some
// threads.
__device__ void exchange(float *s, float *p) {
  int t = threadIdx.x;
  s[t] = p[t];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: threads of different warps race on shared memory: thread 0 (warp 0, lane 0) writes s[0] and thread 32 (warp 1, lane 0) reads it with no __syncthreads() between them [block-missing-syncthreads]
  // CHECK-MESSAGES: :[[@LINE+2]]:10: note: the other thread reads it here
  // CHECK-MESSAGES: :[[@LINE+1]]:3: note: no automatic fix: the __syncthreads() that orders the accesses would go into a function the kernel calls
  p[t] = s[(t + 32) % 64];
}
__global__ void viaHelper(float *p) {
  __shared__ float s[64];
  exchange(s, p);
}

// The place between the accesses is inside a branch that only some threads
// take.
__global__ void partial(float *p) {
  __shared__ float s[64];
  int t = threadIdx.x;
  if (t < 48) {
    s[t] = p[t];
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: threads of different warps race on shared memory: thread 15 (warp 0, lane 15) writes s[15] and thread 32 (warp 1, lane 0) reads it with no __syncthreads() between them [block-missing-syncthreads]
    // CHECK-MESSAGES: :[[@LINE+3]]:12: note: the other thread reads it here
    // CHECK-MESSAGES: :[[@LINE+2]]:5: note: no automatic fix: a __syncthreads() here would order the accesses, but not every thread of the block provably reaches it: threads part before it under a thread-dependent condition
    // CHECK-MESSAGES: :[[@LINE-5]]:7: note: the threads part here
    p[t] = s[47 - t];
  }
}

// Threads past n have left before the place between the accesses.
__global__ void leftEarly(float *p, int n) {
  __shared__ float s[64];
  int t = threadIdx.x;
  s[t] = p[t];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: threads of different warps race on shared memory: thread 0 (warp 0, lane 0) writes s[0] and thread 32 (warp 1, lane 0) reads it with no __syncthreads() between them [block-missing-syncthreads]
  // CHECK-MESSAGES: :[[@LINE+5]]:10: note: the other thread reads it here
  // CHECK-MESSAGES: :[[@LINE+4]]:3: note: no automatic fix: a __syncthreads() here would order the accesses, but not every thread of the block provably reaches it: threads part before it under a thread-dependent condition
  // CHECK-MESSAGES: :[[@LINE+1]]:7: note: the threads part here
  if (t >= n)
    return;
  p[t] = s[(t + 32) % 64];
}

// A continue skips the end of the body, where the next iteration's store
// would be ordered after this one's read.
__global__ void skipsEnd(float *p, int n) {
  __shared__ float s[64];
  int t = threadIdx.x;
  s[t] = 0;
  __syncthreads();
  for (int i = 0; i < n; ++i) {
    float v = s[(t + 32) % 64];
    if (i == 3)
      continue;
    p[t] += v;
    s[t] = v + 1;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: threads of different warps race on shared memory: thread 0 (warp 0, lane 0) writes s[0] and thread 32 (warp 1, lane 0) reads it with no __syncthreads() between them [block-missing-syncthreads]
    // CHECK-MESSAGES: :[[@LINE-6]]:15: note: the other thread reads it here
    // CHECK-MESSAGES: :[[@LINE-5]]:7: note: no automatic fix: the barrier that orders one iteration's accesses before the next one's would stand at the end of the loop body, which this continue skips
  }
}

// Read and write in one statement.
__global__ void oneStatement(float *p) {
  __shared__ float s[64];
  int t = threadIdx.x;
  s[t] = p[t];
  __syncthreads();
  s[t] = s[(t + 32) % 64] + 1;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: threads of different warps race on shared memory: thread 0 (warp 0, lane 0) writes s[0] and thread 32 (warp 1, lane 0) reads it with no __syncthreads() between them [block-missing-syncthreads]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: no automatic fix: the racing read and write are in one statement; read into a register, __syncthreads(), then write
  p[t] = s[t];
}

// With no launch in sight, threads meet only in the block size modelled,
// and the element read depends on the block's size.
__global__ void sizeDependent(float *p) {
  extern __shared__ float dyn[];
  int t = threadIdx.x;
  dyn[t] = p[t];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: threads of different warps race on shared memory: thread 31 (warp 0, lane 31) writes dyn[31] and thread 32 (warp 1, lane 0) reads it with no __syncthreads() between them, in a block of two warps, as modelled with no launch in sight [block-missing-syncthreads]
  // CHECK-MESSAGES: :[[@LINE+2]]:10: note: the other thread reads it here
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: no launch is in sight, and the threads meet only in a modelled block of more than two warps, or through accesses that depend on the block's size; if the code's launches make them meet, put a __syncthreads() between them
  p[t] = dyn[blockDim.x - 1 - t];
}

// The thread-dependent exit at the end of the body leaves the loop at
// different iterations.
__global__ void breaksOut(float *p, const int *stop) {
  __shared__ float s[64];
  int t = threadIdx.x;
  for (int i = 0; i < 8; ++i) {
    s[t] = i;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: threads of different warps race on shared memory: thread 0 (warp 0, lane 0) writes s[0] and thread 32 (warp 1, lane 0) reads it with no __syncthreads() between them [block-missing-syncthreads]
    // CHECK-MESSAGES: :[[@LINE+2]]:13: note: the other thread reads it here
    // CHECK-MESSAGES: :[[@LINE+2]]:5: note: no automatic fix: a __syncthreads() here would order the accesses, but not every thread of the block provably reaches it: a break under a thread-dependent condition makes threads leave the loop at different iterations
    p[t] += s[(t + 32) % 64];
    if (stop[t] == i)
      break;
  }
}

int main() {
  float *p = nullptr;
  int *c = nullptr;
  ragged<<<1, 64>>>(p, c);
  rotateT<64><<<1, 64>>>(p);
  viaHelper<<<1, 64>>>(p);
  partial<<<1, 64>>>(p);
  leftEarly<<<1, 64>>>(p, 40);
  skipsEnd<<<1, 64>>>(p, 8);
  oneStatement<<<1, 64>>>(p);
  breaksOut<<<1, 64>>>(p, c);
}

