// The architecture reaches code in ways a reading of the text cannot follow:
// a named threshold, arithmetic, token pasting, a macro that the toolkit's
// headers define only for some architectures. The preprocessor of each parse
// records which macros depend on the architecture, and a file whose code
// uses one in any way but a comparison of __CUDA_ARCH__ with a number is
// parsed for every architecture of the build. (Each was fixed with a full
// mask, wrong on sm_90, before.)
// REQUIRES: nvcc
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --cuda-gpu-arch=sm_75,sm_90 %t/k.cu 2>&1 | FileCheck %s --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --fix --cuda-gpu-arch=sm_75,sm_90 %t/k.cu
// RUN: FileCheck %s --check-prefix=FIXED --input-file=%t/k.cu
#include <cooperative_groups.h>

#define SM_HOPPER 900
#define CAT(a, b) a##b

__global__ void named_threshold(int *p) {
  int v = p[threadIdx.x];
#if __CUDA_ARCH__ >= SM_HOPPER
  if (threadIdx.x >= 16)
    return;
#endif
  v += __shfl_xor(v, 1);
  // CHECK: k.cu:[[@LINE-1]]:8: warning: '__shfl_xor' is a legacy
  // CHECK: k.cu:[[@LINE-2]]:8: note: no automatic fix: the parses of this file for sm_75, sm_90 need different fixes here
  p[threadIdx.x] = v;
}

__global__ void arithmetic(int *p) {
  int v = p[threadIdx.x];
#if __CUDA_ARCH__ / 100 >= 9
  if (threadIdx.x >= 16)
    return;
#endif
  v += __shfl_xor(v, 2);
  // CHECK: k.cu:[[@LINE-1]]:8: warning: '__shfl_xor' is a legacy
  // CHECK: k.cu:[[@LINE-2]]:8: note: no automatic fix: the parses of this file for sm_75, sm_90 need different fixes here
  p[threadIdx.x] = v;
}

__global__ void pasted(int *p) {
  int v = p[threadIdx.x];
#if CAT(__CUDA_AR, CH__) >= 900
  if (threadIdx.x >= 16)
    return;
#endif
  v += __shfl_xor(v, 4);
  // CHECK: k.cu:[[@LINE-1]]:8: warning: '__shfl_xor' is a legacy
  // CHECK: k.cu:[[@LINE-2]]:8: note: no automatic fix: the parses of this file for sm_75, sm_90 need different fixes here
  p[threadIdx.x] = v;
}

// Cooperative groups define it only from sm_90 on; sm_75's parse never sees
// it defined.
__global__ void toolkit_macro(int *p) {
  int v = p[threadIdx.x];
#if defined(_CG_HAS_INSTR_ELECT)
  if (threadIdx.x >= 16)
    return;
#endif
  v += __shfl_xor(v, 8);
  // CHECK: k.cu:[[@LINE-1]]:8: warning: '__shfl_xor' is a legacy
  // CHECK: k.cu:[[@LINE-2]]:8: note: no automatic fix: the parses of this file for sm_75, sm_90 need different fixes here
  p[threadIdx.x] = v;
}

// nvcc names the build's architectures in every compilation, and so does
// each parse: the branch is taken for both.
__global__ void architecture_list(int *p) {
  int v = p[threadIdx.x];
#if defined(__CUDA_ARCH_LIST__)
  if (threadIdx.x >= 16)
    return;
#endif
  v += __shfl_xor(v, 16);
  // CHECK: k.cu:[[@LINE-1]]:8: warning: '__shfl_xor' is a legacy
  // CHECK: k.cu:[[@LINE-2]]:8: note: only some lanes reach this call
  // FIXED: v += __shfl_xor_sync(warpfix_mask_{{[0-9]+}}, v, 16);
  p[threadIdx.x] = v;
}

// Code that no architecture changes is fixed as before.
__global__ void plain(int *p) {
  p[threadIdx.x] = __shfl_down(p[threadIdx.x], 1);
  // CHECK: k.cu:[[@LINE-1]]:20: warning: '__shfl_down' is a legacy
  // CHECK: k.cu:[[@LINE-2]]:20: note: every lane of the warp reaches this call
  // FIXED: p[threadIdx.x] = __shfl_down_sync(0xffffffff, p[threadIdx.x], 1);
}
// CHECK: 1 unit was parsed again for other architectures of the build (1 parses)
// CHECK: 6 findings in 1 file (2 fixable)
