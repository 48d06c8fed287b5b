// The first k groups of eight lanes of each warp sum themselves; every lane
// calls lowHalfSums.
#include "inc/group_ops.cuh"

__global__ void firstGroups(const int *in, int *sums, int *halves, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int v = in[i];
  int s = v;
  if (lane / 8 < k)
    s = groupSum8(v);
  sums[i] = s;
  halves[i] = lowHalfSums(v);
}

void launchFirstGroups(int blocks, int threads, const int *in, int *sums,
                       int *halves, int k) {
  firstGroups<<<blocks, threads>>>(in, sums, halves, k);
}
