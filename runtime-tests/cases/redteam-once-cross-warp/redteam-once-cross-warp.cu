// Red team, computed-once ballots: conditions that read shared memory that
// another warp wrote before a __syncthreads(), in blocks of 48 and 100
// threads whose last warp is partial. Each thread's condition reads the
// slot of the "mirror" pair at the other end of the block (2 * (P - 1 - t / 2)
// with P = blockDim.x / 2), mostly in another warp. First an if/else (the else
// arm's mask ~m names the lanes a partial warp lacks, which count as exited);
// after a barrier every thread overwrites its slot (which other warps' first
// conditions read, now safely); after another barrier an early exit on the
// mirror's new value, and votes of the survivors (~m of that exit).
//
// What the legacy code computed: conditions belong to pairs of threads, so
// both lanes of a pair take the same arm and __shfl_xor(v, 1) reads a lane of
// the same arm; votes count the warp's lanes in their arm (or the warp's
// survivors). Threads past n take part with v = 0; threads that returned
// leave out alone (sentinel) unless they are past n.
//
// Shapes: even block sizes, at most 1024.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 100x2:190
// @time 256x4096:1048576
#include "../../harness.h"

constexpr int kMaxBlock = 1024;

__global__ void crossWarp(const int *in, int *out, int n) {
  __shared__ int s[kMaxBlock];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int mirror = 2 * ((int)blockDim.x / 2 - 1 - t / 2);
  int v = i < n ? in[i] : 0;
  s[t] = v;
  __syncthreads();
  if (s[mirror] > 0) {
    v += __shfl_xor(v, 1) & 255;
  } else {
    v -= __popc(__ballot(v & 1));
  }
  __syncthreads();
  s[t] = v;
  __syncthreads();
  if (s[mirror] % 4 == 0)
    return;
  v += 1000 * __popc(__ballot(v & 2));
  if (i < n)
    out[i] = v;
}

static std::vector<int> reference(const std::vector<int> &in, const harness::Shape &s) {
  std::vector<int> out(s.n, harness::sentinel<int>());
  int B = s.blockSize, P = B / 2;
  for (int b = 0; b < s.numBlocks; ++b) {
    std::vector<int> v(B), first(B);
    for (int t = 0; t < B; ++t) {
      int i = b * B + t;
      v[t] = i < s.n ? in[i] : 0;
    }
    first = v;
    auto mirror = [&](int t) { return 2 * (P - 1 - t / 2); };
    int warps = harness::warpsPerBlock(B);
    std::vector<int> next(B);
    for (int w = 0; w < warps; ++w) {
      int lanes = harness::lanesInWarp(B, w);
      int odd = 0;
      for (int l = 0; l < lanes; ++l) {
        int t = w * 32 + l;
        if (!(first[mirror(t)] > 0) && (v[t] & 1))
          ++odd;
      }
      for (int l = 0; l < lanes; ++l) {
        int t = w * 32 + l;
        next[t] = first[mirror(t)] > 0 ? v[t] + (v[t ^ 1] & 255) : v[t] - odd;
      }
    }
    v = next;
    for (int w = 0; w < warps; ++w) {
      int lanes = harness::lanesInWarp(B, w);
      int twos = 0;
      for (int l = 0; l < lanes; ++l) {
        int t = w * 32 + l;
        if (v[mirror(t)] % 4 != 0 && (v[t] & 2))
          ++twos;
      }
      for (int l = 0; l < lanes; ++l) {
        int t = w * 32 + l;
        int i = b * B + t;
        if (v[mirror(t)] % 4 != 0 && i < s.n)
          out[i] = v[t] + 1000 * twos;
      }
    }
  }
  return out;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::require(s.blockSize % 2 == 0, "each lane's pair partner must exist");
  harness::require(s.blockSize <= kMaxBlock, "one slot per thread");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  std::vector<int> want = reference(in, s);
  harness::DeviceArray<int> dIn(in), dOut(s.n);
  return harness::run(s, {harness::expect("crossWarp", dOut, want)}, [&] {
    crossWarp<<<s.numBlocks, s.blockSize>>>(dIn.get(), dOut.get(), s.n);
  });
}
