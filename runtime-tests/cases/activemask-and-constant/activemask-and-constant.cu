// Issue 15, item 4: __activemask() and-ed with a constant, as the member
// mask. Each half-warp takes its own branch and exchanges within itself,
// naming its half with the constant; the and with __activemask() was meant
// to drop lanes that did not arrive. Under a branch the rewrite is the
// ballot of the branch, taken before it, and-ed with the constant. Then
// lanes 0 to 7 vote over 0xff & __activemask(), under their own branch.
//
// Shapes: whole warps, one element per thread (the exchange reads a
// partner lane of the same half).
//
// @shapes 32x64:2048 128x40:5120 256x20:5120 1024x3:3072
// @sanitize 64x2:128
// @time 256x4096:1048576
#include "../../harness.h"

#define LOW_HALF 0x0000ffffu
#define HIGH_HALF 0xffff0000u

__global__ void halves(const int *in, int *out, unsigned *votes) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int v = in[i];
  if (lane < 16)
    v += __shfl_xor_sync(__activemask() & LOW_HALF, v, 1);
  else
    v -= __shfl_xor_sync(__activemask() & HIGH_HALF, v, 2);
  out[i] = v;
  unsigned vote = 0;
  if (lane < 8)
    vote = __ballot_sync(0xff & __activemask(), v > 0);
  votes[i] = vote;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize % 32 == 0, "whole warps");
  harness::require(s.n == s.blockSize * s.numBlocks, "one element per thread");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  std::vector<int> out(s.n);
  std::vector<unsigned> votes(s.n, 0);
  for (int i = 0; i < s.n; ++i) {
    int lane = i % 32, base = i - lane;
    out[i] = lane < 16 ? in[i] + in[base + (lane ^ 1)] : in[i] - in[base + (lane ^ 2)];
  }
  for (int i = 0; i < s.n; ++i) {
    int lane = i % 32, base = i - lane;
    if (lane >= 8)
      continue;
    for (int l = 0; l < 8; ++l)
      votes[i] |= unsigned(out[base + l] > 0) << l;
  }
  harness::DeviceArray<int> dIn(in), dOut(s.n);
  harness::DeviceArray<unsigned> dVotes(votes.size());
  return harness::run(s,
                      {harness::expect("out", dOut, out),
                       harness::expect("votes", dVotes, votes)},
                      [&] { halves<<<s.numBlocks, s.blockSize>>>(dIn.get(), dOut.get(), dVotes.get()); });
}
