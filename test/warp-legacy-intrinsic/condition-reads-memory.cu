// A ballot is taken before its branch, and each lane then tests the branch
// condition again. Where the condition reads memory that another lane may
// write in between (the branch's own body, or code past it that a lane
// which skipped the branch runs ahead to), a lane can take an arm whose
// mask does not name it: no fix, and the note says how to make one. A
// condition that reads only the thread's registers, its own local arrays
// and objects, or memory that no device code writes, gives the ballot's
// answer again: fixed.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/k.cu
// RUN: %expect-exit 1 %warpfix --checks=-*,warp-legacy-intrinsic %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --checks=-*,warp-legacy-intrinsic --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=FIXED
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 1 %warpfix --checks=-*,warp-legacy-intrinsic --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ sed -e 's/__shfl_xor(/__shfl_xor_sync(0xffffffff, /' -e 's/__ballot(/__ballot_sync(0xffffffff, /' -e 's/__shfl_down(/__shfl_down_sync(0xffffffff, /' %t/k.cu > %t/compiles.cu %}
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/compiles.cu %}
// FIXED: fixed 5 findings in 1 file; 8 remain
// IDEMPOTENT: fixed 0 findings in 0 files; 8 remain

struct Pair { int key; int value; };
__constant__ int threshold;
const int limit = 7;

