// A parameter is as lane-dependent as the arguments its call sites pass
// (issue 15, item 1): the canonical block reduction, whose second warp sum
// runs under `if (warpId == 0)` with warpId = threadIdx.x / 32 at the only
// call site, is reached by whole warps, so the full mask is exact in the
// helper. Trap: a helper with one call site that passes a lane-dependent
// value keeps its ballot. (A helper whose address is taken is refused:
// unknown-membership.cu.)
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: %expect-exit 0 %warpfix --no-cache %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}

__device__ float warpSum(float v) {
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down(v, o);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: every lane of the warp reaches this call, so the full mask is exact
  return v;
}
// CHECK-FIXES:{{^}}    v += __shfl_down_sync(0xffffffff, v, o);

__device__ float blockSum(float v, int warpId, int lane, float *sh) {
  v = warpSum(v);
  if (lane == 0) sh[warpId] = v;
  __syncthreads();
  v = threadIdx.x < blockDim.x / 32 ? sh[lane] : 0.f;
  if (warpId == 0) v = warpSum(v);
  return v;
}

__global__ void blockSums(const float *in, float *out) {
  __shared__ float sh[32];
  float x = in[blockIdx.x * blockDim.x + threadIdx.x];
  float s = blockSum(x, threadIdx.x / 32, threadIdx.x % 32, sh);
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}

// One call site passes the lane: the branch is divergent, so a ballot.
__device__ int addIfFirst(int v, int k) {
  if (k == 0) v += __shfl_xor(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:20: note: only some lanes reach this call
  return v;
}
// CHECK-FIXES:{{^}}  const unsigned [[M:warpfix_mask_[0-9]+]] = __ballot_sync(0xffffffff, k == 0);
// CHECK-FIXES-NEXT:{{^}}  if (k == 0) v += __shfl_xor_sync([[M]], v, 1);

__global__ void mixed(int *io, int n) {
  io[threadIdx.x] = addIfFirst(io[threadIdx.x], n);
  io[threadIdx.x] = addIfFirst(io[threadIdx.x], threadIdx.x % 4);
}

// A static member function takes its parameters as a free function does
// (moderngpu's `CTAReduce<NT>::Reduce(tid, x, storage)`): `tid < 32` on the
// thread index its only call passes keeps whole warps. A non-static method
// also takes its object, and keeps the ballot.
struct WarpReduce {
  static __device__ int spine(int tid, int x) {
    if (tid < 32) x += __shfl_down(x, 16);
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: '__shfl_down' is a legacy
    // CHECK-MESSAGES: :[[@LINE-2]]:24: note: every lane of the warp reaches this call, so the full mask is exact
    return x;
  }
  __device__ int spineOf(int tid, int x) {
    if (tid < 32) x += __shfl_down(x, 16);
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: '__shfl_down' is a legacy
    // CHECK-MESSAGES: :[[@LINE-2]]:24: note: only some lanes reach this call
    return x;
  }
};
// CHECK-FIXES:{{^}}    if (tid < 32) x += __shfl_down_sync(0xffffffff, x, 16);
// CHECK-FIXES:{{^}}    const unsigned [[N:warpfix_mask_[0-9]+]] = __ballot_sync(0xffffffff, tid < 32);
// CHECK-FIXES-NEXT:{{^}}    if (tid < 32) x += __shfl_down_sync([[N]], x, 16);

__global__ void spines(int *io) {
  WarpReduce r;
  io[threadIdx.x] = WarpReduce::spine(threadIdx.x, io[threadIdx.x]);
  io[threadIdx.x] = r.spineOf(threadIdx.x, io[threadIdx.x]);
}
