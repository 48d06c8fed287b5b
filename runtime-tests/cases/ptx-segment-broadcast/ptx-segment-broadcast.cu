// A broadcast within segments of a warp, in inline PTX: `shfl.idx.b32` with
// the segment width in its c operand, ((32 - width) << 8) | 0x1f, as old
// __shfl(var, srcLane, width) compiled. Each lane gets the value of lane `src`
// of its segment, for widths 4, 8 and 16 (sources 3, 5 and 9). Source lanes
// exist in every segment of a whole warp; the last warp of a block of 48 (16
// lanes) or 100 (4 lanes) holds whole segments of 4, and in it the 8 and 16
// segments' sources are lanes 5 and 9, which exist for 48 but not for 100.
// So: whole warps, and 48.
//
// @shapes 128x40:5000 48x100:4700 1024x3:3000
// @sanitize 48x2:90
// @time 256x4096:1048576
#include "../../harness.h"

__device__ int segmentBroadcast(int v, int src, int width) {
  int r;
  asm volatile("shfl.idx.b32 %0, %1, %2, %3;"
               : "=r"(r) : "r"(v), "r"(src), "r"(((32 - width) << 8) | 0x1f));
  return r;
}

__global__ void broadcasts(const int *in, int *out4, int *out8, int *out16, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  int b4 = segmentBroadcast(v, 3, 4);
  int b8 = segmentBroadcast(v, 5, 8);
  int b16 = segmentBroadcast(v, 9, 16);
  if (i < n) {
    out4[i] = b4;
    out8[i] = b8;
    out16[i] = b16;
  }
}

static std::vector<int> reference(const std::vector<int> &in, const harness::Shape &s,
                                  int src, int width) {
  std::vector<int> out(s.n);
  for (int i = 0; i < s.n; ++i) {
    int t = i % s.blockSize;
    int from = i - t % width + src; // same block, same warp: t - t % width is the segment
    out[i] = from < s.n ? in[from] : 0;
  }
  return out;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::require(s.blockSize % 32 == 0 || s.blockSize % 32 >= 16,
                   "the last warp must hold lane 9, the source of the widest segment");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  harness::DeviceArray<int> dIn(in), d4(s.n), d8(s.n), d16(s.n);
  return harness::run(s,
                      {harness::expect("width4", d4, reference(in, s, 3, 4)),
                       harness::expect("width8", d8, reference(in, s, 5, 8)),
                       harness::expect("width16", d16, reference(in, s, 9, 16))},
                      [&] {
                        broadcasts<<<s.numBlocks, s.blockSize>>>(dIn.get(), d4.get(), d8.get(),
                                                                 d16.get(), s.n);
                      });
}
