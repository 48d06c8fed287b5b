// Red team, block shapes: kernels launched only through a table of kernel
// pointers, in blocks of 16 x 16 (rows of 16 threads: a warp holds two
// rows). Their addresses escape, so warpfix models blocks of any shape:
// 1-D 64 and 1024 and, since they name threadIdx.y, rows of 32 and 64,
// which its note says "stand for any row width that is a multiple of 32 or
// divides 32". 16 divides 32: every launch here is inside that claim.
//
//  - rowHalves: a flat tile indexed t = y * blockDim.x + x (the usual 2-D
//    -> 1-D mapping); each thread swaps with the other half of its
//    32-element segment, s[y * blockDim.x + (x ^ 16)]. In rows of 32 and 64
//    (and 1-D blocks) the partner is 16 lanes away in the same warp: a warp
//    race, which warpfix fixes. In rows of 16, x ^ 16 = x + 16 is the next
//    ROW: for even y the same warp, for odd y the next warp.
//    warpfix: fixed, __syncwarp(0xffffffff) after the store (0 remain).
//    Verdict: WRONG for dim3(16, 16): thread 16 (x=0, y=1, warp 0) reads
//    s[32], written by thread 32 (x=0, y=2, warp 1), ordered only by a
//    __syncwarp(); every odd row reads the next warp's first row. racecheck
//    on the rewritten program (sanitize 256x2) should report it.
//  - (transposeTile, tile[y][x] = v then tile[x][y] in 16 x 16, was here:
//    warpfix refused it, "threads of different warps meet through these
//    accesses too" (witness from its 32x2 model) -- correct. It is left out
//    because an unfixed shared-memory finding exempts the whole program from
//    racecheck in run.py, which would hide rowHalves' hazard.)
//  (A third kernel, a race under `if (threadIdx.y == 0)`, is in
//  redteam-shapes-ygate-ballot: warpfix's fix of it makes prepare fail.)
//
// What the legacy code computed: see the CPU reference (the stores before
// the reads, which is what the code means).
//
// After the red team: reported without a fix, as every kernel that names
// threadIdx.y and may be launched in blocks warpfix cannot see ("whether
// threads of different warps meet here depends on the width of the
// block's rows").
//
// @shapes 256x40:10240 256x7:1700 256x1:256
// @sanitize 256x2:512
// @time 256x4096:1048576
#include "../../harness.h"

__global__ void rowHalves(const int *in, int *out, int n) {
  __shared__ int s[1024];
  int x = threadIdx.x, y = threadIdx.y;
  int threads = blockDim.x * blockDim.y;
  int t = y * blockDim.x + x;
  int i = blockIdx.x * threads + t;
  s[t] = i < n ? in[i] : 0;
  int j = y * blockDim.x + (x ^ 16);
  int r = j < threads ? s[j] : 0;
  if (i < n)
    out[i] = 7 * r + in[i];
}

typedef void (*Kernel)(const int *, int *, int);
static Kernel kernels[1] = {rowHalves};

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize == 256, "blocks of 16 x 16");
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  auto value = [&](long long j) { return j < s.n ? in[j] : 0; };
  std::vector<int> wantHalves(s.n);
  for (int i = 0; i < s.n; ++i) {
    int b = i / 256, t = i % 256, x = t % 16, y = t / 16;
    int j = y * 16 + (x ^ 16);
    wantHalves[i] = 7 * (j < 256 ? value(b * 256 + j) : 0) + in[i];
  }
  harness::DeviceArray<int> dIn(in), dHalves(s.n);
  int *outs[1] = {dHalves.get()};
  return harness::run(s,
                      {harness::expect("rowHalves", dHalves, wantHalves)},
                      [&] {
                        dim3 block(16, s.blockSize / 16);
                        for (int k = 0; k < 1; ++k)
                          kernels[k]<<<s.numBlocks, block>>>(dIn.get(), outs[k], s.n);
                      });
}
