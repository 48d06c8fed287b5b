// A wrapper whose mask parameter every call leaves full (a default argument
// or an explicit 0xffffffff, as AMGX's utils::shfl(..., DEFAULT_MASK)) gives
// its own primitive the full mask. Called only under one lane-dependent
// branch, that primitive never sees the other lanes: reported, without a fix,
// since the mask is the callers' to choose. Where the calls may together
// reach every lane (the two arms of an if/else, Using CUDA Warp-Level Primitives, listing 4), where
// one call passes another mask, where callers are unseen or the wrapper
// changes the parameter, nothing is reported.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-full-mask-divergent %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-full-mask-divergent --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: diff %s %t/k.cu
// SUMMARY: 1 finding in 1 file (0 fixable)

__device__ int shflFull(int v, int src, unsigned mask = 0xffffffff) {
  return __shfl_sync(mask, v, src);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: the full mask names every lane of the warp, but only some lanes reach this '__shfl_sync'
  // CHECK-MESSAGES: :[[@LINE-2]]:22: note: no automatic fix: the full mask comes in through parameter 'mask', which every call leaves full; pass a ballot of the branch condition, taken before the branch, from the calls that only some lanes make
  // CHECK-MESSAGES: :[[@LINE+6]]:9: note: 'shflFull' is called here by only some lanes of the warp (the call is under a lane-dependent branch)
}

__global__ void halfWarp(int *out) {
  int v = out[threadIdx.x];
  if (threadIdx.x % 32 < 16) {
    v = shflFull(v, 0);
    v += shflFull(v, 1, 0xffffffff);
  }
  out[threadIdx.x] = v;
}

__device__ int everyLaneShfl(int v, int src, unsigned mask = 0xffffffff) {
  return __shfl_sync(mask, v, src);
}
__global__ void everyLane(int *out) {
  out[threadIdx.x] = everyLaneShfl(out[threadIdx.x], 0);
}

__device__ int armShfl(int v, int src, unsigned mask = 0xffffffff) {
  return __shfl_sync(mask, v, src);
}
__global__ void bothArms(int *out) {
  int v = out[threadIdx.x];
  if (threadIdx.x % 2)
    v = armShfl(v, 0);
  else
    v = armShfl(v, 1);
  out[threadIdx.x] = v;
}

__device__ int narrowedShfl(int v, int src, unsigned mask = 0xffffffff) {
  return __shfl_sync(mask, v, src);
}
__global__ void narrowedByOneCall(int *out) {
  int v = out[threadIdx.x];
  if (threadIdx.x % 32 < 16)
    v = narrowedShfl(v, 0, 0xffff);
  out[threadIdx.x] = v + narrowedShfl(v, 1);
}

__device__ int takenShfl(int v, int src, unsigned mask = 0xffffffff) {
  return __shfl_sync(mask, v, src);
}
__device__ int (*takenShflPointer)(int, int, unsigned) = takenShfl;
__global__ void addressTaken(int *out) {
  int v = out[threadIdx.x];
  if (threadIdx.x % 32 < 16)
    v = takenShfl(v, 0);
  out[threadIdx.x] = v;
}

__device__ int changedShfl(int v, int src, unsigned mask = 0xffffffff) {
  if (src > 3)
    mask = 0xffff;
  return __shfl_sync(mask, v, src);
}
__global__ void parameterChanged(int *out) {
  int v = out[threadIdx.x];
  if (threadIdx.x % 32 < 16)
    v = changedShfl(v, 0);
  out[threadIdx.x] = v;
}
