// Legacy PTX that is reported and left as it is, each with the reason and,
// where there is one, the candidate rewrite.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix %t/k.cu 2>&1 | FileCheck %s --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --fix %t/k.cu
// RUN: diff %s %t/k.cu
// RUN: %expect-exit 1 %warpfix --mask-fallback=activemask %t/k.cu 2>&1 | FileCheck %s --check-prefix=FALLBACK

// A guard on the instruction itself: a lane whose predicate is false does
// not execute it, and the predicate is computed in the PTX.
__global__ void guarded(int *p) {
  int v = p[threadIdx.x];
  asm("{ .reg .pred q; setp.lt.s32 q, %0, 10; @q shfl.up.b32 %0, %0, 1, 0; }" : "+r"(v));
  // CHECK: :[[@LINE-1]]:50: warning: 'shfl.up.b32' is legacy PTX
  // CHECK: :[[@LINE-2]]:47: note: no automatic fix: the instruction is guarded by '@q', a predicate computed in the PTX, so which lanes execute it is unknown
  // FALLBACK: :[[@LINE-3]]:47: note: no automatic fix: the instruction is guarded by '@q'
  // CHECK: :[[@LINE-4]]:50: note: candidate rewrite: @q shfl.sync.up.b32 %0, %0, 1, 0, <mask>; where <mask> names the lanes that reach it and whose guard holds
  p[threadIdx.x] = v;
}

// A branch inside the PTX takes lanes around the instruction.
__global__ void branches(int *p) {
  int v = p[threadIdx.x];
  asm("{ .reg .pred q; setp.eq.s32 q, %0, 0; @q bra SKIP%=;"
      "  shfl.down.b32 %0, %0, 1, 0x1f;"
      "SKIP%=: }" : "+r"(v));
  // CHECK: :[[@LINE-2]]:10: warning: 'shfl.down.b32' is legacy PTX
  // CHECK: :[[@LINE-4]]:49: note: no automatic fix: the PTX of this statement has a 'bra', so the lanes that execute the instruction need not be those that reach the statement
  // CHECK: :[[@LINE-4]]:10: note: candidate rewrite: shfl.sync.down.b32 %0, %0, 1, 0x1f, <mask>; where <mask> names the lanes that execute it
  p[threadIdx.x] = v;
}

// "Tutorial de CUDA - Warp"'s divergent loop: lanes leave at different iterations.
__global__ void divergent_loop(int *s) {
  int idx = threadIdx.x;
  int v = s[idx];
  for (int t = 16; idx < t; t >>= 1)
    asm("shfl.down.b32 %0, %0, %1, 0x1f;" : "+r"(v) : "r"(t));
  // CHECK: :[[@LINE-1]]:10: warning: 'shfl.down.b32' is legacy PTX
  // CHECK: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations
  // CHECK: :[[@LINE-3]]:10: note: candidate rewrite: shfl.sync.down.b32 %0, %0, %1, 0x1f, <mask>; where <mask> names the lanes that reach this statement
  s[idx] = v;
}

// Only some lanes, but the mask operand cannot be appended: a basic asm
// (whose '%' signs would change meaning), a statement that a macro writes, a
// reference to the hidden input of a "+r" operand.
#define BALLOT_ASM(r, x) \
  asm("{ .reg .pred p; setp.ne.u32 p, %1, 0; vote.ballot.b32 %0, p; }" : "=r"(r) : "r"(x))
// CHECK: :[[@LINE-1]]:46: warning: 'vote.ballot.b32' is legacy PTX
// CHECK: :[[@LINE+10]]:5: note: in this expansion of a macro
// CHECK: :[[@LINE-3]]:46: note: no automatic fix: the mask must be passed in as a new input operand, but the asm statement is written by a macro, so no operand can be appended to it in one place

__global__ void no_operand(unsigned *p) {
  unsigned r = 0, v = p[threadIdx.x];
  if (threadIdx.x & 1) {
    asm volatile("{ .reg .b32 %t; vote.ballot.b32 %t, 1; }");
    // CHECK: :[[@LINE-1]]:35: warning: 'vote.ballot.b32' is legacy PTX
    // CHECK: :[[@LINE-2]]:35: note: no automatic fix: the mask must be passed in as a new input operand, but a basic asm statement has no operands, and giving it one would change what each '%' in its template means
    // CHECK: :[[@LINE-3]]:35: note: candidate rewrite: vote.sync.ballot.b32 %t, 1, <mask>; where <mask> is an input operand holding a ballot of the branch conditions, taken before the branch
    BALLOT_ASM(r, v);
    asm("shfl.down.b32 %0, %1, 1, 0x1f;" : "+r"(v));
    // CHECK: :[[@LINE-1]]:10: warning: 'shfl.down.b32' is legacy PTX
    // CHECK: :[[@LINE-2]]:10: note: no automatic fix: the mask must be passed in as a new input operand, but the template refers to operand %1, numbered after the inputs, which a new input would renumber
  }
  p[threadIdx.x] = r + v;
}

