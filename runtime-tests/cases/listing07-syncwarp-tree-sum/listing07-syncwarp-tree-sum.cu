// Using CUDA Warp-Level Primitives, listing 7: a shared-memory tree sum with __syncwarp() after each
// step, which is still a race: within a step, lane t reads shmem[t + 8] while
// lane t + 8 writes it. The listing works when the warp runs in lockstep; the
// fix (listing 8) reads, syncs, writes, syncs. No legacy intrinsic here: this
// case is for the shared-memory race check.
//
// Each warp has its own 48-slot row: 32 values and 16 zeros for the reads of
// shmem[tid + 16]. The block first zeroes every row, so the slots of lanes a
// partial warp does not have read as 0, and blocks of 48 and 100 are defined.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 48x2:90
// @time 256x4096:1048576
#include "../../harness.h"

constexpr int kMaxWarps = 32;

__global__ void warpTreeSums(const int *in, int *sums, int n) {
  __shared__ int shmem[kMaxWarps][48];
  for (int k = threadIdx.x; k < kMaxWarps * 48; k += blockDim.x)
    shmem[k / 48][k % 48] = 0;
  __syncthreads();

  unsigned warp = threadIdx.x / 32;
  unsigned tid = threadIdx.x % 32;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  shmem[warp][tid] = i < n ? in[i] : 0;
  __syncwarp();

  shmem[warp][tid] += shmem[warp][tid + 16]; __syncwarp();
  shmem[warp][tid] += shmem[warp][tid + 8];  __syncwarp();
  shmem[warp][tid] += shmem[warp][tid + 4];  __syncwarp();
  shmem[warp][tid] += shmem[warp][tid + 2];  __syncwarp();
  shmem[warp][tid] += shmem[warp][tid + 1];  __syncwarp();

  if (tid == 0)
    sums[blockIdx.x * ((blockDim.x + 31) / 32) + warp] = shmem[warp][0];
}

static std::vector<int> reference(const std::vector<int> &in, const harness::Shape &s) {
  int warps = harness::warpsPerBlock(s.blockSize);
  std::vector<int> sums(s.numBlocks * warps, 0);
  for (int b = 0; b < s.numBlocks; ++b)
    for (int t = 0; t < s.blockSize; ++t) {
      int i = b * s.blockSize + t;
      sums[b * warps + t / 32] += i < s.n ? in[i] : 0;
    }
  return sums;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  harness::DeviceArray<int> dIn(in), dSums(s.numBlocks * harness::warpsPerBlock(s.blockSize));
  return harness::run(s, {harness::expect("sums", dSums, reference(in, s))}, [&] {
    warpTreeSums<<<s.numBlocks, s.blockSize>>>(dIn.get(), dSums.get(), s.n);
  });
}
