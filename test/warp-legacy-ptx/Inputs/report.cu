// For the report formats: a fix of four edits (the ballot before the branch,
// ".sync", the mask operand reference, the new operand) and a finding
// without a fix.
__global__ void k(const int *in, unsigned *out, int n) {
  unsigned r = 0;
  if (threadIdx.x < n) {
    asm("{ .reg .pred p; setp.ne.u32 p, %1, 0; vote.ballot.b32 %0, p; }" : "=r"(r) : "r"(in[threadIdx.x]));
    asm("{ .reg .pred p; setp.ne.u32 p, %0, 0; @p shfl.up.b32 %0, %0, 1, 0; }" : "+r"(r));
  }
  out[threadIdx.x] = r;
}
