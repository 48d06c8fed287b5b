// An inclusive warp scan with the legacy __shfl_up, unrolled in the kernel as
// Kepler-era code often was (two calls keep a space before the parenthesis).
// Each lane reads a lower lane, which exists in every warp, partial or not,
// so blocks of 48 and 100 are defined. Threads past n scan a 0.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 100x2:190
// @time 256x4096:1048576
#include "../../harness.h"

__global__ void warpInclusiveScan(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int v = i < n ? in[i] : 0;
  int t;
  t = __shfl_up  (v, 1);
  if (lane >= 1) v += t;
  t = __shfl_up  (v, 2);
  if (lane >= 2) v += t;
  t = __shfl_up(v, 4);
  if (lane >= 4) v += t;
  t = __shfl_up(v, 8);
  if (lane >= 8) v += t;
  t = __shfl_up(v, 16);
  if (lane >= 16) v += t;
  if (i < n)
    out[i] = v;
}

static std::vector<int> reference(const std::vector<int> &in, const harness::Shape &s) {
  std::vector<int> out(s.n);
  int running = 0;
  for (int i = 0; i < s.n; ++i) {
    int t = i % s.blockSize;
    if (t % 32 == 0)
      running = 0;
    running += in[i];
    out[i] = running;
  }
  return out;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  harness::DeviceArray<int> dIn(in), dOut(s.n);
  return harness::run(s, {harness::expect("scan", dOut, reference(in, s))}, [&] {
    warpInclusiveScan<<<s.numBlocks, s.blockSize>>>(dIn.get(), dOut.get(), s.n);
  });
}
