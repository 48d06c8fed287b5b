// __activemask() kept in a local where every lane arrives (issue 15, item
// 4b), reported without a fix: where the value has another use than a member
// mask, which the full mask would change in a partial warp; where the local
// is assigned twice or its address is taken; and where a use is one that not
// every lane reaches.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu
// RUN: diff %s %t/k.cu

__device__ int reduce(unsigned mask, int v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(mask, v, offset);
  // The mask comes from the caller's __activemask(), followed into the
  // helper through its parameter.
  // CHECK-MESSAGES: :[[@LINE-3]]:27: warning: __activemask() is the member mask of '__shfl_down_sync'
  // CHECK-MESSAGES: :[[@LINE+7]]:20: note: the mask is taken here
  // CHECK-MESSAGES: :[[@LINE+7]]:18: note: no automatic fix: 'entry' is also used here, not as a member mask
  return v;
}

// Captured at entry and passed on.
__global__ void passed_on(int *p) {
  unsigned entry = __activemask();
  int v = reduce(entry, p[threadIdx.x]);
  v += __shfl_xor_sync(entry, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: __activemask() is the member mask of '__shfl_xor_sync'
  // CHECK-MESSAGES: :[[@LINE-4]]:20: note: the mask is taken here
  // CHECK-MESSAGES: :[[@LINE-4]]:18: note: no automatic fix: 'entry' is also used here, not as a member mask, and the full mask would change what this use computes in a partial warp
  p[threadIdx.x] = v;
}

// Counted as well as used as a mask.
__global__ void counted(int *p) {
  unsigned mask[1];
  mask[0] = __activemask();
  int v = __shfl_xor_sync(mask[0], p[threadIdx.x], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: __activemask() is the member mask of '__shfl_xor_sync'
  // CHECK-MESSAGES: :[[@LINE-3]]:13: note: the mask is taken here
  // CHECK-MESSAGES: :[[@LINE+1]]:31: note: no automatic fix: 'mask[0]' is also used here, not as a member mask
  p[threadIdx.x] = v * __popc(mask[0]);
}

__global__ void assigned_twice(int *p) {
  unsigned m = __activemask();
  int v = __shfl_xor_sync(m, p[threadIdx.x], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: __activemask() is the member mask of '__shfl_xor_sync'
  // CHECK-MESSAGES: :[[@LINE-3]]:16: note: no automatic fix: 'm' is assigned more than once
  m = __activemask();
  p[threadIdx.x] = __shfl_xor_sync(m, v, 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: __activemask() is the member mask of '__shfl_xor_sync'
}

__device__ void keep(unsigned *where, unsigned m) { *where = m; }

__global__ void address_taken(unsigned *p) {
  unsigned m = __activemask();
  keep(&m, p[threadIdx.x]);
  p[threadIdx.x] = __shfl_xor_sync(m, p[threadIdx.x], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: __activemask() is the member mask of '__shfl_xor_sync'
  // CHECK-MESSAGES: :[[@LINE-4]]:16: note: no automatic fix: 'm' is used in a way that is not followed (its address is taken, or it is copied or indexed as a whole), so the mask may reach other uses
}

// Half the lanes use it: the mask names lanes that never arrive.
__global__ void half_the_lanes(int *p) {
  unsigned m = __activemask();
  int v = p[threadIdx.x];
  v += __shfl_xor_sync(m, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: __activemask() is the member mask of '__shfl_xor_sync'
  // CHECK-MESSAGES: :[[@LINE+2]]:10: note: no automatic fix: 'm' is also the member mask of this call, which not every lane reaches
  if (threadIdx.x % 32 < 16)
    v += __shfl_xor_sync(m, v, 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: __activemask() is the member mask of '__shfl_xor_sync'
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: no automatic fix: the mask is used under other branches than the ones where it is taken
  p[threadIdx.x] = v;
}
// CHECK-MESSAGES: 8 findings in 1 file (0 fixable)
