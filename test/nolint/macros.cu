// A finding in a macro body is suppressed by a comment on the body's line,
// or where the macro is used, at any level of nesting. The body is still
// fixed for the expansions that are not suppressed, but only if the
// suppressed ones would need the same edit.
// (Prose in this file avoids the directive words, which would count.)
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning: --implicit-check-not=note:
// RUN: %expect-exit 1 %warpfix --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 1 %warpfix --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=SECOND
// RUN: diff %t/once.cu %t/k.cu
// SECOND: 1 finding in 1 file (0 fixable)

#define STEP(v, o) ((v) + __shfl_down((v), (o)))
#define OUTER(v) STEP(v, 1)
#define QUIET(v) __shfl_xor((v), 1) // NOLINT(warp-legacy-intrinsic)
#define BCAST(v) __shfl((v), 0)

__global__ void agree(int *p) {
  int v = p[threadIdx.x];
  v = STEP(v, 16); // NOLINT
  v = STEP(v, 8);
  // NOLINTNEXTLINE(warp-legacy-intrinsic)
  v = OUTER(v);
  // NOLINTBEGIN
  v = STEP(v, 4);
  // NOLINTEND
  v = QUIET(v) + QUIET(v + 1);
  p[threadIdx.x] = v;
}
// Only the expansion on line 23 is left; every suppressed one needs the same
// full mask, so the body is fixed.
// CHECK-MESSAGES: k.cu:15:27: warning: '__shfl_down' is a legacy
// CHECK-MESSAGES: k.cu:23:7: note: in this expansion of a macro
// CHECK-MESSAGES: k.cu:15:27: note: every lane of the warp reaches this call
// CHECK-FIXES:{{^}}#define STEP(v, o) ((v) + __shfl_down_sync(0xffffffff, (v), (o)))
// CHECK-FIXES:{{^}}#define QUIET(v) __shfl_xor((v), 1) // NO{{LINT}}(warp-legacy-intrinsic)

// The suppressed expansion is in a branch and would need another mask: the
// body is left alone.
__global__ void disagree(int *p) {
  int v = BCAST(p[threadIdx.x]);
  if (threadIdx.x & 1)
    v += BCAST(v); // NOLINT
  p[threadIdx.x] = v;
}
// CHECK-MESSAGES: k.cu:18:18: warning: '__shfl' is a legacy
// CHECK-MESSAGES: k.cu:43:11: note: in this expansion of a macro
// CHECK-MESSAGES: k.cu:18:18: note: every lane of the warp reaches this call
// CHECK-MESSAGES: k.cu:18:18: note: no automatic fix: a NO{{LINT}} comment suppresses this finding at another expansion of the macro, which needs a different fix
// CHECK-FIXES:{{^}}#define BCAST(v) __shfl((v), 0)
// CHECK-MESSAGES: 2 findings in 1 file (1 fixable)
