// A launch in sight shows a kernel's block shape only for this unit. A kernel
// with external linkage may be launched by another unit too, with other
// blocks: there the shape is assumed, as by default, and the fix says so in
// a note; with --assume-whole-warps=false it is unknown. A static kernel, or
// one in an unnamed namespace, can only be launched here: its launches prove
// the shape.
// RUN: %{copy-to-k} && cp %s %t/off.cu
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-legacy-intrinsic %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES
// RUN: %warpfix --no-cache --checks=-*,warp-legacy-intrinsic --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=AGAIN
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-legacy-intrinsic --assume-whole-warps=false %t/off.cu 2>&1 | FileCheck %s --check-prefix=OFF-MESSAGES
// RUN: %warpfix --no-cache --checks=-*,warp-legacy-intrinsic --assume-whole-warps=false --fix %t/off.cu
// RUN: FileCheck %s --check-prefix=OFF-FIXES --match-full-lines --strict-whitespace --input-file=%t/off.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/off.cu %}
// AGAIN: fixed 0 findings in 0 files; 0 remain

// Another unit may declare this kernel and launch it with 48 threads: in
// block 1, lanes 0-15 of warp 0 have gid < 64 and lanes 16-31 do not.
__global__ void external_kernel(int *out) {
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = out[gid];
  if (gid < 64) v += __shfl_down(v, 1);
  out[gid] = v;
}
// CHECK-MESSAGES: k.cu:[[@LINE-3]]:22: warning: '__shfl_down' is a legacy
// CHECK-MESSAGES: note: every lane of the warp reaches this call, so the full mask is exact
// CHECK-MESSAGES: k.cu:[[@LINE-8]]:17: note: kernel 'external_kernel' has external linkage, so other translation units may launch it too; the block shape of its launches here is assumed of theirs unless --assume-whole-warps=false (make it static if no other unit launches it)
// CHECK-FIXES:  if (gid < 64) v += __shfl_down_sync(0xffffffff, v, 1);
// OFF-MESSAGES: off.cu:[[@LINE-7]]:22: warning: '__shfl_down' is a legacy
// OFF-MESSAGES: note: only some lanes reach this call; the mask is a ballot
// OFF-MESSAGES: off.cu:[[@LINE-12]]:17: note: kernel 'external_kernel' has external linkage
// OFF-FIXES:  const unsigned warpfix_mask_{{[0-9]+}} = __ballot_sync(0xffffffff, gid < 64);
// OFF-FIXES-NEXT:  if (gid < 64) v += __shfl_down_sync(warpfix_mask_{{[0-9]+}}, v, 1);

// Only this unit can launch a static kernel: the launch proves the shape.
static __global__ void static_kernel(int *out) {
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = out[gid];
  if (gid < 64) v += __shfl_down(v, 1);
  out[gid] = v;
}
// CHECK-MESSAGES: k.cu:[[@LINE-3]]:22: warning: '__shfl_down' is a legacy
// CHECK-MESSAGES: k.cu:[[@LINE-4]]:22: note: every lane of the warp reaches this call, so the full mask is exact
// CHECK-MESSAGES-NOT: note:
// CHECK-FIXES:  if (gid < 64) v += __shfl_down_sync(0xffffffff, v, 1);
// OFF-MESSAGES: off.cu:[[@LINE-7]]:22: warning: '__shfl_down' is a legacy
// OFF-MESSAGES: off.cu:[[@LINE-8]]:22: note: every lane of the warp reaches this call, so the full mask is exact
// OFF-MESSAGES-NOT: note: kernel '
// OFF-FIXES:  if (gid < 64) v += __shfl_down_sync(0xffffffff, v, 1);

namespace {
__global__ void unnamed_namespace_kernel(int *out) {
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = out[gid];
  if (gid < 64) v += __shfl_down(v, 1);
  out[gid] = v;
}
} // namespace
// CHECK-MESSAGES: k.cu:[[@LINE-4]]:22: warning: '__shfl_down' is a legacy
// CHECK-MESSAGES: k.cu:[[@LINE-5]]:22: note: every lane of the warp reaches this call, so the full mask is exact
// CHECK-MESSAGES-NOT: note:
// CHECK-FIXES:  if (gid < 64) v += __shfl_down_sync(0xffffffff, v, 1);
// OFF-FIXES:  if (gid < 64) v += __shfl_down_sync(0xffffffff, v, 1);

// Rows of 32 threads make threadIdx.y the same across a warp, in this
// unit's launch; another unit's 16x16 blocks would not.
__global__ void external_rows(int *out, unsigned rows) {
  if (threadIdx.y >= rows) return;
  int v = out[threadIdx.x];
  v += __shfl_xor(v, 1);
  out[threadIdx.x] = v;
}
// CHECK-MESSAGES: k.cu:[[@LINE-3]]:8: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: note: every lane of the warp reaches this call, so the full mask is exact
// CHECK-MESSAGES: k.cu:[[@LINE-8]]:17: note: kernel 'external_rows' has external linkage
// CHECK-FIXES:  v += __shfl_xor_sync(0xffffffff, v, 1);
// OFF-MESSAGES: off.cu:[[@LINE-7]]:8: warning: '__shfl_xor' is a legacy
// OFF-MESSAGES: note: only some lanes reach this call; the mask is a ballot
// OFF-MESSAGES: off.cu:[[@LINE-12]]:17: note: kernel 'external_rows' has external linkage
// OFF-FIXES:  const unsigned warpfix_mask_[[ROWS:[0-9]+]] = __ballot_sync(0xffffffff, !(threadIdx.y >= rows));
// OFF-FIXES-NEXT:  if (threadIdx.y >= rows) return;
// OFF-FIXES-NEXT:  int v = out[threadIdx.x];
// OFF-FIXES-NEXT:  v += __shfl_xor_sync(warpfix_mask_[[ROWS]], v, 1);

void launch_all(int *p) {
  external_kernel<<<2, 64>>>(p);
  static_kernel<<<2, 64>>>(p);
  unnamed_namespace_kernel<<<2, 64>>>(p);
  external_rows<<<1, dim3(32, 4)>>>(p, 2);
}
