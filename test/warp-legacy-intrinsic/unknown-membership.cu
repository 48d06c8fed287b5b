// Where the lanes that reach a call cannot be known, the call is reported with
// the reason and a candidate rewrite, and nothing is changed.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: diff %s %t/k.cu
// SUMMARY: 11 findings in 1 file (0 fixable)

// "Tutorial de CUDA - Warp": lanes leave the loop at different iterations.
__global__ void divergent_loop(int *s) {
  int idx = threadIdx.x;
  int v = s[idx];
  for (int t = 16; idx < t; t >>= 1)
    v += __shfl_down(v, t);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations
  // CHECK-MESSAGES: :[[@LINE-3]]:10: note: candidate rewrite: __shfl_down_sync(<mask>, ...) where <mask> names the lanes that reach this call
  s[idx] = v;
}

__global__ void lane_dependent_break(int *p, int n) {
  int v = p[threadIdx.x];
  for (int i = 0; i < n; ++i) {
    v += __shfl_xor(v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_xor' is a legacy
    // CHECK-MESSAGES: :[[@LINE+2]]:7: note: no automatic fix: a break under a lane-dependent condition makes lanes leave the loop at different iterations
    if (v > 100)
      break;
  }
  p[threadIdx.x] = v;
}

__global__ void expressions(int *p) {
  int lane = threadIdx.x & 31;
  p[0] = lane > 3 ? __shfl(p[1], 0) : 0;
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: '__shfl' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: no automatic fix: the conditional expression's condition is lane-dependent
  p[1] = lane > 3 && __all(p[2]);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: '__all' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:19: note: no automatic fix: the short-circuit operator's left operand is lane-dependent
}

__device__ int never_called(int v) { return __shfl_xor(v, 1); }
// CHECK-MESSAGES: :[[@LINE-1]]:45: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: :[[@LINE-2]]:16: note: no automatic fix (this translation unit abstains): 'never_called' is not called in this translation unit, so who reaches it is unknown

__device__ int called_divergently(int v) { return __shfl_up(v, 1); }
// CHECK-MESSAGES: :[[@LINE-1]]:51: warning: '__shfl_up' is a legacy
// CHECK-MESSAGES: :[[@LINE+5]]:12: note: no automatic fix: 'called_divergently' is called here by only some lanes of the warp (the loop's condition is lane-dependent, so lanes leave it at different iterations)
// A helper whose callers are known but differ gets its mask as a parameter
// (thread-mask.cu); here one caller's lanes are unknown.
__global__ void caller(int *p, int n) {
  for (int i = threadIdx.x; i < n; i += 32)
    p[i] = called_divergently(p[i]);
}

__global__ void side_effects(int *p, int *counter) {
  if (atomicAdd(counter, 1) < 16)
    p[0] = __ballot(p[threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__ballot' is a legacy
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: no automatic fix: the branch condition has side effects, volatile reads or calls, so it cannot be evaluated again in a ballot
}

__global__ void volatile_flag(volatile int *flags, int *p) {
  if (flags[threadIdx.x])
    p[0] = __any(p[threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__any' is a legacy
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: no automatic fix: the branch condition has side effects, volatile reads or calls
}

__global__ void volatile_deref(volatile int *flag, int *p) {
  if (*flag > threadIdx.x)
    p[0] = __any(p[threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__any' is a legacy
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: no automatic fix: the branch condition has side effects, volatile reads or calls
}

__global__ void unbraced_loop_body(int *p, int n) {
  for (int i = 0; i < n; ++i)
    if (threadIdx.x < 7)
      p[i] = __shfl(p[i], 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: '__shfl' is a legacy
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: no automatic fix: the branch is the unbraced body of a loop, switch or label; add braces so that a mask can be computed before it
}

__global__ void with_goto(int *p) {
  int v = p[threadIdx.x];
again:
  v = __shfl_down(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-5]]:17: note: no automatic fix: a goto in the function may repeat or skip code for some lanes
  if (v < 0)
    goto again;
  p[threadIdx.x] = v;
}
