// NOLINT comments silence legacy PTX findings like any other: on the line of
// the instruction (which may be inside a multi-line template), the next line,
// a range, a macro's expansion, and code the parse skips. A suppressed
// finding is not fixed.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix %t/k.cu 2>&1 | FileCheck %s --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=FIXED --match-full-lines --input-file=%t/k.cu

#define SHFL_XOR_1(v) asm("shfl.bfly.b32 %0, %0, 1, 0x1f;" : "+r"(v))
// FIXED: {{^}}#define SHFL_XOR_1(v) asm("shfl.bfly.b32 %0, %0, 1, 0x1f;" : "+r"(v))
// FIXED: {{^}}  asm("shfl.down.b32 %0, %0, 1, 0x1f;" : "+r"(v)); // NOLINT(warp-legacy-ptx)

__global__ void k(int *p) {
  int v = p[threadIdx.x];
  asm("shfl.down.b32 %0, %0, 1, 0x1f;" : "+r"(v)); // NOLINT(warp-legacy-ptx)
  asm("{ .reg .pred q;"
      " setp.ne.s32 q, %0, 0;"
      " vote.ballot.b32 %0, q; }" // NOLINT: on the instruction's own line
      : "+r"(v));
  // NOLINTNEXTLINE(warp-legacy-*)
  asm("shfl.up.b32 %0, %0, 1, 0;" : "+r"(v));
  asm("shfl.up.b32 %0, %0, 2, 0;" : "+r"(v)); // NOLINT(warp-legacy-intrinsic)
  // CHECK: :[[@LINE-1]]:8: warning: 'shfl.up.b32' is legacy PTX
  // FIXED: {{^}}  asm("shfl.sync.up.b32 %0, %0, 2, 0, 0xffffffff;" : "+r"(v)); // NOLINT(warp-legacy-intrinsic)
  // NOLINTBEGIN(warp-legacy-ptx)
  asm("shfl.idx.b32 %0, %0, 0, 0x1f;" : "+r"(v));
  // NOLINTEND(warp-legacy-ptx)
  SHFL_XOR_1(v); // NOLINT
#if __CUDA_ARCH__ < 700
  asm("shfl.down.b32 %0, %0, 4, 0x1f;" : "+r"(v)); // NOLINT(warp-legacy-ptx)
#endif
  p[threadIdx.x] = v;
}
// CHECK: 1 finding in 1 file (1 fixable)
