// Read only through old_vote.cuh.
__device__ int oldScan(int v) {
  int up;
  asm("shfl.up.b32 %0, %1, 1, 0;" : "=r"(up) : "r"(v));
  return up + __shfl_up(v, 1);
}
