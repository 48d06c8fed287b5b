// Where every lane of a warp reaches a call, the full mask is right even in
// a block whose last warp is partial: the lanes that warp lacks count as
// exited. But "every lane of the warp" is then not what the code runs, and
// the note says so, with the launch that shows it or leaves the block size
// unknown.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// IDEMPOTENT: 0 findings in 0 files (0 fixable)

__global__ void rows120(int *p) {
  int v = p[threadIdx.x];
  p[threadIdx.x] = __shfl_down(v, 1);
}
// CHECK-MESSAGES: :[[@LINE-2]]:20: warning: '__shfl_down' is a legacy
// CHECK-MESSAGES: :[[@LINE-3]]:20: note: every lane that the warp has reaches this call; in a block whose last warp is partial, the lanes it lacks count as exited, which the full mask allows
// CHECK-MESSAGES: :49:3: note: the blocks of kernel 'rows120' may end in a partial warp: it is launched here with blocks of 120 threads
// CHECK-FIXES:  p[threadIdx.x] = __shfl_down_sync(0xffffffff, v, 1);

__global__ void pow2(int *p) {
  int v = p[threadIdx.x];
  p[threadIdx.x] = __shfl_xor(v, 1);
}
// CHECK-MESSAGES: :[[@LINE-2]]:20: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: :[[@LINE-3]]:20: note: every lane that the warp has reaches this call
// CHECK-MESSAGES: :50:3: note: the blocks of kernel 'pow2' may end in a partial warp: it is launched here with a block size that warpfix cannot evaluate
// CHECK-FIXES:  p[threadIdx.x] = __shfl_xor_sync(0xffffffff, v, 1);

__global__ void whole(int *p) {
  int v = p[threadIdx.x];
  p[threadIdx.x] = __shfl_up(v, 1);
}
// CHECK-MESSAGES: :[[@LINE-2]]:20: warning: '__shfl_up' is a legacy
// CHECK-MESSAGES: :[[@LINE-3]]:20: note: every lane of the warp reaches this call, so the full mask is exact
// CHECK-FIXES:  p[threadIdx.x] = __shfl_up_sync(0xffffffff, v, 1);

static unsigned nextPow2(unsigned x) {
  --x;
  x |= x >> 1; x |= x >> 2; x |= x >> 4; x |= x >> 8; x |= x >> 16;
  return ++x;
}

void host(int *p, unsigned n) {
  rows120<<<16, (1920 + 15) / 16>>>(p);
  pow2<<<1, nextPow2(n / 2)>>>(p);
  whole<<<4, 64>>>(p);
}
