// Sub-warp shuffles with the legacy width argument, straight-line in the
// kernel: groups of 8 lanes sum with __shfl_xor(v, k, 8) and take their first
// value with __shfl(v, 0, 8); groups of 16 find their maximum with
// __shfl_down(v, k, 16) and broadcast it with __shfl(m, 0, 16), and scan with
// __shfl_up(v, k, 16). A rewrite must keep each width.
//
// Shapes: block sizes are multiples of 16, so that every group of 16 lanes
// exists (48 does; 100 would leave a warp of 4 lanes, whose partners in the
// group do not exist). Threads past n take part with the value 0.
//
// @shapes 128x40:5000 48x100:4700 80x40:3100 16x200:3150
// @sanitize 48x2:90
// @time 256x4096:1048576
#include "../../harness.h"

__global__ void groupStats(const int *in, int *sum8, int *first8, int *max16, int *scan16, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int v = i < n ? in[i] : 0;

  int s = v;
  s += __shfl_xor(s, 4, 8);
  s += __shfl_xor(s, 2, 8);
  s += __shfl_xor(s, 1, 8);
  int f = __shfl(v, 0, 8);

  int m = v;
  m = max(m, __shfl_down(m, 8, 16));
  m = max(m, __shfl_down(m, 4, 16));
  m = max(m, __shfl_down(m, 2, 16));
  m = max(m, __shfl_down(m, 1, 16));
  m = __shfl(m, 0, 16);

  int p = v, t;
  t = __shfl_up(p, 1, 16);
  if ((lane & 15) >= 1) p += t;
  t = __shfl_up(p, 2, 16);
  if ((lane & 15) >= 2) p += t;
  t = __shfl_up(p, 4, 16);
  if ((lane & 15) >= 4) p += t;
  t = __shfl_up(p, 8, 16);
  if ((lane & 15) >= 8) p += t;

  if (i < n) {
    sum8[i] = s;
    first8[i] = f;
    max16[i] = m;
    scan16[i] = p;
  }
}

struct Expected {
  std::vector<int> sum8, first8, max16, scan16;
};

static Expected reference(const std::vector<int> &in, const harness::Shape &s) {
  Expected e{std::vector<int>(s.n), std::vector<int>(s.n), std::vector<int>(s.n),
             std::vector<int>(s.n)};
  auto value = [&](int i) { return i < s.n ? in[i] : 0; };
  for (int i = 0; i < s.n; ++i) {
    // Blocks are multiples of 16, so groups start at multiples of their width.
    int start8 = i - i % 8, start16 = i - i % 16;
    int sum = 0, max = value(start16), prefix = 0;
    for (int j = start8; j < start8 + 8; ++j)
      sum += value(j);
    for (int j = start16; j < start16 + 16; ++j)
      max = std::max(max, value(j));
    for (int j = start16; j <= i; ++j)
      prefix += value(j);
    e.sum8[i] = sum;
    e.first8[i] = value(start8);
    e.max16[i] = max;
    e.scan16[i] = prefix;
  }
  return e;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize % 16 == 0, "every group of 16 lanes must exist");
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  Expected want = reference(in, s);
  harness::DeviceArray<int> dIn(in), dSum8(s.n), dFirst8(s.n), dMax16(s.n), dScan16(s.n);
  return harness::run(s,
                      {harness::expect("sum8", dSum8, want.sum8),
                       harness::expect("first8", dFirst8, want.first8),
                       harness::expect("max16", dMax16, want.max16),
                       harness::expect("scan16", dScan16, want.scan16)},
                      [&] {
                        groupStats<<<s.numBlocks, s.blockSize>>>(dIn.get(), dSum8.get(),
                                                                 dFirst8.get(), dMax16.get(),
                                                                 dScan16.get(), s.n);
                      });
}
