// An else-if chain: each arm's ballot is taken before the chain's first if,
// from the tests before it, and named after its own test. An arm past 12
// tests gets no fix rather than a ballot that repeats them all.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// IDEMPOTENT: 2 findings in 1 file (0 fixable)

__global__ void chain(int *out, int v) {
  int lane = threadIdx.x & 31;
  if (lane == 0) {
    v += __shfl_xor(v, 1);
  } else if (lane == 1) {
    v += __shfl_xor(v, 1);
  } else if (lane == 2) {
    v += __shfl_xor(v, 1);
  } else if (lane == 3) {
    v += __shfl_xor(v, 1);
  } else if (lane == 4) {
    v += __shfl_xor(v, 1);
  } else if (lane == 5) {
    v += __shfl_xor(v, 1);
  } else if (lane == 6) {
    v += __shfl_xor(v, 1);
  } else if (lane == 7) {
    v += __shfl_xor(v, 1);
  } else if (lane == 8) {
    v += __shfl_xor(v, 1);
  } else if (lane == 9) {
    v += __shfl_xor(v, 1);
  } else if (lane == 10) {
    v += __shfl_xor(v, 1);
  } else if (lane == 11) {
    v += __shfl_xor(v, 1);
  } else if (lane == 12) {
    v += __shfl_xor(v, 1);
  } else if (lane == 13) {
    v += __shfl_xor(v, 1);
  }
  out[threadIdx.x] = v;
}

// Two arms and an else: three ballots, three names.
__global__ void with_else(int *out, int v) {
  int lane = threadIdx.x & 31;
  if (lane < 8) {
    v += __shfl_xor(v, 1);
  } else if (lane < 20) {
    v += __shfl_xor(v, 2);
  } else {
    v += __shfl_xor(v, 4);
  }
  out[threadIdx.x] = v;
}

// CHECK-MESSAGES: :39:10: note: no automatic fix: the lanes that get here are those for which more than 12 conditions in a row hold (an arm of a long else-if chain repeats every earlier test)
// CHECK-MESSAGES: 17 findings in 1 file (15 fixable)
// CHECK-FIXES:  const unsigned warpfix_mask_15 = __ballot_sync(0xffffffff, lane == 0);
// CHECK-FIXES-NEXT:  const unsigned warpfix_mask_15_17 = __ballot_sync(0xffffffff, !(lane == 0) && (lane == 1));
// CHECK-FIXES-NEXT:  const unsigned warpfix_mask_15_19 = __ballot_sync(0xffffffff, !(lane == 0) && !(lane == 1) && (lane == 2));
// CHECK-FIXES:  const unsigned warpfix_mask_15_37 = __ballot_sync(0xffffffff, !(lane == 0) && !(lane == 1) && !(lane == 2) && !(lane == 3) && !(lane == 4) && !(lane == 5) && !(lane == 6) && !(lane == 7) && !(lane == 8) && !(lane == 9) && !(lane == 10) && (lane == 11));
// CHECK-FIXES-NEXT:  if (lane == 0) {
// CHECK-FIXES-NEXT:    v += __shfl_xor_sync(warpfix_mask_15, v, 1);
// CHECK-FIXES-NEXT:  } else if (lane == 1) {
// CHECK-FIXES-NEXT:    v += __shfl_xor_sync(warpfix_mask_15_17, v, 1);
// CHECK-FIXES:  } else if (lane == 11) {
// CHECK-FIXES-NEXT:    v += __shfl_xor_sync(warpfix_mask_15_37, v, 1);
// CHECK-FIXES-NEXT:  } else if (lane == 12) {
// CHECK-FIXES-NEXT:    v += __shfl_xor(v, 1);
// CHECK-FIXES-NEXT:  } else if (lane == 13) {
// CHECK-FIXES-NEXT:    v += __shfl_xor(v, 1);
// CHECK-FIXES:  const unsigned warpfix_mask_50 = __ballot_sync(0xffffffff, lane < 8);
// CHECK-FIXES-NEXT:  const unsigned warpfix_mask_50_52 = __ballot_sync(0xffffffff, !(lane < 8) && (lane < 20));
// CHECK-FIXES-NEXT:  const unsigned warpfix_mask_50_52_else = __ballot_sync(0xffffffff, !(lane < 8) && !(lane < 20));
// CHECK-FIXES:    v += __shfl_xor_sync(warpfix_mask_50, v, 1);
// CHECK-FIXES:    v += __shfl_xor_sync(warpfix_mask_50_52, v, 2);
// CHECK-FIXES:    v += __shfl_xor_sync(warpfix_mask_50_52_else, v, 4);
