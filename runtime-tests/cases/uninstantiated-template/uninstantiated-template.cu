// Issue 15, item 7: a library's kernel template that nothing warpfix analyses
// instantiates. Its users instantiate it; here the launches, like a user's
// translation unit, are compiled by nvcc only (`#ifdef __NVCC__`), so warpfix
// sees the template as written and fixes it there, once for every type: a
// __shfl_down reduction and a __shfl broadcast reached by every lane (full
// mask), and a __shfl_xor in the low half of each warp (a ballot of the
// branch). The values are small integers, exact in every type.
//
// Shapes: block sizes are multiples of 32 (the reduction reads all 32 lanes).
// Threads past n take part with 0.
//
// @shapes 128x40:5000 32x100:3190 256x12:3072 1024x3:2500
// @sanitize 64x2:100
// @time 256x4096:1048576
#include "../../harness.h"

template <typename T>
__global__ void warpSums(const T *in, T *total, T *lowPair, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  T v = i < n ? in[i] : T(0);
  T w = v;
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down(v, offset);
  v = __shfl(v, 0);
  if (threadIdx.x % 32 < 16) {
    w += __shfl_xor(w, 1);
  }
  if (i < n) {
    total[i] = v;
    lowPair[i] = w;
  }
}

#ifdef __NVCC__
template <typename T> struct Typed {
  std::vector<T> in, total, lowPair;

  Typed(harness::Rng &rng, int n) : in(n), total(n), lowPair(n) {
    for (T &x : in)
      x = (T)rng.range(-1000, 1000);
    auto at = [&](int i) { return i < n ? in[i] : T(0); };
    for (int start = 0; start < n; start += 32) {
      T sum = 0;
      for (int i = start; i < std::min(start + 32, n); ++i)
        sum += in[i];
      for (int i = start; i < std::min(start + 32, n); ++i) {
        total[i] = sum;
        lowPair[i] = (i - start) < 16 ? T(at(i) + at(i ^ 1)) : in[i];
      }
    }
  }
};

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize % 32 == 0, "the reduction reads all 32 lanes");
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::Rng rng(s.seed);
  Typed<int> i32(rng, s.n);
  Typed<float> f32(rng, s.n);
  Typed<double> f64(rng, s.n);
  harness::DeviceArray<int> dInI(i32.in), dTotalI(s.n), dPairI(s.n);
  harness::DeviceArray<float> dInF(f32.in), dTotalF(s.n), dPairF(s.n);
  harness::DeviceArray<double> dInD(f64.in), dTotalD(s.n), dPairD(s.n);
  return harness::run(s,
                      {harness::expect("total<int>", dTotalI, i32.total),
                       harness::expect("lowPair<int>", dPairI, i32.lowPair),
                       harness::expect("total<float>", dTotalF, f32.total),
                       harness::expect("lowPair<float>", dPairF, f32.lowPair),
                       harness::expect("total<double>", dTotalD, f64.total),
                       harness::expect("lowPair<double>", dPairD, f64.lowPair)},
                      [&] {
                        warpSums<int><<<s.numBlocks, s.blockSize>>>(
                            dInI.get(), dTotalI.get(), dPairI.get(), s.n);
                        warpSums<float><<<s.numBlocks, s.blockSize>>>(
                            dInF.get(), dTotalF.get(), dPairF.get(), s.n);
                        warpSums<double><<<s.numBlocks, s.blockSize>>>(
                            dInD.get(), dTotalD.get(), dPairD.get(), s.n);
                      });
}
#endif
