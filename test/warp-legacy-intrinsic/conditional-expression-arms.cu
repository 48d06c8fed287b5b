// A legacy call in one arm of a `?:` whose condition is lane-dependent
// (issue 43, item 4): the lanes that make the call are those for which the
// condition holds (or fails, for the other arm). The ballot of the condition
// is taken right before the statement, where it reads what the `?:` will
// read: the statement does nothing before it but call warp intrinsics, and
// the condition reads only the thread's own registers.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-legacy-intrinsic %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-legacy-intrinsic --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-legacy-intrinsic --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ sed -e 's/__shfl_xor(/__shfl_xor_sync(0xffffffff, /; s/__any(/__any_sync(0xffffffff, /' %t/k.cu > %t/compiles.cu %}
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/compiles.cu %}
// SUMMARY: fixed 6 findings in 1 file; 8 remain
// IDEMPOTENT: fixed 0 findings in 0 files; 8 remain

__global__ void swap_pairs(int *io) {
  int v = io[threadIdx.x];
  bool must_swap = (v & 1) != 0;
  v = must_swap ? __shfl_xor(v, 1) : v;
  io[threadIdx.x] = v;
}

__global__ void both_arms(int *io, int n) {
  int lane = threadIdx.x & 31;
  int v = io[threadIdx.x];
  int w = lane < n ? __shfl_down(v, 1) : __shfl_up(v, 1);
  io[threadIdx.x] = w + v;
}

__device__ int pick(int v, int lane) {
  return lane & 2 ? __shfl_xor(v, 2) : v;
}
__global__ void through_return(int *io) {
  io[threadIdx.x] = pick(io[threadIdx.x], threadIdx.x & 31);
}

// Refused: the statement changes what the condition reads before it is
// evaluated; the condition reads memory; the ?: is part of an if's condition.
__global__ void refused(int *io, const int *flags) {
  int v = io[threadIdx.x];
  int k = threadIdx.x & 31;
  v = (k++, k & 1) ? __shfl_xor(v, 1) : v;
  v = flags[threadIdx.x] ? __shfl_xor(v, 2) : v;
  if (k & 4 ? __any(v > 3) : false)
    v = 0;
  io[threadIdx.x] = v + k;
}

// Refused: the statement changes what the condition reads before it.
__global__ void changes_first(int *io) {
  int v = io[threadIdx.x];
  int k = threadIdx.x & 31;
  int z = (k += 1) + (k & 8 ? __shfl_xor(v, 4) : 0);
  io[threadIdx.x] = z;
}

// Refused: directly in a switch's body, where the next case label would jump
// over the ballot; a condition naming the variable being declared; a #if
// between the statement's start and the condition; a `?:` in an arm of
// another, whose ballot would stand before the statement too.
__global__ void more_refusals(int *io, int mode) {
  int v = io[threadIdx.x];
  int x = threadIdx.x & 31;
  switch (mode) {
  case 0:
    v += 1;
    v = x & 1 ? __shfl_xor(v, 1) : v;
    break;
  }
  char r = 0;
  {
    int r = (sizeof(r) == 4 && (x & 1)) ? __shfl_xor(v, 2) : -1;
    v += r;
  }
  int w =
#if __CUDA_ARCH__ >= 800
      (x & 4)
#else
      (x & 8)
#endif
          ? __shfl_xor(v, 4) : v;
  v = x & 16 ? (x & 1 ? __shfl_xor(v, 1) : v) : v;
  // Two statements on one line get ballots of their own names.
  v = x & 1 ? __shfl_xor(v, 1) : v; w = x & 2 ? __shfl_xor(w, 2) : w;
  io[threadIdx.x] = v + w + r;
}

