// The suppression comments, with clang-tidy's conventions: one on the
// finding's line, or a next-line one on the line before, each bare (every
// check) or with a list of check names and globs. Only comments count.
// (Prose in this file avoids the directive words, which would count.)
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=FIXED
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 1 %warpfix --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=SECOND
// RUN: diff %t/once.cu %t/k.cu
// FIXED: 13 findings in 1 file (12 fixable)
// FIXED: fixed 12 findings in 1 file; 1 remain
// SECOND: 1 finding in 1 file (0 fixable)

#include <cstdio>

__global__ void forms(int *p) {
  int v = p[threadIdx.x];
  v += __shfl_down(v, 1); // NOLINT
  v += __shfl_down(v, 2); // NOLINT(warp-legacy-intrinsic)
  v += __shfl_down(v, 3); // NOLINT(warp-*)
  v += __shfl_down(v, 4); // NOLINT( warp-missing-syncwarp ,  warp-legacy-intrinsic )
  v += __shfl_down(v, 5); // NOLINT(warp-missing-*,warp-legacy-intrins?c)
  v += /* NOLINT */ __shfl_down(v, 6);
  v += __shfl_down(v, 7); /* NOLINT(warp-legacy-intrinsic) */
  // clang-tidy reads a list that does not close on its line, and a space
  // before the parenthesis, as a bare directive.
  v += __shfl_down(v, 8); // NOLINT(warp-activemask-mask
  v += __shfl_down(v, 9); // NOLINT (warp-activemask-mask)
  // CHECK-FIXES:{{^}}  v += __shfl_down(v, 1); // NOLINT
  // CHECK-FIXES:{{^}}  v += __shfl_down(v, 9); // NOLINT (warp-activemask-mask)

  // NOLINTNEXTLINE
  v += __shfl_up(v, 1);
  // NOLINTNEXTLINE(warp-legacy-intrinsic)
  v += __shfl_up(v, 2);
  /* NOLINTNEXTLINE(warp-legacy-*) */
  v += __shfl_up(v, 3);
  // CHECK-FIXES:{{^}}  v += __shfl_up(v, 1);
  // CHECK-FIXES:{{^}}  v += __shfl_up(v, 3);

  // Only the next line.
  // NOLINTNEXTLINE
  v += __shfl_xor(v, 1);
  v += __shfl_xor(v, 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: '__shfl_xor' is a legacy
  // CHECK-FIXES:{{^}}  v += __shfl_xor(v, 1);
  // CHECK-FIXES-NEXT:{{^}}  v += __shfl_xor_sync(0xffffffff, v, 2);
  // A next-line directive does not cover its own line, nor a same-line one
  // the next.
  v += __shfl_xor(v, 3); // NOLINTNEXTLINE
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: '__shfl_xor' is a legacy
  // NOLINT
  v += __shfl_xor(v, 4);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: '__shfl_xor' is a legacy

  // Lists that name other checks, negative names, an empty list and
  // misspelt kinds suppress nothing.
  v += __shfl(v, 1); // NOLINT(warp-missing-syncwarp)
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: '__shfl' is a legacy
  v += __shfl(v, 2); // NOLINT(warp-missing-*, warp-activemask-mask)
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: '__shfl' is a legacy
  v += __shfl(v, 3); // NOLINT(-warp-legacy-intrinsic)
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: '__shfl' is a legacy
  v += __shfl(v, 4); // NOLINT()
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: '__shfl' is a legacy
  v += __shfl(v, 5); // NOLINTFOO nolint NoLint
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: '__shfl' is a legacy
  // NOLINTNEXTLINE(warp-full-mask-divergent)
  v += __shfl(v, 6);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: '__shfl' is a legacy
  // CHECK-FIXES:{{^}}  v += __shfl_sync(0xffffffff, v, 6);

  // In a string literal, the directive is text, not a comment.
  printf("// NOLINT"); v += __ballot(v > 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: '__ballot' is a legacy
  printf("/* NOLINTNEXTLINE */\n");
  v += __ballot(v > 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: '__ballot' is a legacy
  const char *s = R"(// NOLINT)"; v += __ballot(v > 2) + s[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: '__ballot' is a legacy
  // CHECK-FIXES:{{^}}  printf("// NOLINT"); v += __ballot_sync(0xffffffff, v > 0);
  p[threadIdx.x] = v;
}

// A finding that cannot be fixed is suppressed the same way; one that is not
// stays, so the second run still reports it.
__global__ void unfixable(int *p) {
  for (int t = 16; threadIdx.x < t; t >>= 1)
    p[0] += __shfl(p[0], 0); // NOLINT
  for (int t = 16; threadIdx.x < t; t >>= 1)
    p[1] += __shfl(p[1], 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: '__shfl' is a legacy
}
// CHECK-MESSAGES: 13 findings in 1 file (12 fixable)
