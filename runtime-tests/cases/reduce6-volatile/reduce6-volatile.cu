// The CUDA SDK's reduce6 (Harris, "Optimizing Parallel Reduction in CUDA"):
// a grid-stride load, a shared-memory tree with __syncthreads() down to 64
// values, then the last warp finishes without any barrier in
// warpReduce<blockSize>(volatile int *sdata, int tid), called from
// `if (tid < 32)`. It relies on the warp running in lockstep: lane t reads
// sdata[t + 16] while lane t + 16 writes it. racecheck reports it on an H100.
// No legacy intrinsic here: this case is for the
// shared-memory race check. Each block writes its partial sum.
//
// Shapes: the block size is the template argument, a power of two from 64 to
// 512 (warpReduce reads sdata[tid + 32]); n is anything.
//
// @shapes 128x40:100000 64x100:77777 256x16:8192 512x8:5000
// @sanitize 64x2:300
// @time 256x1024:4194304
#include "../../harness.h"

template <unsigned int blockSize>
__device__ void warpReduce(volatile int *sdata, unsigned int tid) {
  if (blockSize >= 64) sdata[tid] += sdata[tid + 32];
  if (blockSize >= 32) sdata[tid] += sdata[tid + 16];
  if (blockSize >= 16) sdata[tid] += sdata[tid + 8];
  if (blockSize >= 8) sdata[tid] += sdata[tid + 4];
  if (blockSize >= 4) sdata[tid] += sdata[tid + 2];
  if (blockSize >= 2) sdata[tid] += sdata[tid + 1];
}

template <unsigned int blockSize>
__global__ void reduce6(const int *g_idata, int *g_odata, unsigned int n) {
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

  if (blockSize >= 512) { if (tid < 256) { sdata[tid] += sdata[tid + 256]; } __syncthreads(); }
  if (blockSize >= 256) { if (tid < 128) { sdata[tid] += sdata[tid + 128]; } __syncthreads(); }
  if (blockSize >= 128) { if (tid < 64) { sdata[tid] += sdata[tid + 64]; } __syncthreads(); }

  if (tid < 32) warpReduce<blockSize>(sdata, tid);
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

static void launch(const harness::Shape &s, const int *in, int *out) {
  size_t smem = s.blockSize * sizeof(int);
  switch (s.blockSize) {
  case 512: reduce6<512><<<s.numBlocks, 512, smem>>>(in, out, s.n); break;
  case 256: reduce6<256><<<s.numBlocks, 256, smem>>>(in, out, s.n); break;
  case 128: reduce6<128><<<s.numBlocks, 128, smem>>>(in, out, s.n); break;
  case 64: reduce6<64><<<s.numBlocks, 64, smem>>>(in, out, s.n); break;
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
                   "blockSize is reduce6's template argument: 64, 128, 256 or 512");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  harness::DeviceArray<int> dIn(in), dOut(s.numBlocks);
  return harness::run(s, {harness::expect("partialSums", dOut, reference(in, s))},
                      [&] { launch(s, dIn.get(), dOut.get()); });
}
