// A ballot is taken before its branch, and each lane then tests the branch
// condition again. Where the condition reads memory that another lane may
// write in between (the branch's own body, or code past it that a lane
// which skipped the branch runs ahead to), a lane can take an arm whose
// mask does not name it. Such a condition is computed once into a variable,
// the ballot is of that variable, and the branch tests it; both arms' masks
// come from that one ballot. Where the shape does not allow it (an arm of
// nested unbraced ifs, an if sharing its line), no fix, and the note says
// how to make one. A condition that reads only the thread's registers, its
// own local arrays and objects, or memory that no device code writes, gives
// the ballot's answer again: the plain ballot.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --checks=-*,warp-legacy-intrinsic %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --checks=-*,warp-legacy-intrinsic --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=FIXED
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 1 %warpfix --checks=-*,warp-legacy-intrinsic --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ sed -e 's/__shfl_xor(/__shfl_xor_sync(0xffffffff, /' %t/k.cu > %t/compiles.cu %}
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/compiles.cu %}
// FIXED: fixed 16 findings in 1 file; 3 remain
// IDEMPOTENT: fixed 0 findings in 0 files; 3 remain

struct Pair { int key; int value; };
__constant__ int threshold;
const int limit = 7;

// Lane 0 clears lane 1's flag inside the branch: tested again after a
// ballot, a slower lane 1 would find it cleared and skip the arm that the
// ballot names it in.
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
  }
  out[threadIdx.x] = v;
}

