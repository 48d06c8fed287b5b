// A project's own overload of a legacy name, for a type the toolkit never
// shuffled, is the project's function: nvcc calls it wherever it is the only
// viable one. Only the toolkit's shuffles inside it are legacy calls. Calls
// of the overload are neither reported nor rewritten, whether their lane
// arguments convert to its parameters (int to unsigned) or match them.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning: --implicit-check-not=error:
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: %expect-exit 0 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-AGAIN
// RUN: %if nvcc %{ %nvcc-check -arch=sm_75 %t/k.cu %}

__device__ __forceinline__ uint4 __shfl(const uint4 v, unsigned int lane,
                                        unsigned int width) {
  uint4 r;
  r.x = __shfl((int)v.x, lane, width);
  r.y = __shfl((int)v.y, lane, width);
  r.z = __shfl((int)v.z, lane, width);
  r.w = __shfl((int)v.w, lane, width);
  return r;
}
// CHECK-MESSAGES: k.cu:[[@LINE-6]]:9: warning: '__shfl' is a legacy warp intrinsic
// CHECK-MESSAGES: k.cu:[[@LINE-6]]:9: warning: '__shfl' is a legacy warp intrinsic
// CHECK-MESSAGES: k.cu:[[@LINE-6]]:9: warning: '__shfl' is a legacy warp intrinsic
// CHECK-MESSAGES: k.cu:[[@LINE-6]]:9: warning: '__shfl' is a legacy warp intrinsic
// CHECK-FIXES: r.x = __shfl_sync(0xffffffff, (int)v.x, lane, width);
// CHECK-FIXES-NEXT: r.y = __shfl_sync(0xffffffff, (int)v.y, lane, width);
// CHECK-FIXES-NEXT: r.z = __shfl_sync(0xffffffff, (int)v.z, lane, width);
// CHECK-FIXES-NEXT: r.w = __shfl_sync(0xffffffff, (int)v.w, lane, width);

// int lanes: the overload needs a conversion for each.
__global__ void rotate_signed(uint4 *data, int lane) {
  uint4 v = data[threadIdx.x];
  data[threadIdx.x] = __shfl(v, lane + 1, 8);
}
// CHECK-FIXES: data[threadIdx.x] = __shfl(v, lane + 1, 8);

// An unsigned lane and an int width: one conversion each way.
__global__ void rotate_mixed(uint4 *data) {
  unsigned lane8 = threadIdx.x & ~7u;
  data[threadIdx.x] = __shfl(data[threadIdx.x], lane8 + 7, 8);
}
// CHECK-FIXES: data[threadIdx.x] = __shfl(data[threadIdx.x], lane8 + 7, 8);

// CHECK-MESSAGES: 4 findings in 1 file (4 fixable)
// CHECK-AGAIN: 0 findings in 0 files (0 fixable)
