// Legacy shfl and vote in inline PTX, in every form the check reads, each
// rewritten to its .sync form: the immediate 0xffffffff where every lane
// reaches the statement, else a hoisted ballot passed in as a new input
// operand after the existing ones. ptxas is the judge of the result.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 0 %warpfix --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_75 %t/k.cu %}
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// IDEMPOTENT: 0 findings in 0 files (0 fixable)

#define FULL_MASK 0xffffffff

// The predicated scan step of old CUB and the CUDA Handbook: a device
// function whose only job is the PTX, reached by every lane.
__device__ int scan_step(int partial, int offset) {
  int result;
  asm("{ .reg .u32 r0; .reg .pred p;"
      "  shfl.up.b32 r0|p, %1, %2, 0;"
      "  @p add.u32 r0, r0, %3;"
      "  mov.u32 %0, r0; }" : "=r"(result) : "r"(partial), "r"(offset), "r"(partial));
  // CHECK-MESSAGES: :[[@LINE-3]]:10: warning: 'shfl.up.b32' is legacy PTX without .sync, which ptxas rejects for sm_70 and later; use 'shfl.sync.up.b32' with an explicit member mask [warp-legacy-ptx]
  // CHECK-MESSAGES: :[[@LINE-4]]:10: note: every lane of the warp reaches this statement, so the full mask is exact
  return result;
}
// CHECK-FIXES:{{^}}      "  shfl.sync.up.b32 r0|p, %1, %2, 0, 0xffffffff;"
// CHECK-FIXES-NEXT:{{^}}      "  @p add.u32 r0, r0, %3;"

// Every shuffle mode, with and without the predicate output, in one
// statement with escapes, // and /* */ comments.
__device__ int modes(int v, int lane) {
  int up, down, bfly, idx;
  asm volatile(
      "{\n\t"
      ".reg .pred q;\n\t"
      "shfl.up.b32 %0|q, %4, 1, 0;   // from the lane below\n\t"
      "shfl.down.b32 %1, %4, 1, 0x1f;\n\t"
      "/* butterfly */ shfl.bfly.b32 %2, %4, 1, 0x1f;\n\t"
      "shfl.idx.b32 %3, %4, %5, 0x1f;\n\t"
      "}"
      : "=r"(up), "=r"(down), "=r"(bfly), "=r"(idx)
      : "r"(v), "r"(lane));
  // CHECK-MESSAGES: :[[@LINE-7]]:8: warning: 'shfl.up.b32' is legacy PTX
  // CHECK-MESSAGES: :[[@LINE-7]]:8: warning: 'shfl.down.b32' is legacy PTX
  // CHECK-MESSAGES: :[[@LINE-7]]:24: warning: 'shfl.bfly.b32' is legacy PTX
  // CHECK-MESSAGES: :[[@LINE-7]]:8: warning: 'shfl.idx.b32' is legacy PTX
  return up + down + bfly + idx;
}
// CHECK-FIXES:{{^}}      "shfl.sync.up.b32 %0|q, %4, 1, 0, 0xffffffff;   // from the lane below\n\t"
// CHECK-FIXES-NEXT:{{^}}      "shfl.sync.down.b32 %1, %4, 1, 0x1f, 0xffffffff;\n\t"
// CHECK-FIXES-NEXT:{{^}}      "/* butterfly */ shfl.sync.bfly.b32 %2, %4, 1, 0x1f, 0xffffffff;\n\t"
// CHECK-FIXES-NEXT:{{^}}      "shfl.sync.idx.b32 %3, %4, %5, 0x1f, 0xffffffff;\n\t"

