// A central difference out[i] = in[i+1] - in[i-1] whose neighbours come from
// the legacy __shfl_down and __shfl_up, after the usual early return on
// i >= n. A lane at the edge of what is present (lane 31, the last thread of
// the block, the last element) has no right neighbour in the warp, and lane 0
// has no left one: those read memory instead, and the undefined shuffle
// result is dropped.
//
// Shapes: any block size; 48 and 100 give partial warps, and n cuts the last
// warp short.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 100x2:190
// @time 256x4096:1048576
#include "../../harness.h"

__global__ void centralDifference(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int lane = threadIdx.x % 32;
  int v = in[i];
  int right = __shfl_down(v, 1);
  int left = __shfl_up(v, 1);
  if (lane == 31 || threadIdx.x == blockDim.x - 1 || i + 1 == n)
    right = i + 1 < n ? in[i + 1] : 0;
  if (lane == 0)
    left = i > 0 ? in[i - 1] : 0;
  out[i] = right - left;
}

static std::vector<int> reference(const std::vector<int> &in, const harness::Shape &s) {
  long long covered = std::min<long long>((long long)s.blockSize * s.numBlocks, s.n);
  std::vector<int> out(s.n, harness::sentinel<int>());
  for (int i = 0; i < covered; ++i)
    out[i] = (i + 1 < s.n ? in[i + 1] : 0) - (i > 0 ? in[i - 1] : 0);
  return out;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  harness::DeviceArray<int> dIn(in), dOut(s.n);
  return harness::run(s, {harness::expect("out", dOut, reference(in, s))}, [&] {
    centralDifference<<<s.numBlocks, s.blockSize>>>(dIn.get(), dOut.get(), s.n);
  });
}
