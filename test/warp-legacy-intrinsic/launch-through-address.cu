// A kernel whose address is used other than by a launch that warpfix
// evaluates (a table of kernels, a function pointer) may be launched with any
// block size: the whole-warp assumption is off for it, and `gid < 64` splits
// a warp of a 48-thread block. Attribute and occupancy queries launch
// nothing; cudaLaunchKernel's block is evaluated, and so is the blockDim of
// the cudaLaunchConfig_t that cudaLaunchKernelEx gets, where nothing else may
// change it.
// RUN: %{copy-to-k}
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

// Launched through a cudaLaunchConfig_t whose blockDim warpfix evaluates:
// 64 threads, so whole warps; or a config that something else may change.
__global__ void through_config_64(int *p) {
  int gid = threadIdx.x;
  int v = p[gid];
  if (gid < N) v = __shfl_xor(v, 1);
  p[gid] = v;
}

__global__ void through_config_c(int *p) {
  int gid = threadIdx.x;
  int v = p[gid];
  if (gid < N) v = __shfl_xor(v, 1);
  p[gid] = v;
}

__global__ void through_config_escaping(int *p) {
  int gid = threadIdx.x;
  int v = p[gid];
  if (gid < N) v = __shfl_xor(v, 1);
  p[gid] = v;
}

void tune(cudaLaunchConfig_t *config);

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

  cudaLaunchConfig_t wide = {dim3(1), dim3(64)};
  cudaLaunchKernelEx(&wide, through_config_64, p);

  cudaLaunchConfig_t plain = {};
  plain.blockDim = dim3(64, 1, 1);
  void *plainArgs[] = {&p};
  cudaLaunchKernelExC(&plain, (const void *)through_config_c, plainArgs);

  cudaLaunchConfig_t tuned = {dim3(1), dim3(64)};
  tune(&tuned);
  cudaLaunchKernelEx(&tuned, through_config_escaping, p);

  Kernel k = &through_pointer;
  k<<<1, 48>>>(p);

  cudaFuncSetAttribute(with_attribute, cudaFuncAttributeMaxDynamicSharedMemorySize, 0);
  with_attribute<<<1, 64>>>(p);

  void *args[] = {&p};
  cudaLaunchKernel((const void *)through_launch_api, dim3(1), dim3(64), args, 0, 0);
}

// CHECK-MESSAGES: :[[#THROUGH_TABLE:]]:20: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: :[[#THROUGH_TABLE]]:20: note: the lanes that reach this call are those for which the branch conditions hold, all of a warp's lanes or none in blocks made of whole warps, which is not known here
// CHECK-MESSAGES: :[[#TABLE:]]:19: note: the whole-warp assumption is off for kernel 'through_table': its address is taken here, and a launch through it (a pointer, a table, cudaLaunchKernelEx, a graph node) may use any block size
// CHECK-MESSAGES: :[[#LAUNCH_EX:]]:20: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: :[[#LAUNCH_EX]]:20: note: every lane that the warp has reaches this call; in a block whose last warp is partial, the lanes it lacks count as exited, which the full mask allows
// CHECK-MESSAGES: :[[#]]:3: note: the blocks of kernel 'through_launch_ex' may end in a partial warp: it is launched here with blocks of 48 threads
// CHECK-MESSAGES: :[[#CONFIG_64:]]:20: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: :[[#CONFIG_64]]:20: note: every lane of the warp reaches this call, so the full mask is exact
// CHECK-MESSAGES: :[[#CONFIG_C:]]:20: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: :[[#CONFIG_C]]:20: note: every lane of the warp reaches this call, so the full mask is exact
// CHECK-MESSAGES: :[[#ESCAPING:]]:20: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: :[[#ESCAPING]]:20: note: the lanes that reach this call are those for which the branch conditions hold, all of a warp's lanes or none in blocks made of whole warps, which is not known here
// CHECK-MESSAGES: :[[#]]:3: note: the whole-warp assumption is off for kernel 'through_config_escaping': it is launched here with a block size that warpfix cannot evaluate
// CHECK-MESSAGES: :[[#POINTER:]]:20: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: :[[#POINTER]]:20: note: the lanes that reach this call are those for which the branch conditions hold, all of a warp's lanes or none in blocks made of whole warps, which is not known here
// CHECK-MESSAGES: :[[#]]:15: note: the whole-warp assumption is off for kernel 'through_pointer': its address is taken here
// CHECK-MESSAGES: :[[#ATTRIBUTE:]]:20: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: :[[#ATTRIBUTE]]:20: note: every lane of the warp reaches this call, so the full mask is exact
// CHECK-MESSAGES: :[[#API:]]:20: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: :[[#API]]:20: note: every lane of the warp reaches this call, so the full mask is exact

// CHECK-FIXES:  const unsigned warpfix_mask_[[#]] = __ballot_sync(0xffffffff, gid < N);
// CHECK-FIXES-NEXT:  if (gid < N) v = __shfl_xor_sync(warpfix_mask_[[#]], v, 1);
// CHECK-FIXES:  if (gid < N) v = __shfl_xor_sync(0xffffffff, v, 1);
// CHECK-FIXES:  if (gid < N) v = __shfl_xor_sync(0xffffffff, v, 1);
// CHECK-FIXES:  if (gid < N) v = __shfl_xor_sync(0xffffffff, v, 1);
// CHECK-FIXES:  const unsigned warpfix_mask_[[#]] = __ballot_sync(0xffffffff, gid < N);
// CHECK-FIXES-NEXT:  if (gid < N) v = __shfl_xor_sync(warpfix_mask_[[#]], v, 1);
// CHECK-FIXES:  const unsigned warpfix_mask_[[#]] = __ballot_sync(0xffffffff, gid < N);
// CHECK-FIXES-NEXT:  if (gid < N) v = __shfl_xor_sync(warpfix_mask_[[#]], v, 1);
// CHECK-FIXES:  if (gid < N) v = __shfl_xor_sync(0xffffffff, v, 1);
// CHECK-FIXES:  if (gid < N) v = __shfl_xor_sync(0xffffffff, v, 1);
