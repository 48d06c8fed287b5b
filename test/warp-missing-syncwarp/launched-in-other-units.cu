// The shared-memory model takes a kernel's block sizes from its launches in
// sight. A kernel with external linkage may be launched by another unit too,
// in blocks of another shape: the sizes seen here are assumed of those
// launches, as by default, and the fix says so in a note; with
// --assume-whole-warps=false they are not, and a race whose meeting depends
// on the width of the block's rows is reported without a fix. A static
// kernel can only be launched here, so its launch decides either way.
// RUN: %{copy-to-k} && cp %s %t/off.cu
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-missing-syncwarp %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %warpfix --no-cache --checks=-*,warp-missing-syncwarp --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=AGAIN
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-missing-syncwarp --assume-whole-warps=false %t/off.cu 2>&1 | FileCheck %s --check-prefix=OFF-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-missing-syncwarp --assume-whole-warps=false --fix %t/off.cu 2>&1 | FileCheck %s --check-prefix=OFF-SUMMARY
// RUN: FileCheck %s --check-prefix=OFF-FIXES --match-full-lines --strict-whitespace --input-file=%t/off.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/off.cu %}
// AGAIN: fixed 0 findings in 0 files; 0 remain
// OFF-SUMMARY: 2 findings in 1 file (1 fixable)

// In 16x16 blocks a warp holds two rows, and lane 0 reads what lane 1 of
// its own row wrote.
__global__ void external_tiles(float *out, const float *in) {
  __shared__ float tile[16][16];
  int x = threadIdx.x, y = threadIdx.y;
  tile[y][x] = in[y * 16 + x];
  out[y * 16 + x] = tile[y][x ^ 1];
}
// CHECK-MESSAGES: k.cu:[[@LINE-3]]:3: warning: lanes of one warp race on shared memory
// CHECK-MESSAGES: k.cu:[[@LINE-7]]:17: note: kernel 'external_tiles' has external linkage, so other translation units may launch it too; the block shape of its launches here is assumed of theirs unless --assume-whole-warps=false (make it static if no other unit launches it)
// CHECK-FIXES:  tile[y][x] = in[y * 16 + x];
// CHECK-FIXES-NEXT:  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:  out[y * 16 + x] = tile[y][x ^ 1];
// OFF-MESSAGES: off.cu:[[@LINE-8]]:3: warning: lanes of one warp race on shared memory
// OFF-MESSAGES: off.cu:[[@LINE-9]]:3: note: no automatic fix: threads of different warps meet through these accesses too ({{.*}}, as modelled for a launch whose size warpfix cannot see)
// OFF-FIXES:  tile[y][x] = in[y * 16 + x];
// OFF-FIXES-NEXT:  out[y * 16 + x] = tile[y][x ^ 1];

static __global__ void static_tiles(float *out, const float *in) {
  __shared__ float tile[16][16];
  int x = threadIdx.x, y = threadIdx.y;
  tile[y][x] = in[y * 16 + x];
  out[y * 16 + x] = tile[y][x ^ 1];
}
// CHECK-MESSAGES: k.cu:[[@LINE-3]]:3: warning: lanes of one warp race on shared memory
// CHECK-MESSAGES-NOT: note: kernel 'static_tiles'
// CHECK-FIXES:  tile[y][x] = in[y * 16 + x];
// CHECK-FIXES-NEXT:  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:  out[y * 16 + x] = tile[y][x ^ 1];
// OFF-MESSAGES: off.cu:[[@LINE-8]]:3: warning: lanes of one warp race on shared memory
// OFF-MESSAGES-NOT: no automatic fix
// OFF-FIXES:  tile[y][x] = in[y * 16 + x];
// OFF-FIXES-NEXT:  __syncwarp(0xffffffff);
// OFF-FIXES-NEXT:  out[y * 16 + x] = tile[y][x ^ 1];

void launch_all(float *out, const float *in) {
  external_tiles<<<1, dim3(16, 16)>>>(out, in);
  static_tiles<<<1, dim3(16, 16)>>>(out, in);
}
