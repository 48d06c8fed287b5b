// Legacy names found by text in code that this architecture's parse skips
// are suppressed the same way as the findings of the parsed code.
// RUN: %expect-exit 1 %warpfix %s 2>&1 | FileCheck %s --implicit-check-not=warning:

__global__ void k(int *p) {
#if __CUDA_ARCH__ < 700
  p[0] = __shfl(p[0], 0); // NOLINT(warp-legacy-intrinsic)
  p[1] = __shfl(p[1], 0);
  // CHECK: arch-conditional.cu:[[@LINE-1]]:10: warning: '__shfl' is a legacy
  // NOLINTNEXTLINE
  p[2] = __shfl(p[2], 0);
#endif
}
// CHECK: 1 finding in 1 file (0 fixable)
