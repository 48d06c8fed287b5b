// Values that differ between lanes through constructs the lane analysis
// once missed, each making a branch lane-dependent: an element changed by
// ++/--, a mutable lambda's own copy, a thread's own malloc, a const
// reference or a mutable field written anyway, atomics in the toolkit's
// other spellings, signed division of a negative index, and an exit inside
// a called function. Each gets a ballot of its condition, or no fix; none
// gets the full mask. The last kernels are the traps: the full mask is right
// there. A search loop that breaks on the lane once overflowed the stack.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-legacy-intrinsic,warp-full-mask-divergent %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-legacy-intrinsic,warp-full-mask-divergent --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=AGAIN
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// AGAIN: 1 finding in 1 file (0 fixable)
#include <cstdlib>

// An element of a local array changed by ++ or --: the index chooses it.
__global__ void element_increment(int *out) {
  int hits[32] = {};
  hits[threadIdx.x & 31]++;
  if (hits[0] > 0) out[0] = __ballot(1);
}

struct Counters { int by_lane[32]; };
__global__ void field_element_decrement(int *out) {
  Counters c = {};
  --c.by_lane[threadIdx.x & 31];
  if (c.by_lane[3] < 0) out[1] = __ballot(1);
}

// A mutable lambda stores into its own copy, which its body then reads.
__global__ void mutable_lambda(int *out) {
  int lane = 0;
  auto vote = [lane]() mutable {
    lane = threadIdx.x & 31;
    if (lane < 12) return __ballot(1);
    return 0u;
  };
  out[2] = vote();
}

// Each thread's own allocation.
__global__ void per_thread_allocation(int *out) {
  int *mine = (int *)malloc(sizeof(int));
  *mine = threadIdx.x & 31;
  if (*mine < 12) out[3] = __ballot(1);
  free(mine);
}

// A const reference, written through a const_cast.
__device__ void set_lane(const int &lane) {
  const_cast<int &>(lane) = threadIdx.x & 31;
}
__global__ void const_cast_parameter(int *out) {
  int lane = 0;
  set_lane(lane);
  if (lane < 12) out[4] = __ballot(1);
}

// A mutable field, written by a const method.
struct Cache {
  mutable int lane;
  __device__ void fill() const { lane = threadIdx.x & 31; }
};
__global__ void mutable_field(int *out) {
  Cache c{0};
  c.fill();
  if (c.lane < 12) out[5] = __ballot(1);
}

// The toolkit's other spellings of an atomic: clang's headers implement
// atomicAdd with __iAtomicAdd, which nvcc does not declare.
#ifdef __clang__
#define ATOMIC_ADD __iAtomicAdd
#else
#define ATOMIC_ADD atomicAdd
#endif
__global__ void atomic_spelling(int *counter, int *out) {
  int ticket = ATOMIC_ADD(counter, 1) & 31;
  if (ticket < 12) out[6] = __ballot(1);
}

// Signed division rounds toward zero: lane 0 of warp 0 gets -1, its other
// lanes 0.
__global__ void signed_division(int *out) {
  int warp = ((int)threadIdx.x - 32) / 32;
  if (warp < 0) out[7] = __ballot(1);
}

// An exit inside a called function removes lanes as an inline one does.
__device__ void retire() { asm volatile("exit;"); }
__global__ void exit_in_helper(int *out) {
  if ((threadIdx.x & 31) >= 12)
    retire();
  out[8] = __ballot_sync(0xffffffff, 1);
}

// A search that breaks on the lane: the counter's exit condition reads the
// counter itself (this used to overflow the stack).
__global__ void search_with_break(int *out) {
  int i;
  for (i = 0; i < 32; i++)
    if (i == (int)(threadIdx.x & 31))
      break;
  if (i < 12) out[9] = __ballot(1);
}

// Not divergent: an unsigned difference wraps by a multiple of 32, and a
// non-negative signed index divides into warps.
__global__ void warp_of_index(int *out) {
  int tid = threadIdx.x;
  if ((threadIdx.x - 32) / 32 == 0) out[10] = __ballot(1);
  if (tid / 32 == 1) out[11] = __ballot(1);
}

// A difference may be negative however it is written.
__global__ void signed_division_shapes(int *out) {
  int tid = threadIdx.x;
  tid -= 32;
  if (tid / 32 == 0) out[12] = __ballot(1);
  int t = threadIdx.x;
  if ((t + (-64)) / 32 == 0) out[13] = __ballot(1);
}

