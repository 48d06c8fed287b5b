// Using CUDA Warp-Level Primitives, listing 13, in a form with defined behaviour. The listing's odd
// branch reads lane 0 with the legacy __shfl, but lane 0 takes the other
// branch, so the value is undefined. Here each branch reads the first lane of
// its own side (lane 1 for odd lanes, lane 0 for even ones), which is active
// in that branch, and keeps the listing's __syncwarp() pairs around the
// shuffles: on Volta and later, the __syncwarp() of both branches meet.
//
// Shapes: any block size; a partial warp of 48 or 100 still has lanes 0 and 1.
// Threads past n take part with the value 0 and write nothing.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 33x50:1600
// @sanitize 100x2:190
// @time 256x4096:1048576
#include "../../harness.h"

__device__ __forceinline__ int foo(int x) { return 3 * x + 1; }

__global__ void pairBroadcast(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = foo(i < n ? in[i] : 0);
  if (threadIdx.x % 2) {
    __syncwarp();
    v = v + __shfl(v, 1);
    __syncwarp();
  } else {
    __syncwarp();
    v = v - __shfl(v, 0);
    __syncwarp();
  }
  if (i < n)
    out[i] = v;
}

static std::vector<int> reference(const std::vector<int> &in, const harness::Shape &s) {
  auto value = [&](int i) { return 3 * (i < s.n ? in[i] : 0) + 1; };
  std::vector<int> out(s.n);
  for (int i = 0; i < s.n; ++i) {
    int t = i % s.blockSize;
    int warpStart = i - t % 32;
    out[i] = t % 2 ? value(i) + value(warpStart + 1) : value(i) - value(warpStart);
  }
  return out;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  harness::DeviceArray<int> dIn(in), dOut(s.n);
  return harness::run(s, {harness::expect("out", dOut, reference(in, s))}, [&] {
    pairBroadcast<<<s.numBlocks, s.blockSize>>>(dIn.get(), dOut.get(), s.n);
  });
}
