// 64-bit legacy shuffles, straight-line in the kernel: a long long butterfly
// sum with __shfl_xor, a double tree sum with __shfl_down broadcast with
// __shfl, and an unsigned long long shift with __shfl_up. A 64-bit shuffle is
// two 32-bit ones, so the values use both halves: long longs up to 2^40 and
// doubles that are multiples of 1/4 up to 2^38, whose sums are exact.
//
// Shapes: block sizes are multiples of 32 (the butterfly and the tree read all
// 32 lanes). Threads past n take part with 0.
//
// @shapes 128x40:5000 32x100:3190 256x12:3072 1024x3:2500
// @sanitize 64x2:100
// @time 256x4096:1048576
#include "../../harness.h"

__global__ void wideShuffles(const long long *a, const double *b, long long *sumA,
                             double *sumB, unsigned long long *shifted, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  long long x = i < n ? a[i] : 0;
  double y = i < n ? b[i] : 0.0;

  x += __shfl_xor(x, 16);
  x += __shfl_xor(x, 8);
  x += __shfl_xor(x, 4);
  x += __shfl_xor(x, 2);
  x += __shfl_xor(x, 1);

  y += __shfl_down(y, 16);
  y += __shfl_down(y, 8);
  y += __shfl_down(y, 4);
  y += __shfl_down(y, 2);
  y += __shfl_down(y, 1);
  y = __shfl(y, 0);

  unsigned long long z = (unsigned long long)x ^ ((unsigned long long)i << 40);
  z = __shfl_up(z, 1);

  if (i < n) {
    sumA[i] = x;
    sumB[i] = y;
    shifted[i] = z;
  }
}

struct Expected {
  std::vector<long long> sumA;
  std::vector<double> sumB;
  std::vector<unsigned long long> shifted;
};

static Expected reference(const std::vector<long long> &a, const std::vector<double> &b,
                          const harness::Shape &s) {
  Expected e{std::vector<long long>(s.n), std::vector<double>(s.n),
             std::vector<unsigned long long>(s.n)};
  for (int start = 0; start < s.n; start += 32) {
    long long x = 0;
    double y = 0;
    for (int i = start; i < std::min(start + 32, s.n); ++i) {
      x += a[i];
      y += b[i];
    }
    for (int i = start; i < std::min(start + 32, s.n); ++i) {
      e.sumA[i] = x;
      e.sumB[i] = y;
      // Lane 0 keeps its own value; every other lane gets its lower neighbour's.
      int from = i % 32 ? i - 1 : i;
      e.shifted[i] = (unsigned long long)x ^ ((unsigned long long)from << 40);
    }
  }
  return e;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize % 32 == 0, "the butterfly and the tree read all 32 lanes");
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::Rng rng(s.seed);
  std::vector<long long> a(s.n);
  std::vector<double> b(s.n);
  for (int i = 0; i < s.n; ++i) {
    a[i] = rng.range(-(1LL << 40), 1LL << 40);
    b[i] = (double)rng.range(-(1LL << 40), 1LL << 40) * 0.25;
  }
  Expected want = reference(a, b, s);
  harness::DeviceArray<long long> dA(a), dSumA(s.n);
  harness::DeviceArray<double> dB(b), dSumB(s.n);
  harness::DeviceArray<unsigned long long> dShifted(s.n);
  return harness::run(s,
                      {harness::expect("sumA", dSumA, want.sumA),
                       harness::expect("sumB", dSumB, want.sumB),
                       harness::expect("shifted", dShifted, want.shifted)},
                      [&] {
                        wideShuffles<<<s.numBlocks, s.blockSize>>>(dA.get(), dB.get(),
                                                                   dSumA.get(), dSumB.get(),
                                                                   dShifted.get(), s.n);
                      });
}
