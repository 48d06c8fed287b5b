// Nothing here may be reported: a full mask in both arms of an if/else (seed
// 000, listing 4), whole-warp conditions, masks from a ballot of the branch
// condition, a partial constant that matches its guard (NVIDIA's shfl_scan),
// and calls whose callers are unknown.
// RUN: %expect-exit 0 %warpfix %s 2>&1 | FileCheck %s --implicit-check-not=warning:
// CHECK: 0 findings in 0 files (0 fixable)
#define FULL_MASK 0xffffffff

__global__ void listing4(int *p) {
  int val = p[threadIdx.x];
  if (threadIdx.x % 2) {
    val += __shfl_sync(FULL_MASK, val, 0);
  } else {
    val += __shfl_sync(FULL_MASK, val, 0);
  }
  p[threadIdx.x] = val;
}

__global__ void whole_warps(int *p) {
  int warp_id = threadIdx.x / 32;
  if (threadIdx.x < 32)
    p[threadIdx.x] = __shfl_xor_sync(FULL_MASK, p[threadIdx.x], 1);
  if (warp_id == 0)
    p[threadIdx.x] += __shfl_xor_sync(FULL_MASK, p[threadIdx.x], 2);
  if (threadIdx.x / 32 == 2)
    __syncwarp();
}

__global__ void ballot_masks(int *p, int n) {
  unsigned mask = __ballot_sync(FULL_MASK, threadIdx.x < n);
  if (threadIdx.x < n)
    p[threadIdx.x] = __shfl_down_sync(mask, p[threadIdx.x], 1);
}

__global__ void shfl_scan(int *p) {
  int lane = threadIdx.x & 31;
  int value = p[threadIdx.x];
  if (lane < 8)
    value += __shfl_up_sync((1 << 8) - 1, value, 1, 8);
  p[threadIdx.x] = value;
}

__device__ int unknown_callers(int v) { return __shfl_sync(FULL_MASK, v, 0); }
