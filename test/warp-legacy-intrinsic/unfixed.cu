// Calls whose lanes are not all provably present are reported, with the
// reason and the candidate rewrite as notes, and left as they are.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/k.cu
// RUN: %expect-exit 1 %warpfix %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --fix %t/k.cu
// RUN: diff %s %t/k.cu

__global__ void branch(int *p) {
  int v = p[threadIdx.x];
  if (threadIdx.x % 2)
    v = __shfl(v, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: '__shfl' is a legacy
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the call is inside a branch whose lanes may diverge
  // CHECK-MESSAGES: :[[@LINE-3]]:9: note: candidate rewrite: __shfl_sync(<mask>, ...) where <mask> names the lanes that reach this call
  p[threadIdx.x] = v;
}

__global__ void early_return(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  p[i] = __shfl_down(p[i], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: no automatic fix: an early return before the call may remove lanes
}

__global__ void loop(int *p) {
  int v = p[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down(v, offset);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the call is inside a loop whose lanes may diverge
  p[threadIdx.x] = v;
}

__global__ void conditional(int *p) {
  p[threadIdx.x] = threadIdx.x & 1 ? __any(p[0]) : 0;
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: '__any' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:20: note: no automatic fix: the call is inside a conditional expression whose lanes may diverge
  p[0] = p[1] && __all(p[2]);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: '__all' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: no automatic fix: the call is inside a short-circuit operator whose lanes may diverge
}

__device__ int helper(int v) { return __shfl_xor(v, 1); }
// CHECK-MESSAGES: :[[@LINE-1]]:39: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: :[[@LINE-2]]:16: note: no automatic fix: the call is in a device function, whose callers are not analysed

// The unprefixed pre-Volta vote names are CUDA's own legacy aliases.
__global__ void unprefixed(int *p) {
  if (p[0])
    p[1] = any(p[2]) + all(p[3]) + ballot(p[4]);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'any' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:24: warning: 'all' is a legacy
  // CHECK-MESSAGES: :[[@LINE-3]]:36: warning: 'ballot' is a legacy
}
