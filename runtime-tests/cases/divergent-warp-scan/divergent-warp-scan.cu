// Issue 15, item 5: a warp scan whose every step reads a neighbour's element
// into a register and writes the register back to the lane's own element,
// under a lane condition: `if (lane >= k) { t += s[-k]; s[0] = t; }`. Legacy
// code wrote it so, through a volatile pointer to the lane's own element, and
// relied on the warp running in lockstep: lane l + k reads s[l] while lane l
// writes it in the same step. A __syncwarp() cannot stay inside the branch,
// which lanes below k skip, so warpfix splits each step with its barriers
// outside: read under the condition, __syncwarp(), write under the condition,
// __syncwarp() (Using CUDA Warp-Level Primitives, listings 7 and 8).
//
// scanInclusive calls a device function template with k = 1..16 unrolled;
// scanExclusive calls another that, after the last step, reads the
// neighbour's element for the exclusive result, on floats holding small
// integers (sums are exact); scanLoop loops over k after a store with no
// barrier, through a volatile pointer: legacy code needed one (a plain array
// let the original keep stale values on an H100, and compute another scan).
//
// What the legacy code computed: each warp's inclusive scan (threads past n
// hold 0), and its exclusive scan. Every block size is defined: a partial
// warp's lanes read only lanes below them.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 48x2:90
// @time 256x4096:1048576
#include "../../harness.h"

constexpr int kMaxBlock = 1024;

template <class T>
__device__ T scanWarpInclusive(volatile T *s) {
  const int lane = threadIdx.x & 31;
  T t = s[0];
  if (lane >= 1) { t += s[-1]; s[0] = t; }
  if (lane >= 2) { t += s[-2]; s[0] = t; }
  if (lane >= 4) { t += s[-4]; s[0] = t; }
  if (lane >= 8) { t += s[-8]; s[0] = t; }
  if (lane >= 16) { t += s[-16]; s[0] = t; }
  return t;
}

template <class T>
__device__ T scanWarpExclusive(volatile T *s) {
  const int lane = threadIdx.x & 31;
  T t = s[0];
  if (lane >= 1) { t += s[-1]; s[0] = t; }
  if (lane >= 2) { t += s[-2]; s[0] = t; }
  if (lane >= 4) { t += s[-4]; s[0] = t; }
  if (lane >= 8) { t += s[-8]; s[0] = t; }
  if (lane >= 16) { t += s[-16]; s[0] = t; }
  return lane ? s[-1] : T(0);
}

__global__ void scanInclusive(const int *in, int *out, int n) {
  __shared__ int partials[kMaxBlock];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  partials[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  int sum = scanWarpInclusive<int>(partials + threadIdx.x);
  if (i < n)
    out[i] = sum;
}

__global__ void scanExclusive(const float *in, float *out, int n) {
  __shared__ float partials[kMaxBlock];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  partials[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  float sum = scanWarpExclusive<float>(partials + threadIdx.x);
  if (i < n)
    out[i] = sum;
}

__global__ void scanLoop(const int *in, int *out, int n) {
  __shared__ int shared[kMaxBlock]; volatile int *buf = shared;
  int tid = threadIdx.x;
  int lane = tid & 31;
  int i = blockIdx.x * blockDim.x + tid;
  buf[tid] = i < n ? in[i] : 0;
  int t = buf[tid];
  for (int k = 1; k < 32; k <<= 1) {
    if (lane >= k) {
      t += buf[tid - k];
      buf[tid] = t;
    }
  }
  if (i < n)
    out[i] = t;
}

struct Expected {
  std::vector<int> inclusive;
  std::vector<float> exclusive;
};

static Expected reference(const std::vector<int> &in, const harness::Shape &s) {
  Expected e{std::vector<int>(s.n), std::vector<float>(s.n)};
  int warps = harness::warpsPerBlock(s.blockSize);
  for (int b = 0; b < s.numBlocks; ++b)
    for (int w = 0; w < warps; ++w) {
      int running = 0;
      for (int lane = 0; lane < harness::lanesInWarp(s.blockSize, w); ++lane) {
        int i = b * s.blockSize + w * 32 + lane;
        if (i < s.n)
          e.exclusive[i] = (float)running;
        running += i < s.n ? in[i] : 0;
        if (i < s.n)
          e.inclusive[i] = running;
      }
    }
  return e;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::require(s.blockSize <= kMaxBlock, "blocks of at most 1024 threads");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  std::vector<float> inFloat(in.begin(), in.end());
  Expected want = reference(in, s);
  harness::DeviceArray<int> dIn(in), dInclusive(s.n), dLoop(s.n);
  harness::DeviceArray<float> dInFloat(inFloat), dExclusive(s.n);
  return harness::run(s,
                      {harness::expect("inclusive", dInclusive, want.inclusive),
                       harness::expect("exclusive", dExclusive, want.exclusive),
                       harness::expect("loop", dLoop, want.inclusive)},
                      [&] {
                        scanInclusive<<<s.numBlocks, s.blockSize>>>(dIn.get(), dInclusive.get(),
                                                                    s.n);
                        scanExclusive<<<s.numBlocks, s.blockSize>>>(dInFloat.get(),
                                                                    dExclusive.get(), s.n);
                        scanLoop<<<s.numBlocks, s.blockSize>>>(dIn.get(), dLoop.get(), s.n);
                      });
}
