// The predicated warp scan of old CUB and the CUDA Handbook, in inline PTX:
// `shfl.up.b32 r0|p` fetches the value `offset` lanes below and sets p where
// that lane is in range, `@p add` adds it, in a device function whose only
// job is the PTX, called with offsets 1 to 16. Each lane reads a lower lane,
// which exists in every warp, partial or not, so blocks of 48 and 100 are
// defined. Threads past n scan a 0.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 100x2:190
// @time 256x4096:1048576
#include "../../harness.h"

__device__ int scanStep(int partial, int offset) {
  int result;
  asm("{ .reg .u32 r0; .reg .pred p;"
      "  shfl.up.b32 r0|p, %1, %2, 0;"
      "  @p add.u32 r0, r0, %3;"
      "  mov.u32 %0, r0; }" : "=r"(result) : "r"(partial), "r"(offset), "r"(partial));
  return result;
}

__global__ void warpInclusiveScan(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  for (int offset = 1; offset < 32; offset *= 2)
    v = scanStep(v, offset);
  if (i < n)
    out[i] = v;
}

static std::vector<int> reference(const std::vector<int> &in, const harness::Shape &s) {
  std::vector<int> out(s.n);
  int running = 0;
  for (int i = 0; i < s.n; ++i) {
    if (i % s.blockSize % 32 == 0)
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
