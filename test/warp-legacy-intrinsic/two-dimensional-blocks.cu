// Warps are cut from the linear thread index x + y * blockDim.x (CUDA C++ Programming Guide, SIMT Architecture),
// so threadIdx.y is the same across a warp exactly when blockDim.x is a
// multiple of 32. warpfix relies on that only where every launch of the
// kernel in the unit shows it, never by default: 16 x 16 blocks are common,
// and there a warp spans two rows.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=SECOND
// RUN: diff %t/once.cu %t/k.cu
// SECOND: 3 findings in 1 file (0 fixable)

// Launched here in rows of 32, but its address is also in a table, which
// could launch it in any shape.
__global__ void tabled(int *p, int width) {
  int v = p[threadIdx.y * width + threadIdx.x];
  for (int i = threadIdx.y; i < width; i += blockDim.y)
    v += __shfl_up(v, 1);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:10: warning: '__shfl_up' is a legacy
  // CHECK-MESSAGES: k.cu:[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations
  // CHECK-MESSAGES: k.cu:[[@LINE+5]]:32: note: the whole-warp assumption is off for kernel 'tabled': its address is taken here, and a launch through it (a pointer, a table, cudaLaunchKernelEx, a graph node) may use any block size
  // CHECK-FIXES:     v += __shfl_up(v, 1);
  p[threadIdx.y * width + threadIdx.x] = v;
}

void (*table[])(int *, int) = {tabled};

// Rows of 32 threads: a row's early exit and a loop bounded by the row
// leave whole warps, and every lane that stays reaches each call.
__global__ void rows(int *p, int height, int width) {
  int row = blockIdx.x * blockDim.y + threadIdx.y;
  if (row >= height)
    return;
  int v = p[row * width + threadIdx.x];
  for (int i = row; i < width; i += gridDim.x * blockDim.y)
    v += __shfl_down(v, 1);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:10: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:10: note: every lane of the warp reaches this call, so the full mask is exact
  // CHECK-FIXES:     v += __shfl_down_sync(0xffffffff, v, 1);
  if (threadIdx.y == 0)
    v = __shfl_xor(v, 1);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:9: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:9: note: every lane of the warp reaches this call, so the full mask is exact
  // CHECK-FIXES:     v = __shfl_xor_sync(0xffffffff, v, 1);
  p[row * width + threadIdx.x] = v;
}

// The same code in 16 x 16 blocks: a warp holds rows y and y + 1.
__global__ void tiles(int *p, int height, int width) {
  int row = blockIdx.x * blockDim.y + threadIdx.y;
  int v = p[row * width + threadIdx.x];
  for (int i = row; i < width; i += gridDim.x * blockDim.y)
    v += __shfl_down(v, 1);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:10: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: k.cu:[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations
  // CHECK-MESSAGES: k.cu:[[@LINE+29]]:3: note: the whole-warp assumption is off for kernel 'tiles': it is launched here with blocks of 16x16 threads, 16 in x, not a multiple of 32
  // CHECK-FIXES:     v += __shfl_down(v, 1);
  if (threadIdx.y == 0)
    v = __shfl_xor(v, 1);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:9: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:9: note: only some lanes reach this call; the mask is a ballot of the branch conditions, taken before the branch (Using CUDA Warp-Level Primitives, listing 3)
  // CHECK-MESSAGES: k.cu:[[@LINE+23]]:3: note: the whole-warp assumption is off for kernel 'tiles': it is launched here with blocks of 16x16 threads, 16 in x, not a multiple of 32
  // CHECK-FIXES:   const unsigned warpfix_mask_{{[0-9]+}} = __ballot_sync(0xffffffff, threadIdx.y == 0);
  // CHECK-FIXES-NEXT:   if (threadIdx.y == 0)
  // CHECK-FIXES-NEXT:     v = __shfl_xor_sync(warpfix_mask_{{[0-9]+}}, v, 1);
  p[row * width + threadIdx.x] = v;
}

// Launched nowhere in this unit: the row may split a warp.
__global__ void unlaunched(int *p, int width) {
  int v = p[threadIdx.y * width + threadIdx.x];
  for (int i = threadIdx.y; i < width; i += blockDim.y)
    v += __shfl_up(v, 1);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:10: warning: '__shfl_up' is a legacy
  // CHECK-MESSAGES: k.cu:[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations
  // CHECK-MESSAGES: k.cu:[[@LINE-6]]:17: note: threadIdx.y and threadIdx.z are the same across a warp only where blockDim.x is a multiple of 32, which no launch in this translation unit proves for the code in 'unlaunched' (a kernel whose address is taken may be launched in any shape)
  // CHECK-FIXES:     v += __shfl_up(v, 1);
  p[threadIdx.y * width + threadIdx.x] = v;
}

void launch(int *p, int height, int width) {
  const dim3 rowBlock(32, 8);
  rows<<<height / 8, rowBlock>>>(p, height, width);
  rows<<<height / 4, dim3(64, 4)>>>(p, height, width);
  tiles<<<height / 16, dim3(16, 16)>>>(p, height, width);
  tabled<<<1, dim3(32, 8)>>>(p, width);
}
