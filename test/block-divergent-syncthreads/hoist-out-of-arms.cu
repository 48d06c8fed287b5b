// A barrier at the end of both arms of an if/else whose condition depends on
// the thread: every thread reaches the if, so one barrier after it, where
// each thread arrives right after its arm, replaces the two. Refused where
// the if is not reached by every thread, an arm leaves early or holds
// another barrier, the barrier is not the arm's last statement, or the text
// does not allow the move.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,block-divergent-syncthreads %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,block-divergent-syncthreads --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=FIX
// FIX: fixed 4 findings in 1 file; 11 remain
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,block-divergent-syncthreads --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_75 %t/k.cu %}
// IDEMPOTENT: fixed 0 findings in 0 files; 11 remain

// The first warp loads one half, the others the rest; then all read.
__global__ void producerSplit(const int *in, int *out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+4]]:5: warning: not every thread of the block reaches this '__syncthreads()': it is inside a branch
  // CHECK-MESSAGES: :[[@LINE+1]]:7: note: the threads part here
  if (t < 32) {
    s[t] = in[t] * 2;
    __syncthreads();
  } else {
    s[t] = in[t] + 1;
    __syncthreads(); // everyone has stored
  }
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: every thread of the block reaches this if, and both arms end at a __syncthreads()
  // CHECK-MESSAGES: :[[@LINE-3]]:5: warning: not every thread
  out[t] = s[127 - t];
}
// CHECK-FIXES:  if (t < 32) {
// CHECK-FIXES-NEXT:    s[t] = in[t] * 2;
// CHECK-FIXES:  } else {
// CHECK-FIXES-NEXT:    s[t] = in[t] + 1;
// CHECK-FIXES-NEXT:    // everyone has stored
// CHECK-FIXES:  }
// CHECK-FIXES-NEXT:  __syncthreads();
// CHECK-FIXES:  out[t] = s[127 - t];

// In a loop of the same trip count everywhere, arms that only wait.
__global__ void inLoop(int *data, int rounds) {
  __shared__ int s[64];
  int t = threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    // CHECK-MESSAGES: :[[@LINE+3]]:7: warning: not every thread
    if (t % 2 == 0) {
      s[t] = data[t] + r;
      __syncthreads();
    } else {
      __syncthreads();
    }
    // CHECK-MESSAGES: :[[@LINE-2]]:7: warning: not every thread
    data[t] = s[t & ~1];
  }
}
// CHECK-FIXES:    if (t % 2 == 0) {
// CHECK-FIXES-NEXT:      s[t] = data[t] + r;
// CHECK-FIXES:    } else {
// CHECK-FIXES:    }
// CHECK-FIXES-NEXT:    __syncthreads();
// CHECK-FIXES:    data[t] = s[t & ~1];

// Not every thread reaches the if: an early return before it.
__global__ void afterReturn(const int *in, int *out, int n) {
  __shared__ int s[128];
  int t = threadIdx.x;
  if (t >= n) {
    out[t] = 0;
    return;
  }
  if (t < 32) {
    s[t] = in[t];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: not every thread
    // CHECK-MESSAGES: :[[@LINE-8]]:7: note: the threads part here
    // CHECK-MESSAGES: :[[@LINE-5]]:3: note: no automatic fix: not every thread of the block provably reaches the if, each the same number of times
  } else {
    s[t] = -in[t];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: not every thread
    // CHECK-MESSAGES: note: no automatic fix: not every thread of the block provably reaches the if, each the same number of times
  }
  out[t] = s[127 - t];
}

// An arm that leaves early; an arm with a barrier before its last.
__global__ void armExits(const int *in, int *out, int n) {
  __shared__ int s[128];
  int t = threadIdx.x;
  if (t < 32) {
    if (in[t] < 0)
      return;
    s[t] = in[t];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: not every thread
    // CHECK-MESSAGES: note: the threads part here
    // CHECK-MESSAGES: :[[@LINE-5]]:7: note: no automatic fix: an arm holds an early return, by which some of its threads would not reach the barrier after the if
  } else {
    s[t] = in[t];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: not every thread
    // CHECK-MESSAGES: note: no automatic fix: an arm holds an early return
  }
  out[t] = s[127 - t];
}

__global__ void armBarrierBefore(const int *in, int *out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = in[t];
  if (t < 64) {
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: not every thread
    // CHECK-MESSAGES: note: the threads part here
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: no automatic fix: move the barrier where every thread
    s[t] += 1;
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: not every thread
    // CHECK-MESSAGES: note: no automatic fix: an arm holds '__syncthreads' before its last barrier
  } else {
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: not every thread
    // CHECK-MESSAGES: note: no automatic fix: an arm holds '__syncthreads' before its last barrier
  }
  out[t] = s[127 - t];
}

// One arm's barrier is not its last statement: not the shape.
__global__ void barrierNotLast(const int *in, int *out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  if (t < 32) {
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: not every thread
    // CHECK-MESSAGES: note: the threads part here
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: no automatic fix: move the barrier where every thread
    s[t] = in[t];
  } else {
    s[t] = in[t];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: not every thread
    // CHECK-MESSAGES: note: no automatic fix: move the barrier where every thread
  }
  out[t] = s[127 - t];
}

// What an arm declares is destroyed after the arm's barrier; after the
// one barrier past the if, it would be destroyed before it.
struct Publish {
  int *slot;
  int value;
  __device__ ~Publish() { *slot = value; }
};
__global__ void destructorInArm(const int *in, int *out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  if (t < 32) {
    Publish p = {&s[t], in[t]};
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: not every thread
    // CHECK-MESSAGES: note: the threads part here
    // CHECK-MESSAGES: :[[@LINE-4]]:13: note: no automatic fix: 'p' has a destructor, which runs after the arm's barrier and would run before the barrier after the if
  } else {
    s[t] = in[t];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: not every thread
    // CHECK-MESSAGES: note: no automatic fix: 'p' has a destructor
  }
  out[t] = s[127 - t];
}
