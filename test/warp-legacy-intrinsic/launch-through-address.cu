// A kernel whose address is used other than by a launch that warpfix
// evaluates (a table of kernels, a function pointer, cudaLaunchKernelEx) may
// be launched with any block size: the whole-warp assumption is off for it,
// and `gid < 64` splits a warp of a 48-thread block. Attribute and occupancy
// queries launch nothing, and cudaLaunchKernel's block is evaluated.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/k.cu
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// IDEMPOTENT: 0 findings in 0 files (0 fixable)
#define N 64

__global__ void through_table(int *p) {
  int gid = threadIdx.x;
  int v = p[gid];
  if (gid < N) v = __shfl_xor(v, 1);
  p[gid] = v;
}

__global__ void through_launch_ex(int *p) {
  int gid = threadIdx.x;
  int v = p[gid];
  if (gid < N) v = __shfl_xor(v, 1);
  p[gid] = v;
}

__global__ void through_pointer(int *p) {
  int gid = threadIdx.x;
  int v = p[gid];
  if (gid < N) v = __shfl_xor(v, 1);
  p[gid] = v;
}

// Traps: an attribute query launches nothing, and cudaLaunchKernel's block
// is evaluated like a launch's.
__global__ void with_attribute(int *p) {
  int gid = threadIdx.x;
  int v = p[gid];
  if (gid < N) v = __shfl_xor(v, 1);
  p[gid] = v;
}

__global__ void through_launch_api(int *p) {
  int gid = threadIdx.x;
  int v = p[gid];
  if (gid < N) v = __shfl_xor(v, 1);
  p[gid] = v;
}

typedef void (*Kernel)(int *);
Kernel table[] = {through_table};

void host(int *p) {
  through_table<<<1, 64>>>(p);
  through_table<<<1, 96>>>(p);
  table[0]<<<1, 48>>>(p);

  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(1);
  config.blockDim = dim3(48);
  cudaLaunchKernelEx(&config, through_launch_ex, p);

  Kernel k = &through_pointer;
  k<<<1, 48>>>(p);

  cudaFuncSetAttribute(with_attribute, cudaFuncAttributeMaxDynamicSharedMemorySize, 0);
  with_attribute<<<1, 64>>>(p);

  void *args[] = {&p};
  cudaLaunchKernel((const void *)through_launch_api, dim3(1), dim3(64), args, 0, 0);
}

// CHECK-MESSAGES: :[[#THROUGH_TABLE:]]:20: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: :[[#THROUGH_TABLE]]:20: note: only some lanes reach this call
// CHECK-MESSAGES: :[[#TABLE:]]:19: note: the whole-warp assumption is off for kernel 'through_table': its address is taken here, and a launch through it (a pointer, a table, cudaLaunchKernelEx, a graph node) may use any block size
// CHECK-MESSAGES: :[[#LAUNCH_EX:]]:20: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: :[[#LAUNCH_EX]]:20: note: only some lanes reach this call
// CHECK-MESSAGES: :[[#]]:31: note: the whole-warp assumption is off for kernel 'through_launch_ex': its address is taken here
// CHECK-MESSAGES: :[[#POINTER:]]:20: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: :[[#POINTER]]:20: note: only some lanes reach this call
// CHECK-MESSAGES: :[[#]]:15: note: the whole-warp assumption is off for kernel 'through_pointer': its address is taken here
// CHECK-MESSAGES: :[[#ATTRIBUTE:]]:20: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: :[[#ATTRIBUTE]]:20: note: every lane of the warp reaches this call, so the full mask is exact
// CHECK-MESSAGES: :[[#API:]]:20: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: :[[#API]]:20: note: every lane of the warp reaches this call, so the full mask is exact

// CHECK-FIXES:  const unsigned warpfix_mask_[[#]] = __ballot_sync(0xffffffff, gid < N);
// CHECK-FIXES-NEXT:  if (gid < N) v = __shfl_xor_sync(warpfix_mask_[[#]], v, 1);
// CHECK-FIXES:  const unsigned warpfix_mask_[[#]] = __ballot_sync(0xffffffff, gid < N);
// CHECK-FIXES-NEXT:  if (gid < N) v = __shfl_xor_sync(warpfix_mask_[[#]], v, 1);
// CHECK-FIXES:  const unsigned warpfix_mask_[[#]] = __ballot_sync(0xffffffff, gid < N);
// CHECK-FIXES-NEXT:  if (gid < N) v = __shfl_xor_sync(warpfix_mask_[[#]], v, 1);
// CHECK-FIXES:  if (gid < N) v = __shfl_xor_sync(0xffffffff, v, 1);
// CHECK-FIXES:  if (gid < N) v = __shfl_xor_sync(0xffffffff, v, 1);
