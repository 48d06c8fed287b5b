#include "shared_vote.cuh"
__device__ int vote(int p) { return __any_sync(0xffffffff, p) + sharedVote(p); }
