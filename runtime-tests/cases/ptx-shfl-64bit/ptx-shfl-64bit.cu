// 64-bit shuffles made of two 32-bit PTX shuffles, as old CUB's ShuffleDown
// did for double and long long: the value is split into halves, each half is
// shuffled, and the halves are joined again, two instructions in one asm
// statement. A shuffle-down tree sums each warp; lane 0 writes the sum. The
// tree reads every lane of the warp, so blocks are whole warps. The doubles
// are integers, so that every order of summation gives the same bits.
//
// @shapes 128x40:5120 32x64:2048 1024x3:3072
// @sanitize 64x2:128
// @time 256x4096:1048576
#include "../../harness.h"

__device__ long long shuffleDown64(long long v, int delta) {
  long long r;
  asm("{ .reg .b32 lo, hi;"
      "  mov.b64 {lo, hi}, %1;"
      "  shfl.down.b32 lo, lo, %2, 0x1f;"
      "  shfl.down.b32 hi, hi, %2, 0x1f;"
      "  mov.b64 %0, {lo, hi}; }" : "=l"(r) : "l"(v), "r"(delta));
  return r;
}

__device__ double shuffleDown64(double v, int delta) {
  double r;
  asm("{ .reg .b32 lo, hi;\n\t"
      "mov.b64 {lo, hi}, %1;\n\t"
      "shfl.down.b32 lo, lo, %2, 0x1f;\n\t"
      "shfl.down.b32 hi, hi, %2, 0x1f;\n\t"
      "mov.b64 %0, {lo, hi}; }" : "=d"(r) : "d"(v), "r"(delta));
  return r;
}

__global__ void warpSums(const long long *in, long long *sumsL, double *sumsD, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  long long l = i < n ? in[i] : 0;
  double d = (double)l;
  for (int delta = 16; delta > 0; delta /= 2) {
    l += shuffleDown64(l, delta);
    d += shuffleDown64(d, delta);
  }
  if (threadIdx.x % 32 == 0) {
    sumsL[i / 32] = l;
    sumsD[i / 32] = d;
  }
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize % 32 == 0, "the shuffle tree reads all 32 lanes of a warp");
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  int warps = s.numBlocks * s.blockSize / 32;
  harness::Rng rng(s.seed);
  std::vector<long long> in(s.n);
  // Large values, so that the high halves matter; small enough that a warp's
  // sum stays exact as a double.
  for (long long &x : in)
    x = rng.range(-(1ll << 45), 1ll << 45);
  std::vector<long long> wantL(warps, 0);
  std::vector<double> wantD(warps, 0);
  for (int i = 0; i < s.n; ++i)
    wantL[i / 32] += in[i];
  for (int w = 0; w < warps; ++w)
    wantD[w] = (double)wantL[w];
  harness::DeviceArray<long long> dIn(in), dL(warps);
  harness::DeviceArray<double> dD(warps);
  return harness::run(s, {harness::expect("sumsLongLong", dL, wantL),
                          harness::expect("sumsDouble", dD, wantD)},
                      [&] {
                        warpSums<<<s.numBlocks, s.blockSize>>>(dIn.get(), dL.get(), dD.get(),
                                                               s.n);
                      });
}
