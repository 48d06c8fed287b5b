// Inline PTX: "vote" ends at the '.', so it is a whole word.
__global__ void k(int *out) {
  unsigned r;
  asm volatile("vote.ballot.b32 %0, 1;" : "=r"(r));
  out[threadIdx.x] = r;
}
