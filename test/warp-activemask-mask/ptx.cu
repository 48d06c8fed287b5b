// The member mask of a .sync instruction in inline PTX, when it is the set
// of lanes that happen to be active: activemask.b32 inside the PTX (reported,
// no fix: the lanes have to come in from the C++ code), or __activemask()
// passed in as the input operand (fixed like any other __activemask() mask).
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --checks=-*,warp-activemask-mask %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --checks=-*,warp-activemask-mask --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: %expect-exit 1 %warpfix %t/k.cu 2>&1 | FileCheck %s --check-prefix=SECOND
// RUN: %if nvcc %{ %nvcc-check -arch=sm_75 %t/k.cu %}
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// SECOND: 1 finding in 1 file (0 fixable)

#define FULL_MASK 0xffffffff

__global__ void inside_ptx(int *p) {
  int v = p[threadIdx.x], r;
  asm("{ .reg .b32 %%am; activemask.b32 %%am;"
      "  shfl.sync.up.b32 %0, %1, 1, 0, %%am; }" : "=r"(r) : "r"(v));
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: activemask.b32 is the member mask of 'shfl.sync.up.b32': it says which lanes happen to be converged here, not which lanes should take part (Using CUDA Warp-Level Primitives, listing 5) [warp-activemask-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:26: note: the mask is taken here
  // CHECK-MESSAGES: :[[@LINE-4]]:26: note: no automatic fix: the mask is computed inside the PTX; pass the lanes that should take part in as an input operand instead
  p[threadIdx.x] = r;
}

__global__ void as_operand(int *p) {
  int v = p[threadIdx.x], r;
  asm("shfl.sync.down.b32 %0, %1, 1, 0x1f, %2;" : "=r"(r) : "r"(v), "r"(__activemask()));
  // CHECK-MESSAGES: :[[@LINE-1]]:73: warning: __activemask() is the member mask of 'shfl.sync.down.b32'
  // CHECK-MESSAGES: :[[@LINE-2]]:73: note: every lane of the warp reaches this call, so the full mask is exact
  if (threadIdx.x & 1) {
    asm("{ .reg .pred q; setp.ne.s32 q, %1, 0; vote.sync.ballot.b32 %0, q, %2; }"
        : "=r"(r) : "r"(v), "r"(__activemask()));
    // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: __activemask() is the member mask of 'vote.sync.ballot.b32'
    // CHECK-MESSAGES: :[[@LINE-2]]:33: note: only some lanes reach this call
  }
  p[threadIdx.x] = r;
}
// CHECK-FIXES: asm("shfl.sync.down.b32 %0, %1, 1, 0x1f, %2;" : "=r"(r) : "r"(v), "r"(FULL_MASK));
// CHECK-FIXES: const unsigned [[M:warpfix_mask_[0-9]+]] = __ballot_sync(FULL_MASK, threadIdx.x & 1);
// CHECK-FIXES: : "=r"(r) : "r"(v), "r"([[M]]));

// Not member masks, or the opportunistic pattern: nothing to report.
__global__ void traps(unsigned *p) {
  unsigned v = p[threadIdx.x], a, m, s;
  asm("activemask.b32 %0;" : "=r"(a));
  asm("{ .reg .b32 %%am; activemask.b32 %%am; match.any.sync.b32 %0, %1, %%am; }" : "=r"(m) : "r"(v));
  asm("shfl.sync.idx.b32 %0, %1, 0, 0x1f, 0xffffffff;" : "=r"(s) : "r"(__activemask()));
  asm("{ .reg .b32 %%am; activemask.b32 %%am; mov.b32 %%am, %2;"
      "  shfl.sync.up.b32 %0, %1, 1, 0, %%am; }" : "=r"(s) : "r"(v), "r"(FULL_MASK));
  p[threadIdx.x] = a + m + s;
}
