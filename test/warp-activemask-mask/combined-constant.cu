// __activemask() and-ed with a constant, as the member mask (issue 15, item 4).
// Where every lane arrives the mask is the constant; under a branch it is the
// ballot of the branch, and-ed with the constant. The same through a local:
// `m = __activemask() & C`, or `m = __activemask()` narrowed where it is used
// (issue 43, item 4), fixed where every use of the local is a member mask.
// The full-mask check reads a full mask narrowed by a constant as the
// constant, not as a full mask.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=AGAIN
// AGAIN: 2 findings in 1 file (0 fixable)
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}

#define LOW_HALF 0x0000ffffu

__global__ void halves(int *io) {
  int v = io[threadIdx.x];
  if (threadIdx.x % 32 < 16) {
    v += __shfl_xor_sync(__activemask() & LOW_HALF, v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: __activemask() is the member mask of '__shfl_xor_sync'
    // CHECK-MESSAGES: :[[@LINE-2]]:26: note: only some lanes reach this call; the mask is a ballot of the branch conditions
  }
  io[threadIdx.x] = v;
}
// CHECK-FIXES:{{^}}  const unsigned [[M:warpfix_mask_[0-9]+]] = __ballot_sync(0xffffffff, threadIdx.x % 32 < 16);
// CHECK-FIXES-NEXT:{{^}}  if (threadIdx.x % 32 < 16) {
// CHECK-FIXES-NEXT:{{^}}    v += __shfl_xor_sync([[M]] & LOW_HALF, v, 1);

__global__ void everyone(unsigned *out) {
  unsigned votes = __ballot_sync(0xff & __activemask(), threadIdx.x & 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: __activemask() is the member mask of '__ballot_sync'
  // CHECK-MESSAGES: :[[@LINE-2]]:41: note: every lane of the warp reaches this call, so the full mask is exact
  // CHECK-MESSAGES: :[[@LINE-3]]:41: note: and-ed with the constant, the full mask is the constant
  out[threadIdx.x] = votes;
}
// CHECK-FIXES:{{^}}  unsigned votes = __ballot_sync(0xff, threadIdx.x & 1);

__global__ void stored(int *io) {
  int v = io[threadIdx.x];
  unsigned low = __activemask() & 0xffff;
  v += __shfl_xor_sync(low, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: __activemask() is the member mask of '__shfl_xor_sync'
  // CHECK-MESSAGES: :[[@LINE-3]]:18: note: 'low' is used only as the member mask of primitives that every lane reaches, so '0xffff' is written where it is taken
  unsigned all = __activemask();
  v += __shfl_xor_sync(all & 0xff, v, 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: __activemask() is the member mask of '__shfl_xor_sync'
  // CHECK-MESSAGES: :[[@LINE-3]]:18: note: 'all' is used only as the member mask of primitives that every lane reaches, so the full mask is written where it is taken
  io[threadIdx.x] = v;
}
// CHECK-FIXES:{{^}}  unsigned low = 0xffff;
// CHECK-FIXES:{{^}}  unsigned all = 0xffffffff;
// CHECK-FIXES-NEXT:{{^}}  v += __shfl_xor_sync(all & 0xff, v, 2);

// Kept in a local that is also counted, or used under another branch than
// the one it is taken under: reported, not fixed.
__global__ void stored_no_fix(int *io) {
  int v = io[threadIdx.x];
  unsigned low = __activemask() & 0xff;
  v += __shfl_xor_sync(low, v, 1) + __popc(low);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: __activemask() is the member mask of '__shfl_xor_sync'
  // CHECK-MESSAGES: :[[@LINE-2]]:44: note: no automatic fix: 'low' is also used here, not as a member mask, and '0xff' would change what this use computes in a partial warp
  unsigned half = __activemask() & 0xffff;
  if (threadIdx.x % 32 < 16)
    v += __shfl_xor_sync(half, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: __activemask() is the member mask of '__shfl_xor_sync'
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: no automatic fix: the mask is used under other branches than the ones where it is taken
  io[threadIdx.x] = v;
}
// CHECK-FIXES:{{^}}  unsigned low = __activemask() & 0xff;
// CHECK-FIXES:{{^}}  unsigned half = __activemask() & 0xffff;

// Traps. A full mask narrowed by a constant, under a branch, is that
// constant, whether held in a variable or not: no full-mask finding.
__global__ void traps(int *io) {
  int v = io[threadIdx.x];
  unsigned lanes = 0xffffffffu;
  if (threadIdx.x % 32 < 8)
    v += __shfl_down_sync(lanes & 0xffu, v, 1);
  io[threadIdx.x] = v;
}
