// What warpfix does since: a pointer parameter that its function moves
// (`s += 32;`) points to an element of its argument's storage that it does
// not know: upper()'s read may meet any store to s, and the race is reported
// without a fix ("this access goes through a pointer parameter that its
// function moves, which warpfix does not follow"). Nothing is edited.
//
// Red team, following a name through a pointer parameter that the helper
// moves: `upper(const volatile int *s, int i) { s += 32; return s[i]; }`.
// warpfix resolves a parameter to the call's argument without checking that
// the helper assigns it, so it models `upper(mine, lane ^ 1)` as a read of
// mine[lane ^ 1] (the lower half) where it reads mine[32 + (lane ^ 1)].
//
// The kernel: put(mine, 32 + lane, v) (upper), a = upper(mine, lane ^ 1)
// (upper, a RAW race with the store: lane 1 writes upper[1], lane 0 reads
// it), put(mine, lane, a + 3 * v) (lower), b = mine[lane ^ 2].
// warpfix sees a race that is not there (the upper() read "meets" the
// lower store after it: its note points at `return s[i];`), misses the one
// that is, fixes, and says 1 finding fixed, 0 remain:
//      put(mine, 32 + lane, v);      // upper[lane] = v
//      int a = upper(mine, lane ^ 1); // upper[lane ^ 1]
//   +  __syncwarp(0xffffffff);
//      put(mine, lane, a + 3 * v);   // lower[lane]
//   +  __syncwarp(0xffffffff);
//      int b = mine[lane ^ 2];       // lower[lane ^ 2]
// WRONG (a false claim): nothing orders lane l ^ 1's store of
// upper[l ^ 1] (first put) before lane l's read of it in upper(). The
// barrier the fix needs is before `int a = ...`.
//
// What the legacy code computed: lockstep; out[i] = v[j ^ 1] + 3 * v[j],
// j = i ^ 2, 0 past n. Blocks are multiples of 4 (lanes ^ 1 and ^ 2 exist).
//
// Expected on the GPU: outputs match (converged warp); racecheck reports RAW
// hazards between `s[i] = v` (put) and `return s[i];` (upper) in the
// rewritten program, for which warpfix reports nothing left.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 48x2:90
// @time 256x4096:1048576
#include "../../harness.h"

constexpr int kMaxBlock = 1024;
constexpr int kMaxWarps = kMaxBlock / 32;

__device__ void put(volatile int *s, int i, int v) { s[i] = v; }
// The upper half of a warp's 64 slots: the pointer parameter is moved first.
__device__ int upper(const volatile int *s, int i) {
  s += 32;
  return s[i];
}

__global__ void upperPairs(const int *in, int *out, int n) {
  __shared__ int s[kMaxWarps * 64];
  int t = threadIdx.x, lane = t & 31;
  volatile int *mine = s + 64 * (t / 32); // lower[0..31], then upper[0..31]
  int i = blockIdx.x * blockDim.x + t;
  int v = i < n ? in[i] : 0;
  put(mine, 32 + lane, v);      // upper[lane] = v
  int a = upper(mine, lane ^ 1); // upper[lane ^ 1]
  put(mine, lane, a + 3 * v);   // lower[lane]
  int b = mine[lane ^ 2];       // lower[lane ^ 2]
  if (i < n)
    out[i] = b;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::require(s.blockSize % 4 == 0, "lanes ^ 1 and ^ 2 must exist");
  harness::require(s.blockSize <= kMaxBlock, "64 slots per warp");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000000, 1000000);
  auto value = [&](int j) { return j < s.n ? in[j] : 0; };
  std::vector<int> want(s.n);
  for (int i = 0; i < s.n; ++i) {
    int j = i ^ 2; // the lane whose lower slot i reads
    want[i] = value(j ^ 1) + 3 * value(j);
  }
  harness::DeviceArray<int> dIn(in), dOut(s.n);
  return harness::run(s, {harness::expect("upperPairs", dOut, want)}, [&] {
    upperPairs<<<s.numBlocks, s.blockSize>>>(dIn.get(), dOut.get(), s.n);
  });
}
