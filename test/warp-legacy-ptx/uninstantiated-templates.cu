// PTX in templates that nothing in the unit instantiates (issue 43, item 2):
// the template as written is analysed, as for the legacy intrinsics. A
// __global__ template is entered by every lane; a helper template called
// from it, by a call that names no function until an instantiation
// resolves it, is reached by the lanes that reach that call. nvcc alone
// instantiates them (`#ifdef __NVCC__`), so that ptxas judges the rewrite.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// IDEMPOTENT: 0 findings in 0 files (0 fixable)

template <typename T>
__device__ T shuffle_up(T v, int delta) {
  int x = int(v);
  asm volatile("shfl.up.b32 %0, %0, %1, 0;" : "+r"(x) : "r"(delta));
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'shfl.up.b32' is legacy PTX
  // CHECK-MESSAGES: :[[@LINE-2]]:17: note: every lane of the warp reaches this statement, so the full mask is exact
  return T(x);
}
// CHECK-FIXES:{{^}}  asm volatile("shfl.sync.up.b32 %0, %0, %1, 0, 0xffffffff;" : "+r"(x) : "r"(delta));

template <typename T, int Lanes>
__global__ void scan_and_vote(T *io, unsigned *votes) {
  T v = io[threadIdx.x];
  v = v + shuffle_up(v, 1);
  unsigned ballot = 0;
  if (threadIdx.x % 32 < Lanes) {
    asm volatile("vote.ballot.b32 %0, 1;" : "=r"(ballot));
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'vote.ballot.b32' is legacy PTX
    // CHECK-MESSAGES: :[[@LINE-2]]:19: note: only some lanes reach this statement; the mask is a ballot of the branch conditions, taken before the branch
  }
  io[threadIdx.x] = v;
  votes[threadIdx.x] = ballot;
}
// CHECK-FIXES:{{^}}  const unsigned [[M:warpfix_mask_[0-9]+]] = __ballot_sync(0xffffffff, threadIdx.x % 32 < Lanes);
// CHECK-FIXES-NEXT:{{^}}  if (threadIdx.x % 32 < Lanes) {
// CHECK-FIXES-NEXT:{{^}}    asm volatile("vote.sync.ballot.b32 %0, 1, %1;" : "=r"(ballot) : "r"([[M]]));

#ifdef __NVCC__
template __global__ void scan_and_vote<int, 16>(int *, unsigned *);
template __global__ void scan_and_vote<float, 32>(float *, unsigned *);
#endif