// Lane 0 clears lane 1's flag inside the branch: a slower lane 1 then
// tests a cleared flag, skips the arm, and the ballot named it.
__global__ void shared_flag(int *out, const int *in) {
  __shared__ int flags[32];
  int lane = threadIdx.x & 31;
  int v = in[threadIdx.x];
  flags[lane] = v & 1;
  __syncwarp();
  if (flags[lane] != 0) {
    flags[lane ^ 1] = 0;
    v += __shfl_xor(v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_xor' is a legacy
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: no automatic fix: the branch condition reads memory that another lane may write between a ballot taken before the branch and the branch's own test of it, so a lane could take an arm whose mask does not name it; compute the condition once into a local variable and branch on that
  }
  out[threadIdx.x] = v;
}

// Global memory through a pointer, in an early exit and in an enclosing
// condition of nested branches.
__global__ void early_exit(int *data, int *out) {
  int lane = threadIdx.x & 31;
  if (data[threadIdx.x] < 0)
    return;
  out[threadIdx.x] = __ballot(lane & 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: '__ballot' is a legacy
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: no automatic fix: the branch condition reads memory
}
__global__ void global_conditions(int *data, int *out) {
  int lane = threadIdx.x & 31;
  if (lane < 16) {
    if (data[lane + 16] > 0) {
      data[lane] = __shfl_xor(data[lane], 2);
      // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: '__shfl_xor' is a legacy
      // CHECK-MESSAGES: :[[@LINE-3]]:9: note: no automatic fix: the branch condition reads memory
    }
  }
  if (lane > 2)
    if (out[lane] != 0)
      out[lane] = __shfl_xor(out[lane], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: :[[@LINE-3]]:9: note: no automatic fix: the branch condition reads memory
}

// A field through a pointer, and a constexpr function handed a pointer,
// read memory too.
__host__ __device__ constexpr int first(const int *p) { return p[0]; }
__global__ void indirect_reads(Pair *pairs, int *out) {
  int lane = threadIdx.x & 31;
  int v = lane;
  if (pairs[lane].key > 0)
    v = __shfl_xor(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: no automatic fix: the branch condition reads memory
  Pair *mine = pairs + lane;
  if (mine->value > 0)
    v = __shfl_xor(v, 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: no automatic fix: the branch condition reads memory
  if (first(out + lane) > 0)
    v = __shfl_xor(v, 4);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: no automatic fix: the branch condition reads memory
  out[threadIdx.x] = v;
}

// The note's advice taken: the flag read once into a register.
__global__ void flag_in_register(int *out, const int *in) {
  __shared__ int flags[32];
  int lane = threadIdx.x & 31;
  int v = in[threadIdx.x];
  flags[lane] = v & 1;
  __syncwarp();
  bool flagged = flags[lane] != 0;
  if (flagged) {
    flags[lane ^ 1] = 0;
    v += __shfl_xor(v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_xor' is a legacy
  }
  out[threadIdx.x] = v;
}

// The thread's own arrays and objects, constant memory and constants: no
// other lane can change them.
__host__ __device__ constexpr int twice(int x) { return 2 * x; }
__global__ void private_conditions(int *out, const int *in) {
  int lane = threadIdx.x & 31;
  int v = in[threadIdx.x];
  int window[4] = {v, v + 1, v + 2, v + 3};
  Pair own = {lane, v};
  if (window[lane & 3] > 0 && own.key < 20)
    v += __shfl_xor(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_xor' is a legacy
  if (v > threshold)
    v += __shfl_xor(v, 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_xor' is a legacy
  if (twice(lane) > limit)
    v += __shfl_xor(v, 4);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_xor' is a legacy
  if (own.value != 0)
    v += __ballot(v & 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__ballot' is a legacy
  out[threadIdx.x] = v;
}
// A helper called under such a branch cannot be handed a ballot of it.
__device__ int pass_on(int v) { return __shfl_down(v, 1); }
// CHECK-MESSAGES: :[[@LINE-1]]:40: warning: '__shfl_down' is a legacy
__global__ void through_helper(int *out, const int *in) {
  int v = in[threadIdx.x];
  if (in[threadIdx.x + 32] > 0)
    v = pass_on(v);
  // CHECK-MESSAGES: :[[@LINE-2]]:7: note: the mask cannot be passed in as a new parameter: the branch that decides which lanes make this call of 'pass_on' reads memory that another lane may write between a ballot taken before it and its own test
  out[threadIdx.x] = v;
}
void launch(int *out, const int *in, int *data, Pair *pairs) {
  through_helper<<<1, 32>>>(out, in);
  shared_flag<<<1, 32>>>(out, in);
  early_exit<<<1, 32>>>(data, out);
  global_conditions<<<1, 32>>>(data, out);
  indirect_reads<<<1, 32>>>(pairs, out);
  flag_in_register<<<1, 32>>>(out, in);
  private_conditions<<<1, 32>>>(out, in);
}

// CHECK-FIXES:{{^}}  bool flagged = flags[lane] != 0;
// CHECK-FIXES-NEXT:{{^}}  const unsigned [[FLAG:warpfix_mask_[0-9]+]] = __ballot_sync(0xffffffff, flagged);
// CHECK-FIXES-NEXT:{{^}}  if (flagged) {
// CHECK-FIXES:{{^}}    v += __shfl_xor_sync([[FLAG]], v, 1);
// CHECK-FIXES:{{^}}  const unsigned [[OWN:warpfix_mask_[0-9]+]] = __ballot_sync(0xffffffff, window[lane & 3] > 0 && own.key < 20);
// CHECK-FIXES-NEXT:{{^}}  if (window[lane & 3] > 0 && own.key < 20)
// CHECK-FIXES-NEXT:{{^}}    v += __shfl_xor_sync([[OWN]], v, 1);
// CHECK-FIXES:{{^}}  const unsigned [[CONST:warpfix_mask_[0-9]+]] = __ballot_sync(0xffffffff, v > threshold);
// CHECK-FIXES-NEXT:{{^}}  if (v > threshold)
// CHECK-FIXES-NEXT:{{^}}    v += __shfl_xor_sync([[CONST]], v, 2);
// CHECK-FIXES:{{^}}  const unsigned [[VALUE:warpfix_mask_[0-9]+]] = __ballot_sync(0xffffffff, twice(lane) > limit);
// CHECK-FIXES-NEXT:{{^}}  if (twice(lane) > limit)
// CHECK-FIXES-NEXT:{{^}}    v += __shfl_xor_sync([[VALUE]], v, 4);
// CHECK-FIXES:{{^}}  const unsigned [[FIELD:warpfix_mask_[0-9]+]] = __ballot_sync(0xffffffff, own.value != 0);
// CHECK-FIXES-NEXT:{{^}}  if (own.value != 0)
// CHECK-FIXES-NEXT:{{^}}    v += __ballot_sync([[FIELD]], v & 1);
