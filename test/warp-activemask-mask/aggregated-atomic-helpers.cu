// The warp-aggregated atomic with its steps in a helper that gets the mask
// by value: the helper's copy is the mask, and the idiom holds when every
// lane that enters the helper makes each of its uses, and the call is made by
// the lanes that took the mask. Not reported then. Reported: a helper that
// some lanes leave before the shuffle, one that changes its copy, takes its
// address or gets it by reference, one that broadcasts from a leader it does
// not compute, and a call that only some of the mask's lanes make.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-activemask-mask %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-activemask-mask --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: diff %s %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// SUMMARY: 6 findings in 1 file (0 fixable)

__device__ unsigned lane_id() { return threadIdx.x & 31; }

__device__ int reserve(int *counter, unsigned m) {
  int leader = __ffs(m) - 1;
  int base = 0;
  if (lane_id() == leader)
    base = atomicAdd(counter, __popc(m));
  base = __shfl_sync(m, base, leader);
  // Reported for call_in_branch and call_in_loop below, not for compact.
  // CHECK-MESSAGES: :[[@LINE-2]]:22: warning: __activemask() is the member mask of '__shfl_sync'
  return base + __popc(m & ((1u << lane_id()) - 1));
}

// Two helpers deep, the leader and the count in the outer one.
__device__ int broadcast_from_leader(unsigned mask, int v) {
  return __shfl_sync(mask, v, __ffs(mask) - 1);
}
__device__ int reserve_nested(int *counter, const unsigned m) {
  int base = 0;
  if (lane_id() == __ffs(m) - 1)
    base = atomicAdd(counter, __popc(m));
  return broadcast_from_leader(m, base) + __popc(m & ((1u << lane_id()) - 1));
}

__global__ void compact(const int *in, int *counter, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (in[i] > 0) {
    unsigned m = __activemask();
    out[reserve(counter, m)] = in[i];
  }
}

__global__ void compact_nested(const int *in, int *counter, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (in[i] > 0) {
    unsigned m = __activemask();
    out[reserve_nested(counter, m)] = in[i];
  }
}

// Traps. Some lanes return before the shuffle.
__device__ int reserve_or_skip(int *counter, unsigned m, int wanted) {
  if (!wanted)
    return -1;
  int leader = __ffs(m) - 1;
  int base = 0;
  if (lane_id() == leader)
    base = atomicAdd(counter, __popc(m));
  return __shfl_sync(m, base, leader);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: __activemask() is the member mask of '__shfl_sync'
}

// The copy is narrowed before the shuffle.
__device__ int reserve_narrowed(int *counter, unsigned m) {
  m &= 0xffff;
  int base = 0;
  if (lane_id() == __ffs(m) - 1)
    base = atomicAdd(counter, __popc(m));
  return __shfl_sync(m, base, __ffs(m) - 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: __activemask() is the member mask of '__shfl_sync'
}

// The mask by reference: the helper reads the caller's variable.
__device__ int reserve_by_reference(int *counter, const unsigned &m) {
  int base = 0;
  if (lane_id() == __ffs(m) - 1)
    base = atomicAdd(counter, __popc(m));
  return __shfl_sync(m, base, __ffs(m) - 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: __activemask() is the member mask of '__shfl_sync'
}

// A leader it is given, not one it computes from the mask.
__device__ int broadcast_given(unsigned m, int v, int leader) {
  return __shfl_sync(m, v, leader);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: __activemask() is the member mask of '__shfl_sync'
}

// Its address escapes.
__device__ void keep(const unsigned *where) { (void)*where; }
__device__ int reserve_escaping(int *counter, unsigned m) {
  keep(&m);
  int base = 0;
  if (lane_id() == __ffs(m) - 1)
    base = atomicAdd(counter, __popc(m));
  return __shfl_sync(m, base, __ffs(m) - 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: __activemask() is the member mask of '__shfl_sync'
}

__global__ void traps(const int *in, int *counter, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (in[i] > 0) {
    unsigned m = __activemask();
    out[i] = reserve_or_skip(counter, m, in[i] & 1);
    out[i] += reserve_narrowed(counter, m);
    out[i] += reserve_by_reference(counter, m);
    out[i] += broadcast_given(m, in[i], __ffs(m) - 1);
    out[i] += reserve_escaping(counter, m);
  }
}

// The call is made by fewer lanes than took the mask.
__global__ void call_in_branch(const int *in, int *counter, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned m = __activemask();
  if (in[i] > 0)
    out[reserve(counter, m)] = in[i];
}

// Or in a loop that lanes leave after different numbers of iterations (the
// same finding as above: one shuffle).
__global__ void call_in_loop(const int *in, int *counter, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned m = __activemask();
  for (int k = 0; k < in[i]; ++k)
    out[reserve(counter, m)] += in[i];
}