// CHECK-MESSAGES: k.cu:22:19: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: k.cu:29:22: warning: '__shfl_down' is a legacy
// CHECK-MESSAGES: k.cu:29:42: warning: '__shfl_up' is a legacy
// CHECK-MESSAGES: k.cu:34:21: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: k.cu:45:22: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: k.cu:45:7: note: no automatic fix: the conditional expression's condition is lane-dependent, and its ballot cannot be taken before the statement: its condition has side effects or calls, or reads memory that other lanes may write
// CHECK-MESSAGES: k.cu:46:28: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: k.cu:46:7: note: no automatic fix: the conditional expression's condition is lane-dependent, and its ballot cannot be taken before the statement: its condition has side effects or calls, or reads memory that other lanes may write
// CHECK-MESSAGES: k.cu:47:15: warning: '__any' is a legacy
// CHECK-MESSAGES: k.cu:47:7: note: no automatic fix: the conditional expression's condition is lane-dependent, and its ballot cannot be taken before the statement: it is not part of an expression statement, a declaration or a return in a block

// CHECK-FIXES:      {{^}}  const unsigned warpfix_mask_22 = __ballot_sync(0xffffffff, must_swap);
// CHECK-FIXES-NEXT: {{^}}  v = must_swap ? __shfl_xor_sync(warpfix_mask_22, v, 1) : v;
// CHECK-FIXES:      {{^}}  const unsigned warpfix_mask_29 = __ballot_sync(0xffffffff, lane < n);
// CHECK-FIXES-NEXT: {{^}}  const unsigned warpfix_mask_29_else = __ballot_sync(0xffffffff, !(lane < n));
// CHECK-FIXES-NEXT: {{^}}  int w = lane < n ? __shfl_down_sync(warpfix_mask_29, v, 1) : __shfl_up_sync(warpfix_mask_29_else, v, 1);
// CHECK-FIXES:      {{^}}  const unsigned warpfix_mask_34 = __ballot_sync(0xffffffff, lane & 2);
// CHECK-FIXES-NEXT: {{^}}  return lane & 2 ? __shfl_xor_sync(warpfix_mask_34, v, 2) : v;
// CHECK-FIXES:      {{^}}  v = (k++, k & 1) ? __shfl_xor(v, 1) : v;
// CHECK-MESSAGES: k.cu:56:31: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: k.cu:56:23: note: no automatic fix: the conditional expression's condition is lane-dependent, and its ballot cannot be taken before the statement: the statement does more than call warp intrinsics before it stores its value
// CHECK-MESSAGES: k.cu:70:17: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: k.cu:70:9: note: no automatic fix: the conditional expression's condition is lane-dependent, and its ballot cannot be taken before the statement: the statement stands directly in a switch's body
// CHECK-MESSAGES: k.cu:75:43: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: k.cu:75:13: note: no automatic fix: the conditional expression's condition is lane-dependent, and its ballot cannot be taken before the statement: its condition names the variable that the statement declares
// CHECK-MESSAGES: k.cu:84:13: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: k.cu:82:7: note: no automatic fix: the conditional expression's condition is lane-dependent, and its ballot cannot be taken before the statement: a preprocessor directive stands between the statement's start and the condition's end
// CHECK-MESSAGES: k.cu:85:25: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: k.cu:85:17: note: no automatic fix: the conditional expression's condition is lane-dependent, and its ballot cannot be taken before the statement: it is inside an arm of another lane-dependent conditional expression of the same statement
// CHECK-MESSAGES: k.cu:87:15: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: k.cu:87:49: warning: '__shfl_xor' is a legacy
// CHECK-FIXES:      {{^}}  const unsigned warpfix_mask_87 = __ballot_sync(0xffffffff, x & 1);
// CHECK-FIXES-NEXT: {{^}}  v = x & 1 ? __shfl_xor_sync(warpfix_mask_87, v, 1) : v; const unsigned warpfix_mask_87_37 = __ballot_sync(0xffffffff, x & 2); w = x & 2 ? __shfl_xor_sync(warpfix_mask_87_37, w, 2) : w;
