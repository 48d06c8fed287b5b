// The lanes whose value is not a multiple of three vote on its sign; the
// last group of eight sums itself.
#include "inc/group_ops.cuh"

__global__ void signVotes(const int *in, unsigned *votes, int *lastSums) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  unsigned b = 0;
  if (v % 3 != 0)
    b = voters(v > 0);
  votes[i] = b;
  int s = v;
  if (threadIdx.x % 32 >= 24)
    s = groupSum8(v);
  lastSums[i] = s;
}

void launchSignVotes(int blocks, int threads, const int *in, unsigned *votes,
                     int *lastSums) {
  signVotes<<<blocks, threads>>>(in, votes, lastSums);
}