// An early exit: the lanes that go on are those of the outer mask where the
// condition failed.
__global__ void early_exit(int *data, int *out) {
  int lane = threadIdx.x & 31;
  if (data[threadIdx.x] < 0)
    return;
  out[threadIdx.x] = __ballot(lane & 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: '__ballot' is a legacy
}

// Both arms, and calls sharing an arm: one ballot for all.
__global__ void both_arms(int *out, const int *in, const int *flags) {
  int v = in[threadIdx.x];
  if (flags[threadIdx.x] > 0) {
    v += __shfl_xor(v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_xor' is a legacy
    v += __shfl_xor(v, 2);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_xor' is a legacy
  } else {
    v += __shfl_xor(v, 4);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_xor' is a legacy
  }
  out[threadIdx.x] = v;
}

// Nested in braces: the inner ballot is taken under the outer mask.
__global__ void nested(int *data, int *out) {
  int lane = threadIdx.x & 31;
  if (lane < 16) {
    if (data[lane + 16] > 0) {
      data[lane] = __shfl_xor(data[lane], 2);
      // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: '__shfl_xor' is a legacy
    }
  }
  out[lane] = data[lane];
}

// Shapes where the condition cannot be computed once on its own: an if
// nested unbraced in another, an arm of an else-if chain, an if that shares
// its line.
__global__ void no_place(int *data, int *out) {
  int lane = threadIdx.x & 31;
  if (lane > 2)
    if (out[lane] != 0)
      out[lane] = __shfl_xor(out[lane], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: :[[@LINE-3]]:9: note: no automatic fix: the branch condition reads memory that another lane may write between a ballot taken before the branch and the branch's own test of it, so a lane could take an arm whose mask does not name it, and it is not a lone if's condition on a line of its own, which warpfix would compute once into a variable; compute the condition once into a local variable and branch on that
  if (lane < 4) {
    out[lane] = 0;
  } else if (data[lane] > 0) {
    data[lane] = __shfl_xor(data[lane], 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: '__shfl_xor' is a legacy
    // CHECK-MESSAGES: :[[@LINE-3]]:14: note: no automatic fix: the branch condition reads memory
  }
  int v = lane; if (data[lane] > 1) v = __shfl_xor(v, 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:21: note: no automatic fix: the branch condition reads memory
  out[lane] += v;
}

// Fields through pointers, and a constexpr function handed a pointer, read
// memory too.
__host__ __device__ constexpr int first(const int *p) { return p[0]; }
__global__ void indirect_reads(Pair *pairs, int *out) {
  int lane = threadIdx.x & 31;
  int v = lane;
  if (pairs[lane].key > 0)
    v = __shfl_xor(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: '__shfl_xor' is a legacy
  Pair *mine = pairs + lane;
  if (mine->value > 0)
    v = __shfl_xor(v, 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: '__shfl_xor' is a legacy
  if (first(out + lane) > 0)
    v = __shfl_xor(v, 4);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: '__shfl_xor' is a legacy
  out[threadIdx.x] = v;
}

// The thread's own arrays and objects, constant memory and constants: no
// other lane can change them, so the condition is tested as written.
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

// A helper called under such a branch is handed the ballot of the variable.
__device__ int pass_on(int v) { return __shfl_down(v, 1); }
// CHECK-MESSAGES: :[[@LINE-1]]:40: warning: '__shfl_down' is a legacy
__global__ void through_helper(int *out, const int *in) {
  int v = in[threadIdx.x];
  if (in[threadIdx.x + 32] > 0)
    v = pass_on(v);
  out[threadIdx.x] = v;
}

// A reference member names whatever it was bound to, here another lane's
// shared slot; an element of a __constant__ array no device code writes.
struct Limit { int &value; };
__constant__ int bounds[32];
__global__ void reference_member(int *out, const int *in) {
  __shared__ int slots[32];
  int lane = threadIdx.x & 31;
  int v = in[threadIdx.x];
  slots[lane] = v;
  __syncwarp();
  const Limit limit{slots[lane ^ 1]};
  if (lane < limit.value)
    v += __shfl_xor(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_xor' is a legacy
  if (lane < bounds[lane])
    v += __shfl_xor(v, 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_xor' is a legacy
  out[threadIdx.x] = v;
}

void launch(int *out, const int *in, int *data, Pair *pairs) {
  shared_flag<<<1, 32>>>(out, in);
  early_exit<<<1, 32>>>(data, out);
  both_arms<<<1, 32>>>(out, in, data);
  nested<<<1, 32>>>(data, out);
  no_place<<<1, 32>>>(data, out);
  indirect_reads<<<1, 32>>>(pairs, out);
  private_conditions<<<1, 32>>>(out, in);
  through_helper<<<1, 32>>>(out, in);
  reference_member<<<1, 32>>>(out, in);
}

// CHECK-FIXES:{{^}}  __syncwarp();
// CHECK-FIXES-NEXT:{{^}}  const bool warpfix_mask_[[FLAG:[0-9]+]]_taken = flags[lane] != 0;
// CHECK-FIXES-NEXT:{{^}}  const unsigned warpfix_mask_[[FLAG]] = __ballot_sync(0xffffffff, warpfix_mask_[[FLAG]]_taken);
// CHECK-FIXES-NEXT:{{^}}  if (warpfix_mask_[[FLAG]]_taken) {
// CHECK-FIXES-NEXT:{{^}}    flags[lane ^ 1] = 0;
// CHECK-FIXES-NEXT:{{^}}    v += __shfl_xor_sync(warpfix_mask_[[FLAG]], v, 1);
// CHECK-FIXES:{{^}}  const bool warpfix_mask_[[EXIT:[0-9]+]]_taken = data[threadIdx.x] < 0;
// CHECK-FIXES-NEXT:{{^}}  const unsigned warpfix_mask_[[EXIT]] = __ballot_sync(0xffffffff, warpfix_mask_[[EXIT]]_taken);
// CHECK-FIXES-NEXT:{{^}}  if (warpfix_mask_[[EXIT]]_taken)
// CHECK-FIXES-NEXT:{{^}}    return;
// CHECK-FIXES-NEXT:{{^}}  out[threadIdx.x] = __ballot_sync(~warpfix_mask_[[EXIT]], lane & 1);
// CHECK-FIXES:{{^}}  const bool warpfix_mask_[[ARMS:[0-9]+]]_taken = flags[threadIdx.x] > 0;
// CHECK-FIXES-NEXT:{{^}}  const unsigned warpfix_mask_[[ARMS]] = __ballot_sync(0xffffffff, warpfix_mask_[[ARMS]]_taken);
// CHECK-FIXES-NEXT:{{^}}  if (warpfix_mask_[[ARMS]]_taken) {
// CHECK-FIXES-NEXT:{{^}}    v += __shfl_xor_sync(warpfix_mask_[[ARMS]], v, 1);
// CHECK-FIXES:{{^}}    v += __shfl_xor_sync(warpfix_mask_[[ARMS]], v, 2);
// CHECK-FIXES:{{^}}  } else {
// CHECK-FIXES-NEXT:{{^}}    v += __shfl_xor_sync(~warpfix_mask_[[ARMS]], v, 4);
// CHECK-FIXES:{{^}}  const unsigned [[OUTER:warpfix_mask_[0-9]+]] = __ballot_sync(0xffffffff, lane < 16);
// CHECK-FIXES-NEXT:{{^}}  if (lane < 16) {
// CHECK-FIXES-NEXT:{{^}}    const bool warpfix_mask_[[INNER:[0-9]+]]_taken = data[lane + 16] > 0;
// CHECK-FIXES-NEXT:{{^}}    const unsigned warpfix_mask_[[INNER]] = __ballot_sync([[OUTER]], warpfix_mask_[[INNER]]_taken);
// CHECK-FIXES-NEXT:{{^}}    if (warpfix_mask_[[INNER]]_taken) {
// CHECK-FIXES-NEXT:{{^}}      data[lane] = __shfl_xor_sync(warpfix_mask_[[INNER]], data[lane], 2);
// CHECK-FIXES:{{^}}  if (lane > 2)
// CHECK-FIXES-NEXT:{{^}}    if (out[lane] != 0)
// CHECK-FIXES-NEXT:{{^}}      out[lane] = __shfl_xor(out[lane], 1);
// CHECK-FIXES:{{^}}  } else if (data[lane] > 0) {
// CHECK-FIXES-NEXT:{{^}}    data[lane] = __shfl_xor(data[lane], 1);
// CHECK-FIXES:{{^}}  int v = lane; if (data[lane] > 1) v = __shfl_xor(v, 2);
// CHECK-FIXES:{{^}}  const bool warpfix_mask_[[KEY:[0-9]+]]_taken = pairs[lane].key > 0;
// CHECK-FIXES-NEXT:{{^}}  const unsigned warpfix_mask_[[KEY]] = __ballot_sync(0xffffffff, warpfix_mask_[[KEY]]_taken);
// CHECK-FIXES-NEXT:{{^}}  if (warpfix_mask_[[KEY]]_taken)
// CHECK-FIXES-NEXT:{{^}}    v = __shfl_xor_sync(warpfix_mask_[[KEY]], v, 1);
// CHECK-FIXES:{{^}}  const bool warpfix_mask_[[ARROW:[0-9]+]]_taken = mine->value > 0;
// CHECK-FIXES:{{^}}  const bool warpfix_mask_[[CALL:[0-9]+]]_taken = first(out + lane) > 0;
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
// CHECK-FIXES:{{^}}__device__ int pass_on(int v, unsigned warpfix_mask) { return __shfl_down_sync(warpfix_mask, v, 1); }
// CHECK-FIXES:{{^}}  const bool warpfix_mask_[[HELPER:[0-9]+]]_taken = in[threadIdx.x + 32] > 0;
// CHECK-FIXES-NEXT:{{^}}  const unsigned warpfix_mask_[[HELPER]] = __ballot_sync(0xffffffff, warpfix_mask_[[HELPER]]_taken);
// CHECK-FIXES-NEXT:{{^}}  if (warpfix_mask_[[HELPER]]_taken)
// CHECK-FIXES-NEXT:{{^}}    v = pass_on(v, warpfix_mask_[[HELPER]]);
// CHECK-FIXES:{{^}}  const bool warpfix_mask_[[REF:[0-9]+]]_taken = lane < limit.value;
// CHECK-FIXES-NEXT:{{^}}  const unsigned warpfix_mask_[[REF]] = __ballot_sync(0xffffffff, warpfix_mask_[[REF]]_taken);
// CHECK-FIXES-NEXT:{{^}}  if (warpfix_mask_[[REF]]_taken)
// CHECK-FIXES-NEXT:{{^}}    v += __shfl_xor_sync(warpfix_mask_[[REF]], v, 1);
// CHECK-FIXES:{{^}}  const unsigned [[BOUND:warpfix_mask_[0-9]+]] = __ballot_sync(0xffffffff, lane < bounds[lane]);
// CHECK-FIXES-NEXT:{{^}}  if (lane < bounds[lane])
// CHECK-FIXES-NEXT:{{^}}    v += __shfl_xor_sync([[BOUND]], v, 2);
