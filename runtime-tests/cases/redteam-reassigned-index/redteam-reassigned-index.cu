// What warpfix does since the fix of these blind spots: both kernels are
// fixed. A local is followed from statement to statement (`t ^= 1;` after
// its declaration gives it a value that the accesses after it use), so
// swappedAssigned's race is reported and fixed like swappedConst's;
// racecheck finds none in the rewritten program (H200).
//
// Red team: a shared-memory race that warpfix does not report once the index
// variable is assigned after its declaration. Both kernels sum each warp's
// values with the legacy warp-synchronous tree `if (lane < 16) s[t] +=
// s[t + 16]; ...` (no barrier, lockstep assumed), each lane working on the
// slot of its pair partner (t = threadIdx.x ^ 1, an interleaved layout).
// swappedConst computes t in its declaration: warpfix reports the race and
// fixes it (the listing-8 chain). swappedAssigned computes the same t with
// `t ^= 1` after the declaration: warpfix reports nothing for it, so after
// --fix it says "0 remain" while swappedAssigned keeps its race, for
// racecheck to find.
//
// What the legacy code computed: each warp's sum of its in-range values
// (0 for threads past n; 16 zeroed padding slots past the block serve the
// s[t + 16] reads of a partial warp), written by lane 1 of each warp (slot
// 0 is lane 1's). Blocks must be even-sized so that every lane's partner exists.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 48x2:90
// @time 256x4096:1048576
#include "../../harness.h"

constexpr int kMaxBlock = 1024;

__global__ void swappedConst(const int *in, int *sums, int n) {
  __shared__ int sdata[kMaxBlock + 16];
  for (int k = threadIdx.x; k < kMaxBlock + 16; k += blockDim.x)
    sdata[k] = 0;
  __syncthreads();
  volatile int *s = sdata;
  unsigned t = threadIdx.x ^ 1;
  unsigned lane = threadIdx.x % 32;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[t] = i < n ? in[i] : 0;
  if (lane < 16) s[t] += s[t + 16];
  if (lane < 8) s[t] += s[t + 8];
  if (lane < 4) s[t] += s[t + 4];
  if (lane < 2) s[t] += s[t + 2];
  if (lane < 2) s[t] += s[t ^ 1];
  if (lane == 1)
    sums[blockIdx.x * ((blockDim.x + 31) / 32) + threadIdx.x / 32] = s[t];
}

__global__ void swappedAssigned(const int *in, int *sums, int n) {
  __shared__ int sdata[kMaxBlock + 16];
  for (int k = threadIdx.x; k < kMaxBlock + 16; k += blockDim.x)
    sdata[k] = 0;
  __syncthreads();
  volatile int *s = sdata;
  unsigned t = threadIdx.x;
  t ^= 1;
  unsigned lane = threadIdx.x % 32;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[t] = i < n ? in[i] : 0;
  if (lane < 16) s[t] += s[t + 16];
  if (lane < 8) s[t] += s[t + 8];
  if (lane < 4) s[t] += s[t + 4];
  if (lane < 2) s[t] += s[t + 2];
  if (lane < 2) s[t] += s[t ^ 1];
  if (lane == 1)
    sums[blockIdx.x * ((blockDim.x + 31) / 32) + threadIdx.x / 32] = s[t];
}

static std::vector<int> reference(const std::vector<int> &in, const harness::Shape &s) {
  int warps = harness::warpsPerBlock(s.blockSize);
  std::vector<int> sums(s.numBlocks * warps);
  for (int b = 0; b < s.numBlocks; ++b)
    for (int w = 0; w < warps; ++w) {
      int sum = 0;
      for (int l = 0; l < harness::lanesInWarp(s.blockSize, w); ++l) {
        int i = b * s.blockSize + w * 32 + l;
        sum += i < s.n ? in[i] : 0;
      }
      sums[b * warps + w] = sum;
    }
  return sums;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::require(s.blockSize % 2 == 0, "each lane uses its pair partner's slot");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  std::vector<int> want = reference(in, s);
  int warps = s.numBlocks * harness::warpsPerBlock(s.blockSize);
  harness::DeviceArray<int> dIn(in), dConst(warps), dAssigned(warps);
  return harness::run(s,
                      {harness::expect("swappedConst", dConst, want),
                       harness::expect("swappedAssigned", dAssigned, want)},
                      [&] {
                        swappedConst<<<s.numBlocks, s.blockSize>>>(dIn.get(), dConst.get(), s.n);
                        swappedAssigned<<<s.numBlocks, s.blockSize>>>(dIn.get(), dAssigned.get(),
                                                                      s.n);
                      });
}
