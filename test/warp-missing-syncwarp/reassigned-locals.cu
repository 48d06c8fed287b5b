// Locals assigned after their declaration are followed statement by
// statement, where nothing else can change them.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-missing-syncwarp %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-missing-syncwarp --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// IDEMPOTENT: fixed 0 findings in 0 files; 1 remain

__global__ void swappedAfter(int *out) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  t ^= 1;
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: lanes of one warp race on shared memory: lane 0 writes s[1] and lane 2 reads it
  s[t] = t;
  out[threadIdx.x] = s[threadIdx.x ^ 3];
}

__global__ void assignedLater(int *out) {
  __shared__ int s[64];
  unsigned t;
  t = threadIdx.x + 1;
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: lanes of one warp race on shared memory: lane 0 writes s[0] and lane 2 reads it
  s[t - 1] = 1;
  t = threadIdx.x ^ 2;
  out[threadIdx.x] = s[t];
}

__global__ void assignedInLoop(int *out) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  for (int k = 0; k < 2; ++k) {
    unsigned u = t ^ k;
    // CHECK-MESSAGES: :[[@LINE+2]]:5: warning: lanes of one warp race on shared memory: lane 0 writes s[0] and lane 1 writes it
    // CHECK-MESSAGES: :[[@LINE+1]]:5: note: no automatic fix: lanes write the element in one statement
    s[u] = k;
  }
  out[threadIdx.x] = s[threadIdx.x];
}

// Not followed: a local stored in a branch, through a reference, or in a
// loop is unknown after it. Each lane then reads the element it wrote; with
// the value from before the store, lanes would seem to race.
__global__ void storedInBranch(int *out) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  if (threadIdx.x < 64)
    t ^= 1;
  s[t] = 1;
  out[threadIdx.x] = s[threadIdx.x ^ 1];
}

__device__ void flip(unsigned &v) { v ^= 1; }

__global__ void storedByReference(int *out) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  flip(t);
  s[t] = 1;
  out[threadIdx.x] = s[threadIdx.x ^ 1];
}

__global__ void storedInLoop(int *out) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  for (int k = 0; k < 1; ++k)
    t ^= 1;
  s[t] = 1;
  out[threadIdx.x] = s[threadIdx.x ^ 1];
}
// CHECK-FIXES:{{^}}  s[t] = t;
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  out[threadIdx.x] = s[threadIdx.x ^ 3];
// CHECK-FIXES:{{^}}  t = threadIdx.x ^ 2;
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  out[threadIdx.x] = s[t];
