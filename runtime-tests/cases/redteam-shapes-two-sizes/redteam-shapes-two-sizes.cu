// Red team, block shapes: one kernel, two launches in sight with different
// 2-D block sizes (item 1 of the change: each distinct size is modelled;
// item 3: a pair that meets across warps in ANY shape gets no __syncwarp()).
// Every launch has 128 threads: the harness's blockSize must be 128.
//
//  - halfRowSwap, launched dim3(32, 4) and dim3(64, 2): each thread stores
//    s[y][x], then reads s[y][x ^ (blockDim.x / 2)], the other half of its
//    row. In 32 x 4 the partner is x ^ 16, a lane of the same warp: a warp
//    race a __syncwarp() fixes. In 64 x 2 the partner is x ^ 32, which is
//    ALWAYS in the other warp of the row: in that shape every meeting of
//    the pair is across warps and none is within one. The model of 64 x 2
//    records a race only where two lanes of one warp meet, so it records
//    nothing for this pair, and the merged verdict is the 32 x 4 one:
//    "__syncwarp() between the accesses orders them".
//    warpfix: fixed, __syncwarp(0xffffffff) after the store (0 remain).
//    Verdict: WRONG for dim3(64, 2): thread 0 (warp 0, x=0, y=0) reads
//    s[0][32], which thread 32 (warp 1, x=32, y=0) writes, with only a
//    __syncwarp() between them; likewise thread 64 (warp 2, y=1) reads
//    s[1][32] of thread 96 (warp 3). racecheck on the rewritten program
//    (sanitize shape 128x2) should report the hazard; a __syncthreads() is
//    the fix. (The original has the same race: legacy lockstep never ordered
//    warps; what is wrong is the claim that the __syncwarp() fixed it.)
//  - rotateRow, launched dim3(32, 4) and dim3(16, 8): reads
//    s[y][(x + 1) % blockDim.x]. In both shapes the neighbour is in the
//    thread's own warp (a 16-wide row lies inside one warp): a warp race.
//    warpfix: fixed with __syncwarp(0xffffffff). Verdict: correct.
//  - linearTree, launched dim3(16, 8) and dim3(64, 2): a volatile tree sum
//    over the linear index t = y * blockDim.x + x, `if ((t & 31) < k)
//    s[t] += s[t + k]` for k = 16..1: within a warp in both shapes.
//    warpfix: fixed as listing 8 (read, __syncwarp, write, __syncwarp).
//    Verdict: correct (every lane of the warp reaches each barrier).
//
// What the legacy code computed: see the CPU reference (for halfRowSwap
// assuming the partner's store happened first, as the program means).
//
// After the red team: the 64 x 2 model records nothing for halfRowSwap's
// pair, but every model is now asked whether the pair meets across warps
// in its shape, and 64 x 2 says so: warpfix reports halfRowSwap without a
// fix ("threads of different warps meet through these accesses too ...
// in its launch with blocks of 64x2 threads"). rotateRow and linearTree
// are still fixed. expect.json records this.
//
// @shapes 128x40:5120 128x3:288 128x1:96
// @sanitize 128x2:256
// @time 128x8192:1048576
#include "../../harness.h"

__global__ void halfRowSwap(const int *in, int *out, int n) {
  __shared__ int s[8][64];
  int x = threadIdx.x, y = threadIdx.y;
  int i = blockIdx.x * blockDim.x * blockDim.y + y * blockDim.x + x;
  s[y][x] = i < n ? in[i] : 0;
  int r = s[y][x ^ (blockDim.x / 2)];
  if (i < n)
    out[i] = 3 * r + in[i];
}

__global__ void rotateRow(const int *in, int *out, int n) {
  __shared__ int s[8][32];
  int x = threadIdx.x, y = threadIdx.y;
  int i = blockIdx.x * blockDim.x * blockDim.y + y * blockDim.x + x;
  s[y][x] = i < n ? in[i] : 0;
  int r = s[y][(x + 1) % blockDim.x];
  if (i < n)
    out[i] = r - 2 * in[i];
}

__global__ void linearTree(const int *in, int *out, int n) {
  __shared__ volatile int s[128];
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  int i = blockIdx.x * blockDim.x * blockDim.y + t;
  s[t] = i < n ? in[i] : 0;
  if ((t & 31) < 16) s[t] += s[t + 16];
  if ((t & 31) < 8) s[t] += s[t + 8];
  if ((t & 31) < 4) s[t] += s[t + 4];
  if ((t & 31) < 2) s[t] += s[t + 2];
  if ((t & 31) < 1) s[t] += s[t + 1];
  if ((t & 31) == 0 && i < n)
    out[i / 32] = s[t];
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize == 128, "the launches fix 128 threads (32x4, 64x2, 16x8)");
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::require(s.n % 32 == 0, "whole warps of input for linearTree's outputs");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  auto value = [&](long long j) { return j < s.n ? in[j] : 0; };
  auto swapRef = [&](int bx) {
    std::vector<int> out(s.n);
    for (int i = 0; i < s.n; ++i) {
      int x = (i % 128) % bx;
      int partner = i - x + (x ^ (bx / 2));
      out[i] = 3 * value(partner) + in[i];
    }
    return out;
  };
  auto rotateRef = [&](int bx) {
    std::vector<int> out(s.n);
    for (int i = 0; i < s.n; ++i) {
      int x = (i % 128) % bx;
      out[i] = value(i - x + (x + 1) % bx) - 2 * in[i];
    }
    return out;
  };
  std::vector<int> tree(s.n / 32);
  for (int w = 0; w < s.n / 32; ++w) {
    int sum = 0;
    for (int l = 0; l < 32; ++l)
      sum += in[w * 32 + l];
    tree[w] = sum;
  }
  std::vector<int> wantSwap32 = swapRef(32), wantSwap64 = swapRef(64);
  std::vector<int> wantRot32 = rotateRef(32), wantRot16 = rotateRef(16);
  harness::DeviceArray<int> dIn(in), dSwap32(s.n), dSwap64(s.n), dRot32(s.n), dRot16(s.n),
      dTree16(s.n / 32), dTree64(s.n / 32);
  return harness::run(s,
                      {harness::expect("halfRowSwap32x4", dSwap32, wantSwap32),
                       harness::expect("halfRowSwap64x2", dSwap64, wantSwap64),
                       harness::expect("rotateRow32x4", dRot32, wantRot32),
                       harness::expect("rotateRow16x8", dRot16, wantRot16),
                       harness::expect("linearTree16x8", dTree16, tree),
                       harness::expect("linearTree64x2", dTree64, tree)},
                      [&] {
                        int nb = s.numBlocks;
                        halfRowSwap<<<nb, dim3(32, 4)>>>(dIn.get(), dSwap32.get(), s.n);
                        halfRowSwap<<<nb, dim3(64, 2)>>>(dIn.get(), dSwap64.get(), s.n);
                        rotateRow<<<nb, dim3(32, 4)>>>(dIn.get(), dRot32.get(), s.n);
                        rotateRow<<<nb, dim3(16, 8)>>>(dIn.get(), dRot16.get(), s.n);
                        linearTree<<<nb, dim3(16, 8)>>>(dIn.get(), dTree16.get(), s.n);
                        linearTree<<<nb, dim3(64, 2)>>>(dIn.get(), dTree64.get(), s.n);
                      });
}
