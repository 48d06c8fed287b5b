// What warpfix does since: a barrier's mask that is not a constant is
// evaluated for each thread (here each half-warp's own mask), and orders,
// for that thread, only the lanes of its value. The put/get(s, t ^ 16) race
// is seen, and the fix puts a __syncwarp(0xffffffff) before `int partner`
// as well. Races of one helper's access from different kernel statements
// are told apart too (before, the second put/get pair was folded into the
// first). 1 finding, fixed, 0 remain.
//
// Red team, a helper with its own barrier: `syncLanes(unsigned mask) {
// __syncwarp(mask); }`, called once as
// `syncLanes(lane < 16 ? 0x0000ffffu : 0xffff0000u)`: each half of the warp
// synchronises only with itself. warpfix's barrier model reads the mask
// with a constant evaluation of the argument of __syncwarp; a parameter is
// no constant, so it falls back to the full mask and takes the call for a
// barrier of the whole warp. The store of `put(s, t, v)` before it is then
// ordered, in its model, with the read `get(s, t ^ 16)` after it, which
// reads the element of a lane of the OTHER half: a real race (lane 16
// writes s[16], lane 0 reads it; no barrier names both).
//
// warpfix reports only the later races (the WAR of get(s, t ^ 16) with the
// second put, and the RAW of that put with get(s, t ^ 1)), fixes them, and
// says 1 finding fixed, 0 remain:
//      put(s, t, v);
//      syncLanes(lane < 16 ? 0x0000ffffu : 0xffff0000u);
//      int partner = get(s, t ^ 16);
//   +  __syncwarp(0xffffffff);
//      put(s, t, lane < 16 ? v + partner : partner - v);
//   +  __syncwarp(0xffffffff);
//      int next = get(s, t ^ 1);
// WRONG (a false claim): the first put (lane l + 16 writes s[l + 16]) and
// `get(s, t ^ 16)` (lane l reads s[l + 16]) are still ordered by nothing
// in the rewritten program. The same mask written as a constant at two call
// sites (`if (lane < 16) __syncwarp(0xffff); else ...`) is modelled right.
//
// What the legacy code computed: lockstep, a butterfly between the halves
// of each warp (lane l < 16: own + partner, else partner - own), then each
// lane takes its pair neighbour's (lane ^ 1) result. Blocks are multiples of
// 32 (every partner exists; each half's mask is whole).
//
// Expected on the GPU: outputs match (the warp is converged); racecheck
// reports RAW hazards between put (line of `s[i] = v`) and get in the
// rewritten program, for which warpfix reports nothing left.
//
// @shapes 128x40:5000 64x80:5000 1024x3:3000
// @sanitize 64x2:120
// @time 256x4096:1048576
#include "../../harness.h"

constexpr int kMaxBlock = 1024;

// Synchronises the lanes of `mask`: each half of the warp passes its own.
__device__ void syncLanes(unsigned mask) { __syncwarp(mask); }
__device__ void put(volatile int *s, int i, int v) { s[i] = v; }
__device__ int get(const volatile int *s, int i) { return s[i]; }

// A radix-2 butterfly between the halves of each warp, then a pair swap.
__global__ void halfButterfly(const int *in, int *out, int n) {
  __shared__ int s[kMaxBlock];
  int t = threadIdx.x, lane = t & 31;
  int i = blockIdx.x * blockDim.x + t;
  int v = i < n ? in[i] : 0;
  put(s, t, v);
  syncLanes(lane < 16 ? 0x0000ffffu : 0xffff0000u);
  int partner = get(s, t ^ 16);
  put(s, t, lane < 16 ? v + partner : partner - v);
  int next = get(s, t ^ 1);
  if (i < n)
    out[i] = next;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::require(s.blockSize % 32 == 0, "every lane's partner in the other half must exist");
  harness::require(s.blockSize <= kMaxBlock, "one slot per thread");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000000, 1000000);
  auto value = [&](int j) { return j < s.n ? in[j] : 0; };
  auto butterfly = [&](int j) {
    return (j & 31) < 16 ? value(j) + value(j ^ 16) : value(j ^ 16) - value(j);
  };
  std::vector<int> want(s.n);
  for (int i = 0; i < s.n; ++i)
    want[i] = butterfly(i ^ 1);
  harness::DeviceArray<int> dIn(in), dOut(s.n);
  return harness::run(s, {harness::expect("halfButterfly", dOut, want)}, [&] {
    halfButterfly<<<s.numBlocks, s.blockSize>>>(dIn.get(), dOut.get(), s.n);
  });
}
