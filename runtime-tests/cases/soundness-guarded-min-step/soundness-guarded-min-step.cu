// Soundness: a warp-synchronous minimum whose steps are guarded by the data.
// blockMinError finds each block's smallest error |in[i] - target| with a
// shared-memory tree under __syncthreads() down to 32 values, then, as
// legacy code did, lets the first warp finish under `if (idx < 32)` with
// `if (errors[idx + k] < errors[idx]) { errors[idx] = errors[idx + k]; }`,
// k = 16 down to 1, and no barrier: it relied on the warp running in
// lockstep, lane idx reading the slot that lane idx + k wrote one step
// before. errors is a volatile pointer, so that each step reads what the
// step before wrote. blockMinErrorFenced is the same with a plain pointer
// and a __threadfence_block() after each step instead, the other way legacy
// code kept the compiler from merging the steps' loads (a fence orders one
// thread's accesses; it is no barrier between lanes).
//
// warpfix reports the race at each of the five steps of both kernels and
// refuses to fix any. In blockMinErrorFenced its reason is the one that
// matters here: the write errors[idx] = errors[idx + k] is made only by the
// lanes whose comparison holds, and the lanes that read that slot in the
// next step may have skipped their own branch; a __syncwarp() (with a ballot
// of the condition) inside each branch, as warpfix once wrote, orders only
// the lanes that enter it and leaves the writers unordered with the lanes
// that skip. The barriers must stand where both reach them, which needs the
// step rewritten (read both, __syncwarp, store the minimum unconditionally,
// __syncwarp), so warpfix leaves it to its user. In blockMinError it refuses
// earlier: the condition reads volatile memory, so it cannot be evaluated
// again in a ballot. Both refusals are right. The rewritten program is the
// original; racecheck hazards in it are tolerated because warpfix reports
// the races unfixed.
//
// What the legacy code computed: each block's minimum error over its
// threads; a thread past n holds INT_MAX, and so do the slots past the block
// (the block first fills all 256), so blocks of 48 and 100 are defined.
//
// Shapes: blocks of up to 256 threads.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 256x16:4000 32x50:1500
// @sanitize 48x2:90
// @time 256x4096:1048576
#include "../../harness.h"

#include <climits>

constexpr int kMaxBlock = 256;

__global__ void blockMinError(const int *in, int *minError, int target, int n) {
  __shared__ int shared[kMaxBlock];
  for (int k = threadIdx.x; k < kMaxBlock; k += blockDim.x)
    shared[k] = INT_MAX;
  __syncthreads();
  volatile int *errors = shared;
  int idx = threadIdx.x;
  int i = blockIdx.x * blockDim.x + idx;
  errors[idx] = i < n ? abs(in[i] - target) : INT_MAX;
  __syncthreads();
  for (int s = kMaxBlock / 2; s >= 32; s >>= 1) {
    if (idx < s && errors[idx + s] < errors[idx])
      errors[idx] = errors[idx + s];
    __syncthreads();
  }
  if (idx < 32) {
    if (errors[idx + 16] < errors[idx]) { errors[idx] = errors[idx + 16]; }
    if (errors[idx + 8] < errors[idx]) { errors[idx] = errors[idx + 8]; }
    if (errors[idx + 4] < errors[idx]) { errors[idx] = errors[idx + 4]; }
    if (errors[idx + 2] < errors[idx]) { errors[idx] = errors[idx + 2]; }
    if (errors[idx + 1] < errors[idx]) { errors[idx] = errors[idx + 1]; }
  }
  if (idx == 0)
    minError[blockIdx.x] = errors[0];
}

__global__ void blockMinErrorFenced(const int *in, int *minError, int target, int n) {
  __shared__ int shared[kMaxBlock];
  for (int k = threadIdx.x; k < kMaxBlock; k += blockDim.x)
    shared[k] = INT_MAX;
  __syncthreads();
  int *errors = shared;
  int idx = threadIdx.x;
  int i = blockIdx.x * blockDim.x + idx;
  errors[idx] = i < n ? abs(in[i] - target) : INT_MAX;
  __syncthreads();
  for (int s = kMaxBlock / 2; s >= 32; s >>= 1) {
    if (idx < s && errors[idx + s] < errors[idx])
      errors[idx] = errors[idx + s];
    __syncthreads();
  }
  if (idx < 32) {
    if (errors[idx + 16] < errors[idx]) { errors[idx] = errors[idx + 16]; }
    __threadfence_block();
    if (errors[idx + 8] < errors[idx]) { errors[idx] = errors[idx + 8]; }
    __threadfence_block();
    if (errors[idx + 4] < errors[idx]) { errors[idx] = errors[idx + 4]; }
    __threadfence_block();
    if (errors[idx + 2] < errors[idx]) { errors[idx] = errors[idx + 2]; }
    __threadfence_block();
    if (errors[idx + 1] < errors[idx]) { errors[idx] = errors[idx + 1]; }
    __threadfence_block();
  }
  if (idx == 0)
    minError[blockIdx.x] = errors[0];
}

static std::vector<int> reference(const std::vector<int> &in, int target,
                                  const harness::Shape &s) {
  std::vector<int> out(s.numBlocks, INT_MAX);
  for (int b = 0; b < s.numBlocks; ++b)
    for (int t = 0; t < s.blockSize; ++t) {
      long long i = (long long)b * s.blockSize + t;
      if (i < s.n)
        out[b] = std::min(out[b], std::abs(in[i] - target));
    }
  return out;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize <= kMaxBlock, "the shared array holds 256 values");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -100000, 100000);
  int target = (int)rng.range(-50000, 50000);
  std::vector<int> want = reference(in, target, s);
  harness::DeviceArray<int> dIn(in), dMin(s.numBlocks), dMinFenced(s.numBlocks);
  return harness::run(s,
                      {harness::expect("minError", dMin, want),
                       harness::expect("minErrorFenced", dMinFenced, want)},
                      [&] {
                        blockMinError<<<s.numBlocks, s.blockSize>>>(dIn.get(), dMin.get(),
                                                                    target, s.n);
                        blockMinErrorFenced<<<s.numBlocks, s.blockSize>>>(
                            dIn.get(), dMinFenced.get(), target, s.n);
                      });
}
