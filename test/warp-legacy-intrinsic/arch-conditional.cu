// Code only active for some architectures is never skipped in silence: the
// branch this parse takes is analysed, one it skips is reported as not
// analysed. HIP branches and other platform conditions are left alone.
// RUN: %expect-exit 1 %warpfix %s 2>&1 | FileCheck %s --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --cuda-gpu-arch=sm_60 %s 2>&1 | FileCheck %s --check-prefix=SM60 --implicit-check-not=warning:

__global__ void reduce(int *p) {
  int v = p[threadIdx.x];
#if __CUDA_ARCH__ >= 300
  v += __shfl_xor(v, 1);
  // CHECK: :[[@LINE-1]]:8: warning: '__shfl_xor' is a legacy
  // CHECK: :[[@LINE-2]]:8: note: every lane of the warp reaches this call
  // SM60: :[[@LINE-3]]:8: warning: '__shfl_xor' is a legacy
#endif
#if __CUDA_ARCH__ < 700
  v += __shfl_down(v, 2);
  // CHECK: :[[@LINE-1]]:8: warning: '__shfl_down' is a legacy
  // CHECK: :[[@LINE-3]]:1: note: not analysed: this parse's architecture skips this branch of an #if on the architecture ('__CUDA_ARCH__ < 700'); run warpfix again with --cuda-gpu-arch set to an architecture that compiles it
  // SM60: :[[@LINE-3]]:8: warning: '__shfl_down' is a legacy
  // SM60: :[[@LINE-4]]:8: note: every lane of the warp reaches this call
#else
  v += __shfl_down_sync(0xffffffff, v, 2);
#endif
#ifdef __HIP_PLATFORM_AMD__
  v += __shfl_up(v, 1);
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 500
  // Read without a parse, a project's own wrappers (a member, a qualified
  // name) and the unprefixed aliases, everyday names, are not taken for the
  // toolkit's intrinsics.
  v += utils::any(v > 0) + warp.all(v) + (&warp)->ballot(v) + ballot(v);
#endif
  p[threadIdx.x] = v;
}
// Words in comments, like __shfl_up(v, 1), are not code.