// Every vote, a negated source among them.
__device__ unsigned votes(int v) {
  unsigned all, any, uni, ballot;
  asm("{ .reg .pred p, a; setp.ne.s32 p, %4, 0;"
      "  vote.all.pred a, p;  selp.u32 %0, 1, 0, a;"
      "  vote.any.pred a, !p; selp.u32 %1, 1, 0, a;"
      "  vote.uni.pred a, p;  selp.u32 %2, 1, 0, a;"
      "  vote.ballot.b32 %3, p; }"
      : "=r"(all), "=r"(any), "=r"(uni), "=r"(ballot) : "r"(v));
  // CHECK-MESSAGES: :[[@LINE-5]]:10: warning: 'vote.all.pred' is legacy PTX without .sync, which ptxas rejects for sm_70 and later; use 'vote.sync.all.pred' with an explicit member mask
  // CHECK-MESSAGES: :[[@LINE-5]]:10: warning: 'vote.any.pred' is legacy PTX
  // CHECK-MESSAGES: :[[@LINE-5]]:10: warning: 'vote.uni.pred' is legacy PTX
  // CHECK-MESSAGES: :[[@LINE-5]]:10: warning: 'vote.ballot.b32' is legacy PTX without .sync, which ptxas rejects for sm_70 and later; use 'vote.sync.ballot.b32' with an explicit member mask
  return all + any + uni + ballot;
}
// CHECK-FIXES:{{^}}      "  vote.sync.all.pred a, p, 0xffffffff;  selp.u32 %0, 1, 0, a;"
// CHECK-FIXES-NEXT:{{^}}      "  vote.sync.any.pred a, !p, 0xffffffff; selp.u32 %1, 1, 0, a;"
// CHECK-FIXES-NEXT:{{^}}      "  vote.sync.uni.pred a, p, 0xffffffff;  selp.u32 %2, 1, 0, a;"
// CHECK-FIXES-NEXT:{{^}}      "  vote.sync.ballot.b32 %3, p, 0xffffffff; }"

// Registers written with %%, and an instruction split over two literals,
// its last operand ending where the first literal does.
__device__ int escapes(int v) {
  int r;
  asm("{ .reg .b32 %%t; shfl.idx.b32 %%t, %1, 0, 0x1f; mov.b32 %0, %%t; }"
      : "=r"(r) : "r"(v));
  // CHECK-MESSAGES: :[[@LINE-2]]:25: warning: 'shfl.idx.b32' is legacy PTX
  asm("shfl.bfly.b32 %0, %0, 4, 0x1f"
      ";" : "+r"(r));
  // CHECK-MESSAGES: :[[@LINE-2]]:8: warning: 'shfl.bfly.b32' is legacy PTX
  return r;
}
// CHECK-FIXES:{{^}}  asm("{ .reg .b32 %%t; shfl.sync.idx.b32 %%t, %1, 0, 0x1f, 0xffffffff; mov.b32 %0, %%t; }"
// CHECK-FIXES:{{^}}  asm("shfl.sync.bfly.b32 %0, %0, 4, 0x1f, 0xffffffff"
// CHECK-FIXES-NEXT:{{^}}      ";" : "+r"(r));

// A literal that a macro writes: one edit to the macro body, since every
// expansion needs the same one; likewise a macro that writes the whole
// statement.
#define SHFL_DOWN_PTX "shfl.down.b32 %0, %1, %2, 0x1f;"
#define WARP_ANY(r, pred) \
  asm volatile("{ .reg .pred p, a; setp.ne.u32 p, %1, 0; vote.any.pred a, p; selp.u32 %0, 1, 0, a; }" : "=r"(r) : "r"(pred))

// CHECK-FIXES:{{^}}#define SHFL_DOWN_PTX "shfl.sync.down.b32 %0, %1, %2, 0x1f, 0xffffffff;"
// CHECK-FIXES-NEXT:{{^}}#define WARP_ANY(r, pred) \
// CHECK-FIXES-NEXT:{{^}}  asm volatile("{ .reg .pred p, a; setp.ne.u32 p, %1, 0; vote.sync.any.pred a, p, 0xffffffff; selp.u32 %0, 1, 0, a; }" : "=r"(r) : "r"(pred))

__device__ int down(int v, int delta) {
  int r;
  asm(SHFL_DOWN_PTX : "=r"(r) : "r"(v), "r"(delta));
  return r;
}

__global__ void converged(int *p) {
  int v = p[threadIdx.x];
  for (int o = 1; o < 32; o *= 2)
    v = scan_step(v, o);
  v += modes(v, threadIdx.x & 31) + votes(v) + escapes(v) + down(v, 2);
  int w;
  asm(SHFL_DOWN_PTX : "=r"(w) : "r"(v), "r"(16));
  int any;
  WARP_ANY(any, v & 4);
  p[threadIdx.x] = v + w + any;
}
// CHECK-MESSAGES: :[[@LINE-25]]:24: warning: 'shfl.down.b32' is legacy PTX
// CHECK-MESSAGES: :[[@LINE-16]]:7: note: in this expansion of a macro
// CHECK-MESSAGES: :[[@LINE-27]]:24: note: every lane of the warp reaches this statement, so the full mask is exact
// CHECK-MESSAGES: :[[@LINE-8]]:7: note: in this expansion of a macro
// CHECK-MESSAGES: :[[@LINE-27]]:58: warning: 'vote.any.pred' is legacy PTX
// CHECK-MESSAGES: :[[@LINE-8]]:3: note: in this expansion of a macro

