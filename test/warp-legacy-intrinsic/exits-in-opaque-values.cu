// An early return inside an expression that the tree holds only behind an
// opaque value (a property's index, a structured binding's array copy) still
// removes lanes. The membership analysis reads exits with a cheap walk of the
// children first; that walk must follow opaque values as the visitor does.
// No nvcc step: the two refused calls stay legacy, which nvcc 13 rejects.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 1 %warpfix --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// IDEMPOTENT: 2 findings in 1 file (0 fixable)
struct Lanes {
  __device__ int get(unsigned i) const { return static_cast<int>(i) * 2; }
  __declspec(property(get = get)) int item[];
};

__global__ void property_index(int *out, const Lanes *lanes, unsigned n) {
  int v = lanes->item[({ if (threadIdx.x >= n) return; threadIdx.x; })];
  out[threadIdx.x] = __any(v > 3);
}

__global__ void binding_of_array(int *out, const int (*table)[2], unsigned n) {
  auto [lo, hi] = table[({ if (threadIdx.x >= n) return; threadIdx.x; })];
  out[threadIdx.x] = __any(lo < hi);
}

// Trap: the same shape without an exit lets every lane reach the call.
__global__ void binding_without_exit(int *out, const int (*table)[2]) {
  auto [lo, hi] = table[({ unsigned i = threadIdx.x; i; })];
  out[threadIdx.x] = __any(lo < hi);
}

// CHECK-MESSAGES: :21:22: warning: '__any' is a legacy warp intrinsic that CUDA 13 no longer compiles; use '__any_sync' with an explicit member mask
// CHECK-MESSAGES: :20:48: note: no automatic fix: an early return under a lane-dependent condition may remove lanes before this point
// CHECK-MESSAGES: :21:22: note: candidate rewrite: __any_sync(<mask>, ...) where <mask> names the lanes that reach this call
// CHECK-MESSAGES: :26:22: warning: '__any' is a legacy warp intrinsic that CUDA 13 no longer compiles; use '__any_sync' with an explicit member mask
// CHECK-MESSAGES: :25:50: note: no automatic fix: an early return under a lane-dependent condition may remove lanes before this point
// CHECK-MESSAGES: :26:22: note: candidate rewrite: __any_sync(<mask>, ...) where <mask> names the lanes that reach this call
// CHECK-MESSAGES: :32:22: warning: '__any' is a legacy warp intrinsic that CUDA 13 no longer compiles; use '__any_sync' with an explicit member mask
// CHECK-MESSAGES: :32:22: note: every lane of the warp reaches this call, so the full mask is exact
// CHECK-FIXES: out[threadIdx.x] = __any_sync(0xffffffff, lo < hi);
