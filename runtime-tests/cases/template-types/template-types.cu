// Legacy shuffles in templates instantiated for int, float and double: a
// kernel template with a straight-line __shfl_xor butterfly, and a device
// function template that broadcasts lane 0 with __shfl. One spelling serves
// three overloads, so a rewrite must suit all three. The values are small
// integers, exact in every type.
//
// Shapes: block sizes are multiples of 32 (the butterfly reads all 32 lanes).
// Threads past n take part with 0.
//
// @shapes 128x40:5000 32x100:3190 256x12:3072 1024x3:2500
// @sanitize 64x2:100
// @time 256x4096:1048576
#include "../../harness.h"

template <typename T> __device__ T broadcastFirst(T v) { return __shfl(v, 0); }

template <typename T> __global__ void warpTotals(const T *in, T *total, T *first, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  T v = i < n ? in[i] : T(0);
  T f = broadcastFirst(v);
  v += __shfl_xor(v, 16);
  v += __shfl_xor(v, 8);
  v += __shfl_xor(v, 4);
  v += __shfl_xor(v, 2);
  v += __shfl_xor(v, 1);
  if (i < n) {
    total[i] = v;
    first[i] = f;
  }
}

template <typename T> struct Typed {
  std::vector<T> in, total, first;

  Typed(harness::Rng &rng, int n) : in(n), total(n), first(n) {
    for (T &x : in)
      x = (T)rng.range(-1000, 1000);
    for (int start = 0; start < n; start += 32) {
      T sum = 0;
      for (int i = start; i < std::min(start + 32, n); ++i)
        sum += in[i];
      for (int i = start; i < std::min(start + 32, n); ++i) {
        total[i] = sum;
        first[i] = in[start];
      }
    }
  }
};

// Checks all three instantiations in one run: one launch runs the three kernels.
int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize % 32 == 0, "the butterfly reads all 32 lanes");
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::Rng rng(s.seed);
  Typed<int> i32(rng, s.n);
  Typed<float> f32(rng, s.n);
  Typed<double> f64(rng, s.n);
  harness::DeviceArray<int> dInI(i32.in), dTotalI(s.n), dFirstI(s.n);
  harness::DeviceArray<float> dInF(f32.in), dTotalF(s.n), dFirstF(s.n);
  harness::DeviceArray<double> dInD(f64.in), dTotalD(s.n), dFirstD(s.n);
  return harness::run(s,
                      {harness::expect("total<int>", dTotalI, i32.total),
                       harness::expect("first<int>", dFirstI, i32.first),
                       harness::expect("total<float>", dTotalF, f32.total),
                       harness::expect("first<float>", dFirstF, f32.first),
                       harness::expect("total<double>", dTotalD, f64.total),
                       harness::expect("first<double>", dFirstD, f64.first)},
                      [&] {
                        warpTotals<int><<<s.numBlocks, s.blockSize>>>(
                            dInI.get(), dTotalI.get(), dFirstI.get(), s.n);
                        warpTotals<float><<<s.numBlocks, s.blockSize>>>(
                            dInF.get(), dTotalF.get(), dFirstF.get(), s.n);
                        warpTotals<double><<<s.numBlocks, s.blockSize>>>(
                            dInD.get(), dTotalD.get(), dFirstD.get(), s.n);
                      });
}
