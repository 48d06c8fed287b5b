// The CUDA SDK's reduction samples (reduce5/reduce6 after CUDA 5, and
// threadFenceReduction) end with a warp-synchronous tail that keeps the sum in
// a register and writes it back in the same statement that reads the
// neighbour: `smem[tid] = mySum = mySum + smem[tid + 16];`, through a volatile
// pointer, with no barrier. Lane t reads smem[t + 16] while lane t + 16 writes
// it. warpfix splits each statement as listing 8 of "Using CUDA Warp-Level Primitives" does, keeping the
// register mySum (issue 15, item 5). Each block writes its partial sum.
//
// Shapes: the block size is the template argument, a power of two from 64 to
// 512 (the tail reads smem[tid + 32]); n is anything.
//
// @shapes 128x40:100000 64x100:77777 256x16:8192 512x8:5000
// @sanitize 64x2:300
// @time 256x1024:4194304
#include "../../harness.h"

template <unsigned int blockSize>
__global__ void reduce5(const int *g_idata, int *g_odata, unsigned int n) {
  extern __shared__ int sdata[];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockSize * 2) + tid;
  unsigned int gridSize = blockSize * 2 * gridDim.x;
  int mySum = 0;
  while (i < n) {
    mySum += g_idata[i];
    if (i + blockSize < n)
      mySum += g_idata[i + blockSize];
    i += gridSize;
  }
  sdata[tid] = mySum;
  __syncthreads();

  if (blockSize >= 512) { if (tid < 256) { sdata[tid] = mySum = mySum + sdata[tid + 256]; } __syncthreads(); }
  if (blockSize >= 256) { if (tid < 128) { sdata[tid] = mySum = mySum + sdata[tid + 128]; } __syncthreads(); }
  if (blockSize >= 128) { if (tid < 64) { sdata[tid] = mySum = mySum + sdata[tid + 64]; } __syncthreads(); }

  if (tid < 32) {
    volatile int *smem = sdata;
    if (blockSize >= 64) smem[tid] = mySum = mySum + smem[tid + 32];
    if (blockSize >= 32) smem[tid] = mySum = mySum + smem[tid + 16];
    if (blockSize >= 16) smem[tid] = mySum = mySum + smem[tid + 8];
    if (blockSize >= 8) smem[tid] = mySum = mySum + smem[tid + 4];
    if (blockSize >= 4) smem[tid] = mySum = mySum + smem[tid + 2];
    if (blockSize >= 2) smem[tid] = mySum = mySum + smem[tid + 1];
  }
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

static void launch(const harness::Shape &s, const int *in, int *out) {
  size_t smem = s.blockSize * sizeof(int);
  switch (s.blockSize) {
  case 512: reduce5<512><<<s.numBlocks, 512, smem>>>(in, out, s.n); break;
  case 256: reduce5<256><<<s.numBlocks, 256, smem>>>(in, out, s.n); break;
  case 128: reduce5<128><<<s.numBlocks, 128, smem>>>(in, out, s.n); break;
  case 64: reduce5<64><<<s.numBlocks, 64, smem>>>(in, out, s.n); break;
  }
}

static std::vector<int> reference(const std::vector<int> &in, const harness::Shape &s) {
  long long gridSize = 2LL * s.blockSize * s.numBlocks;
  std::vector<int> partial(s.numBlocks, 0);
  for (int i = 0; i < s.n; ++i)
    partial[(i % gridSize) / (2 * s.blockSize)] += in[i];
  return partial;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize == 64 || s.blockSize == 128 || s.blockSize == 256 ||
                       s.blockSize == 512,
                   "blockSize is reduce5's template argument: 64, 128, 256 or 512");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  harness::DeviceArray<int> dIn(in), dOut(s.numBlocks);
  return harness::run(s, {harness::expect("partialSums", dOut, reference(in, s))},
                      [&] { launch(s, dIn.get(), dOut.get()); });
}