// Forms warpfix does not know, and operands that do not fit the form.
__global__ void odd_forms(int *p) {
  int v = p[threadIdx.x];
  asm("shfl.up.b64 %0, %0, 1, 0;" : "+r"(v));
  // CHECK: :[[@LINE-1]]:8: warning: 'shfl.up.b64' is legacy PTX without .sync, which ptxas rejects for sm_70 and later [warp-legacy-ptx]
  // CHECK: :[[@LINE-2]]:8: note: no automatic fix: 'shfl.up.b64' is not a form of shfl that warpfix knows how to rewrite
  asm("shfl.up.b32 %0, %0, 1;" : "+r"(v));
  // CHECK: :[[@LINE-1]]:8: warning: 'shfl.up.b32' is legacy PTX
  // CHECK: :[[@LINE-2]]:8: note: no automatic fix: the instruction has 3 operands where 'shfl.up.b32' takes 4
  p[threadIdx.x] = v;
}

// One macro body, expansions that need different masks.
#define BROADCAST_PTX "shfl.idx.b32 %0, %1, 0, 0x1f;"

__global__ void disagree(int *p) {
  int v = p[threadIdx.x], r;
  asm(BROADCAST_PTX : "=r"(r) : "r"(v));
  if (threadIdx.x & 1) {
    asm(BROADCAST_PTX : "=r"(v) : "r"(r));
  }
  p[threadIdx.x] = v;
}
// CHECK: :[[@LINE-10]]:24: warning: 'shfl.idx.b32' is legacy PTX
// CHECK: :[[@LINE-11]]:24: note: no automatic fix: this code is shared by several macro expansions, template instantiations or translation units, and they need different fixes
// CHECK: :[[@LINE-8]]:7: note: in this expansion of a macro
// CHECK: :[[@LINE-7]]:9: note: in this expansion of a macro

// A helper that a caller reaches with only some lanes.
__device__ int helper(int v) {
  asm("shfl.bfly.b32 %0, %0, 1, 0x1f;" : "+r"(v));
  // CHECK: :[[@LINE-1]]:8: warning: 'shfl.bfly.b32' is legacy PTX
  // CHECK: note: no automatic fix: 'helper' is called here by only some lanes of the warp (the call is under a lane-dependent branch)
  return v;
}

__global__ void calls_helper(int *p) {
  int v = p[threadIdx.x];
  if (v > 0)
    v = helper(v);
  p[threadIdx.x] = v;
}

// A template that nothing instantiates: who reaches it is unknown.
template <int Width>
__device__ int segment_broadcast(int v) {
  int r;
  asm("shfl.idx.b32 %0, %1, 0, %2;" : "=r"(r) : "r"(v), "n"(((32 - Width) << 8) | 0x1f));
  // CHECK: :[[@LINE-1]]:8: warning: 'shfl.idx.b32' is legacy PTX
  // CHECK: :[[@LINE-4]]:16: note: no automatic fix (this translation unit abstains): 'segment_broadcast' is template code that nothing calls or instantiates in this translation unit, so who reaches it is unknown
  // CHECK: :[[@LINE-3]]:8: note: candidate rewrite: shfl.sync.idx.b32 %0, %1, 0, %2, <mask>;
  return r;
}

// Only some lanes, and the template comes from a macro: the reference to a
// new operand would be written into the macro for every statement using it.
#define BALLOT_PTX "vote.ballot.b32 %0, 1;"

__global__ void macro_template(unsigned *p) {
  unsigned r = 0;
  if (threadIdx.x & 1) {
    asm(BALLOT_PTX : "=r"(r));
  }
  p[threadIdx.x] = r;
}
// CHECK: :[[@LINE-9]]:21: warning: 'vote.ballot.b32' is legacy PTX
// CHECK: :[[@LINE-5]]:9: note: in this expansion of a macro
// CHECK: :[[@LINE-11]]:21: note: no automatic fix: the mask must be passed in as a new input operand, but the template is written by a macro, where a reference to the new operand would name that operand of every statement that uses it
// CHECK: 12 findings in 1 file (0 fixable)
