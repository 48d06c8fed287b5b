// The build compiles this file twice: with COND=1, every lane votes; with
// COND=(threadIdx.x < 8), only eight do, and the full mask would hang.
__global__ void vote(unsigned *out) {
  unsigned r = 0;
  if (COND)
    r = __ballot(threadIdx.x & 1);
  out[threadIdx.x] = r;
}
