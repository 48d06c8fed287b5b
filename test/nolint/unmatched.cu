// A begin comment with no end after it, or an end with no open begin, is a
// finding of the always-on pseudo-check warpfix-nolint, at the comment. An
// unmatched begin suppresses nothing.
// (Prose in this file avoids the directive words, which would count.)
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=FIXED
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: %expect-exit 1 %warpfix %t/k.cu 2>&1 | FileCheck %s --check-prefix=SECOND
// FIXED: 7 findings in 1 file (3 fixable)
// FIXED: fixed 3 findings in 1 file; 4 remain
// SECOND: 4 findings in 1 file (0 fixable)

__global__ void k(int *p) {
  int v = p[threadIdx.x];
  // NOLINTEND
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:6: warning: unmatched 'NO{{LINT}}END' comment without a previous 'NO{{LINT}}BEGIN' comment [warpfix-nolint]
  v += __shfl_down(v, 1);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:8: warning: '__shfl_down' is a legacy

  // Ranges do not overlap: an end that does not repeat the list of the
  // innermost open range is unmatched, and so is the range it meant to close.
  // NOLINTBEGIN(warp-legacy-intrinsic)
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:6: warning: unmatched 'NO{{LINT}}BEGIN' comment without a subsequent 'NO{{LINT}}END' comment [warpfix-nolint]
  // NOLINTBEGIN(warp-activemask-mask)
  v += __shfl_down(v, 2) + __shfl_sync(__activemask(), v, 2);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:8: warning: '__shfl_down' is a legacy
  // NOLINTEND(warp-legacy-intrinsic)
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:6: warning: unmatched 'NO{{LINT}}END' comment without a previous 'NO{{LINT}}BEGIN' comment [warpfix-nolint]
  // NOLINTEND(warp-activemask-mask)

  // A bare begin that nothing closes.
  // NOLINTBEGIN
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:6: warning: unmatched 'NO{{LINT}}BEGIN' comment without a subsequent 'NO{{LINT}}END' comment [warpfix-nolint]
  v += __shfl_down(v, 3);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:8: warning: '__shfl_down' is a legacy
  p[threadIdx.x] = v;
}
// CHECK-FIXES:{{^}}  v += __shfl_down_sync(0xffffffff, v, 2) + __shfl_sync(__activemask(), v, 2);
// CHECK-FIXES:{{^}}  v += __shfl_down_sync(0xffffffff, v, 3);
// CHECK-MESSAGES: 7 findings in 1 file (3 fixable)
