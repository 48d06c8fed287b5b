// What a branch condition does that its text does not show: a constructor,
// a default argument, a temporary's destructor, a constexpr function that
// calls or reads what a constant evaluation never reaches. Evaluated in a
// ballot and again in the branch, it would run twice: no fix. A structured
// binding may name shared memory: computed once. A branch straight in a
// switch's body: a declaration there is jumped over by the next case label,
// so no fix.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --checks=-*,warp-legacy-intrinsic %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --checks=-*,warp-legacy-intrinsic --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=FIXED
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: %if nvcc %{ sed -e 's/__shfl_xor(/__shfl_xor_sync(0xffffffff, /' %t/k.cu > %t/compiles.cu %}
// RUN: %if nvcc %{ %nvcc-check -std=c++17 -arch=sm_90 %t/compiles.cu %}
// FIXED: fixed 3 findings in 1 file; 4 remain

__device__ int tickets[32];
__device__ int peer[32];
struct Ticket {
  int number;
  __device__ explicit Ticket(int s) : number(atomicAdd(&tickets[s], 1)) {}
};
struct Visit {
  int value;
  __device__ ~Visit() { atomicAdd(&tickets[0], 1); }
};
__device__ int tick() { return atomicAdd(&tickets[1], 1); }
__device__ constexpr bool evenAfter(int x, int extra = tick()) { return (x + extra) % 2 == 0; }
__device__ constexpr bool peerSet(int i) { return i < 0 ? false : peer[i] != 0; }
__device__ constexpr int plusOne(int x) { return x + 1; }

__global__ void hidden(int *out) {
  int lane = threadIdx.x & 31;
  int v = lane;
  if (Ticket(lane).number % 2 == 0)
    v += __shfl_xor(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: no automatic fix: the branch condition has side effects
  if (evenAfter(lane))
    v += __shfl_xor(v, 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: no automatic fix: the branch condition has side effects
  if (Visit{lane}.value != 0)
    v += __shfl_xor(v, 4);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: no automatic fix: the branch condition has side effects
  if (plusOne(lane) > 7)
    v += __shfl_xor(v, 8);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_xor' is a legacy
  if (peerSet(lane ^ 1))
    v += __shfl_xor(v, 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_xor' is a legacy
  out[threadIdx.x] = v;
}

struct Slot { int flag; int value; };
__global__ void binding(int *out, int mode) {
  __shared__ Slot slots[32];
  int lane = threadIdx.x & 31;
  slots[lane] = {lane & 1, lane};
  __syncwarp();
  auto &[flag, value] = slots[lane ^ 1];
  int v = value;
  if (flag != 0)
    v += __shfl_xor(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_xor' is a legacy
  switch (mode) {
  case 0:
    v += 1;
    if (lane < 16)
      v += __shfl_xor(v, 2);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_xor' is a legacy
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: no automatic fix: the branch stands directly in a switch's body, where the mask's declaration would be jumped over by a later case label, which does not compile; put the case's statements in braces
    break;
  default:
    break;
  }
  out[threadIdx.x] = v;
}
void launch(int *o) { hidden<<<1, 32>>>(o); binding<<<1, 32>>>(o, 0); }

// CHECK-FIXES:{{^}}  const unsigned [[PURE:warpfix_mask_[0-9]+]] = __ballot_sync(0xffffffff, plusOne(lane) > 7);
// CHECK-FIXES:{{^}}  const bool warpfix_mask_[[PEER:[0-9]+]]_taken = peerSet(lane ^ 1);
// CHECK-FIXES-NEXT:{{^}}  const unsigned warpfix_mask_[[PEER]] = __ballot_sync(0xffffffff, warpfix_mask_[[PEER]]_taken);
// CHECK-FIXES:{{^}}  const bool warpfix_mask_[[FLAG:[0-9]+]]_taken = flag != 0;
// CHECK-FIXES-NEXT:{{^}}  const unsigned warpfix_mask_[[FLAG]] = __ballot_sync(0xffffffff, warpfix_mask_[[FLAG]]_taken);
// CHECK-FIXES-NEXT:{{^}}  if (warpfix_mask_[[FLAG]]_taken)
