// Red team, block shapes: a warp race under a guard on threadIdx.y, in a
// kernel whose launches warpfix cannot see (it is launched through a kernel
// pointer, in blocks of 16 x 16, where `threadIdx.y == 0` is HALF of warp
// 0: lanes 0..15). warpfix models rows of 32 and 64 (and 1-D blocks).
//
//  - rowZeroPairs: under `if (threadIdx.y == 0)`, s[x] = v then reads
//    s[x ^ 1], a race between lanes x and x ^ 1 of one warp in every shape.
//    warpfix --fix: `const unsigned warpfix_mask_N = __ballot_sync(
//    0xffffffff, threadIdx.y == 0);` before the if, `__syncwarp(
//    warpfix_mask_N);` between the store and the read. That rewrite is
//    right for 16 x 16 (the ballot is 0x0000ffff in warp 0, and taken by
//    every lane before the branch) and for every other shape.
//  - BUT warpfix does not accept its own rewrite: analysed again, the
//    rewritten file still has the finding on `s[x] = ...` ("lanes of one
//    warp race ... a __syncwarp() between the accesses orders them"), so
//    `run.py prepare` fails this case with "warpfix --fix pass 1 fixed 1 of
//    1 findings, but the fixed file has 1: a fix introduced findings".
//    The same kernel and rewrite with the guard on threadIdx.x (x < 16), or
//    launched in sight with dim3(16, 16), is accepted: it is the models of
//    blocks of any shape with rows that do not see the ballot-masked
//    __syncwarp() as ordering the pair. Not a wrong fix, but a false report
//    on a correct program (a user who runs --fix again gets a second,
//    redundant __syncwarp()), in the new rows models.
//
// What the legacy code computed: s[x ^ 1] after every store of row 0; rows
// y > 0 leave out alone (sentinel).
//
// After the red team: no fix is written (the kernel names threadIdx.y and
// its launches are not in sight), so prepare no longer fails. The
// one-dimensional models now take threadIdx.y as 0 (a block of threads in
// x only), so the same rewrite written by hand is no longer reported.
//
// @shapes 256x40:10240 256x7:1700 256x1:256
// @sanitize 256x2:512
// @time 256x4096:1048576
#include "../../harness.h"

__global__ void rowZeroPairs(const int *in, int *out, int n) {
  __shared__ int s[64];
  int x = threadIdx.x;
  int i = blockIdx.x * blockDim.x * blockDim.y + threadIdx.y * blockDim.x + x;
  if (threadIdx.y == 0) {
    s[x] = i < n ? in[i] : 0;
    int r = s[x ^ 1];
    if (i < n)
      out[i] = r - in[i];
  }
}

typedef void (*Kernel)(const int *, int *, int);
static Kernel kernel = rowZeroPairs;

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize == 256, "blocks of 16 x 16");
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  auto value = [&](long long j) { return j < s.n ? in[j] : 0; };
  std::vector<int> want(s.n, harness::sentinel<int>());
  for (int i = 0; i < s.n; ++i) {
    int b = i / 256, t = i % 256, x = t % 16, y = t / 16;
    if (y == 0)
      want[i] = value(b * 256 + (x ^ 1)) - in[i];
  }
  harness::DeviceArray<int> dIn(in), dOut(s.n);
  return harness::run(s, {harness::expect("rowZeroPairs", dOut, want)}, [&] {
    kernel<<<s.numBlocks, dim3(16, s.blockSize / 16)>>>(dIn.get(), dOut.get(), s.n);
  });
}
