// Races through functions that warpfix follows in part or not at all: a
// barrier mask that each thread computes, a loop's condition, a returned
// reference, a moved pointer parameter, a call through a pointer, and a
// destructor. What it cannot follow it reports, and does not fix.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// IDEMPOTENT: fixed 0 findings in 0 files; 3 remain

// A barrier whose mask is not a constant orders, for each thread, the lanes
// of its own mask: here each half of the warp apart.
__device__ void syncLanes(unsigned mask) { __syncwarp(mask); }
__device__ void put(int *s, int i, int v) { s[i] = v; }
// CHECK-MESSAGES-DAG: :[[@LINE-1]]:45: warning: lanes of one warp race on shared memory: lane 0 writes s[0] and lane 16 reads it
// CHECK-MESSAGES-DAG: :[[@LINE-2]]:45: warning: lanes of one warp race on shared memory: lane 0 writes s[0] and lane 2 reads it
// CHECK-MESSAGES-DAG: :[[@LINE-3]]:45: warning: lanes of one warp race on shared memory: lane 0 writes s[0] and lane 1 reads it
// CHECK-MESSAGES-DAG: :[[@LINE+38]]:10: note: no automatic fix: this access goes through a pointer parameter that its function moves, which warpfix does not follow: which elements it touches, and in which threads, is unknown
__device__ int get(const int *s, int i) { return s[i]; }

__global__ void halfMasks(int *out) {
  __shared__ int s[64];
  int t = threadIdx.x, lane = t & 31;
  put(s, t, t);
  syncLanes(lane < 16 ? 0x0000ffffu : 0xffff0000u);
  out[t] = get(s, t ^ 16);
}

// A loop's condition and increment read and write shared memory too.
__device__ bool below(const int *s, int i, int k) { return k < s[i]; }

__global__ void loopHeader(int *out) {
  __shared__ int s[64];
  int t = threadIdx.x, k = 0;
  put(s, t, out[t] & 7);
  while (below(s, t ^ 2, k))
    ++k;
  out[t] = k;
}

// A reference returned by a helper names the element it returns.
__device__ int &slot(int *s, int i) { return s[i]; }

__global__ void returnedReference(int *out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: lanes of one warp race on shared memory: lane 0 writes s[0] and lane 1 reads it
  slot(s, t) = t;
  out[t] = s[t ^ 1];
}

// What warpfix does not follow touches memory it cannot name: a pointer
// parameter that its function moves, a call through a pointer, a destructor.
__device__ int upper(const int *s, int i) {
  s += 32;
  return s[i];
}
typedef void (*Store)(int *, int, int);
struct Publish {
  int *slot;
  int value;
  __device__ Publish(int *s, int i, int v) : slot(&s[i]), value(v) {}
  __device__ ~Publish() { *slot = value; }
};

__global__ void movedParameter(int *out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  put(s, t, t);
  out[t] = upper(s, t ^ 1);
}

__global__ void throughPointer(int *out, Store store) {
  __shared__ int s[64];
  int t = threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+2]]:3: warning: lanes of one warp race on shared memory: lane 0 writes memory of 's' and lane 1 writes it
  // CHECK-MESSAGES: :[[@LINE+1]]:3: note: no automatic fix: this call gets shared memory 's', and warpfix does not follow it (through a pointer, too many calls deep, or with no body in sight): which elements it touches, and in which threads, is unknown
  store(s, t, t);
  out[t] = s[t ^ 1];
}

__global__ void destructor(int *out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  {
    // CHECK-MESSAGES: :[[@LINE+2]]:13: warning: lanes of one warp race on shared memory: lane 0 writes memory of 's' and lane 1 writes it
    // CHECK-MESSAGES: :[[@LINE+1]]:13: note: no automatic fix: this object gets shared memory 's', and its destructor, which warpfix does not follow, may touch it: which elements it touches, and in which threads, is unknown
    Publish p(s, t, t);
  }
  out[t] = s[t ^ 1];
}

void launchMore(int *o, Store st) {
  halfMasks<<<1, 64>>>(o);
  loopHeader<<<1, 64>>>(o);
  returnedReference<<<1, 64>>>(o);
  movedParameter<<<1, 64>>>(o);
  throughPointer<<<1, 64>>>(o, st);
  destructor<<<1, 64>>>(o);
}

// CHECK-FIXES:{{^}}  syncLanes(lane < 16 ? 0x0000ffffu : 0xffff0000u);
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  out[t] = get(s, t ^ 16);
// CHECK-FIXES:{{^}}  put(s, t, out[t] & 7);
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  while (below(s, t ^ 2, k))
// CHECK-FIXES:{{^}}  slot(s, t) = t;
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  out[t] = s[t ^ 1];
// CHECK-FIXES:{{^}}  put(s, t, t);
// CHECK-FIXES-NEXT:{{^}}  out[t] = upper(s, t ^ 1);