// CHECK-MESSAGES: :24:{{[0-9]+}}: note: only some lanes reach this call; the mask is a ballot of the branch conditions
// CHECK-MESSAGES: :31:{{[0-9]+}}: note: only some lanes reach this call; the mask is a ballot of the branch conditions
// CHECK-MESSAGES: :39:{{[0-9]+}}: note: only some lanes reach this call; the mask is a ballot of the branch conditions
// CHECK-MESSAGES: :49:{{[0-9]+}}: note: only some lanes reach this call; the mask is a ballot of the branch conditions
// CHECK-MESSAGES: :60:{{[0-9]+}}: note: only some lanes reach this call; the mask is a ballot of the branch conditions
// CHECK-MESSAGES: :71:{{[0-9]+}}: note: only some lanes reach this call; the mask is a ballot of the branch conditions
// CHECK-MESSAGES: :83:{{[0-9]+}}: note: only some lanes reach this call; the mask is a ballot of the branch conditions
// CHECK-MESSAGES: :90:{{[0-9]+}}: note: only some lanes reach this call; the mask is a ballot of the branch conditions
// CHECK-MESSAGES: :97:5: note: no automatic fix: a call that may exit the thread (inline PTX exit) under a lane-dependent condition may remove lanes before this point
// CHECK-MESSAGES: :108:{{[0-9]+}}: note: only some lanes reach this call; the mask is a ballot of the branch conditions
// CHECK-MESSAGES: :115:{{[0-9]+}}: note: every lane of the warp reaches this call, so the full mask is exact
// CHECK-MESSAGES: :116:{{[0-9]+}}: note: every lane of the warp reaches this call, so the full mask is exact
// CHECK-FIXES:{{^}}  const unsigned warpfix_mask_{{[0-9]+}} = __ballot_sync(0xffffffff, hits[0] > 0);
// CHECK-FIXES-NEXT:{{^}}  if (hits[0] > 0) out[0] = __ballot_sync(warpfix_mask_{{[0-9]+}}, 1);
// CHECK-FIXES:{{^}}  const unsigned warpfix_mask_{{[0-9]+}} = __ballot_sync(0xffffffff, c.by_lane[3] < 0);
// CHECK-FIXES:{{^}}    const unsigned warpfix_mask_{{[0-9]+}} = __ballot_sync(0xffffffff, lane < 12);
// CHECK-FIXES-NEXT:{{^}}    if (lane < 12) return __ballot_sync(warpfix_mask_{{[0-9]+}}, 1);
// CHECK-FIXES:{{^}}  const bool warpfix_mask_{{[0-9]+}}_taken = *mine < 12;
// CHECK-FIXES:{{^}}  const unsigned warpfix_mask_{{[0-9]+}} = __ballot_sync(0xffffffff, lane < 12);
// CHECK-FIXES:{{^}}  const unsigned warpfix_mask_{{[0-9]+}} = __ballot_sync(0xffffffff, c.lane < 12);
// CHECK-FIXES:{{^}}  const unsigned warpfix_mask_{{[0-9]+}} = __ballot_sync(0xffffffff, ticket < 12);
// CHECK-FIXES:{{^}}  const unsigned warpfix_mask_{{[0-9]+}} = __ballot_sync(0xffffffff, warp < 0);
// CHECK-FIXES:{{^}}  out[8] = __ballot_sync(0xffffffff, 1);
// CHECK-FIXES:{{^}}  const unsigned warpfix_mask_{{[0-9]+}} = __ballot_sync(0xffffffff, i < 12);
// CHECK-FIXES:{{^}}  if ((threadIdx.x - 32) / 32 == 0) out[10] = __ballot_sync(0xffffffff, 1);
// CHECK-FIXES-NEXT:{{^}}  if (tid / 32 == 1) out[11] = __ballot_sync(0xffffffff, 1);
// CHECK-FIXES:{{^}}  const unsigned warpfix_mask_{{[0-9]+}} = __ballot_sync(0xffffffff, tid / 32 == 0);
// CHECK-FIXES:{{^}}  const unsigned warpfix_mask_{{[0-9]+}} = __ballot_sync(0xffffffff, (t + (-64)) / 32 == 0);