// Only some lanes: a ballot of the branch condition, hoisted before the
// branch (Using CUDA Warp-Level Primitives, listing 3), enters as the operand after the last one.
__global__ void divergent_ballot(const int *in, unsigned *out, int n) {
  unsigned r = 0;
  int lane = threadIdx.x & 31;
  if (lane < n) {
    asm("{ .reg .pred p; setp.ne.u32 p, %1, 0; vote.ballot.b32 %0, p; }" : "=r"(r) : "r"(in[lane]));
    // CHECK-MESSAGES: :[[@LINE-1]]:48: warning: 'vote.ballot.b32' is legacy PTX
    // CHECK-MESSAGES: :[[@LINE-2]]:48: note: only some lanes reach this statement; the mask is a ballot of the branch conditions, taken before the branch (Using CUDA Warp-Level Primitives, listing 3)
    // CHECK-MESSAGES: :[[@LINE-3]]:48: note: the mask enters the PTX as the new input operand %2, after the existing operands, whose numbers do not change
  }
  out[threadIdx.x] = r;
}
// CHECK-FIXES:{{^}}  const unsigned [[M1:warpfix_mask_[0-9]+]] = __ballot_sync(FULL_MASK, lane < n);
// CHECK-FIXES-NEXT:{{^}}  if (lane < n) {
// CHECK-FIXES-NEXT:{{^}}    asm("{ .reg .pred p; setp.ne.u32 p, %1, 0; vote.sync.ballot.b32 %0, p, %2; }" : "=r"(r) : "r"(in[lane]), "r"([[M1]]));

// Statements without inputs: the input section is opened where it is missing
// or empty, between colons written together or apart.
__global__ void sections(unsigned *out) {
  unsigned a = 0, b = 0, c = 0;
  if (threadIdx.x % 3 == 0) {
    asm volatile("{ .reg .b32 t; vote.ballot.b32 t, 1; }" ::: "memory");
    asm volatile("{ .reg .b32 t; vote.ballot.b32 t, 1; }" : : : "memory");
    asm volatile("vote.ballot.b32 %0, 1;" : "=r"(a));
    asm volatile("vote.ballot.b32 %0, 1;" : "=r"(b) : );
    asm volatile("vote.ballot.b32 %0, 1;" : "=r"(c) :: "memory");
    // CHECK-MESSAGES: :[[@LINE-5]]:34: warning: 'vote.ballot.b32' is legacy PTX
    // CHECK-MESSAGES: :[[@LINE-5]]:34: warning: 'vote.ballot.b32' is legacy PTX
    // CHECK-MESSAGES: :[[@LINE-5]]:19: warning: 'vote.ballot.b32' is legacy PTX
    // CHECK-MESSAGES: :[[@LINE-5]]:19: warning: 'vote.ballot.b32' is legacy PTX
    // CHECK-MESSAGES: :[[@LINE-5]]:19: warning: 'vote.ballot.b32' is legacy PTX
  }
  out[threadIdx.x] = a + b + c;
}
// CHECK-FIXES:{{^}}  const unsigned [[M2:warpfix_mask_[0-9]+]] = __ballot_sync(FULL_MASK, threadIdx.x % 3 == 0);
// CHECK-FIXES-NEXT:{{^}}  if (threadIdx.x % 3 == 0) {
// CHECK-FIXES-NEXT:{{^}}    asm volatile("{ .reg .b32 t; vote.sync.ballot.b32 t, 1, %0; }" :: "r"([[M2]]) : "memory");
// CHECK-FIXES-NEXT:{{^}}    asm volatile("{ .reg .b32 t; vote.sync.ballot.b32 t, 1, %0; }" : : "r"([[M2]]) : "memory");
// CHECK-FIXES-NEXT:{{^}}    asm volatile("vote.sync.ballot.b32 %0, 1, %1;" : "=r"(a) : "r"([[M2]]));
// CHECK-FIXES-NEXT:{{^}}    asm volatile("vote.sync.ballot.b32 %0, 1, %1;" : "=r"(b) : "r"([[M2]]) );
// CHECK-FIXES-NEXT:{{^}}    asm volatile("vote.sync.ballot.b32 %0, 1, %1;" : "=r"(c) : "r"([[M2]]) : "memory");
