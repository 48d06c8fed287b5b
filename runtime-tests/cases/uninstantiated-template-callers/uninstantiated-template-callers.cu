// Issue 43, item 2: a library's helper templates that only its kernel
// templates call, and nothing warpfix analyses instantiates either (the
// launches, like a user's translation unit, are compiled by nvcc only:
// `#ifdef __NVCC__`). The calls of the helpers name no function until an
// instantiation resolves them; warpfix counts each as a call of the helper
// its name finds, so the helpers are judged by their kernel templates:
//   - warpSum, a __shfl_xor butterfly, called by every lane: full mask;
//   - logicalWarpSum<W>, CUB's shape: `if (W == 32)` is the same for every
//     lane, each branch reached by the whole warp: full mask;
//   - shuffleUp, legacy PTX in a helper template, called by every lane: the
//     full mask immediate;
//   - a vote in legacy PTX under a lane-dependent branch of the kernel
//     template: a ballot of the branch, passed in as a new input operand.
// The values are small integers, exact in every type.
//
// Shapes: block sizes are multiples of 32 (the reductions read all 32 lanes).
// Threads past n take part with 0.
//
// @shapes 128x40:5000 32x100:3190 256x12:3072 1024x3:2500
// @sanitize 64x2:100
// @time 256x4096:1048576
#include "../../harness.h"

template <class T>
__device__ T warpSum(T v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_xor(v, offset);
  return v;
}

template <int LOGICAL_WARP_THREADS, class T>
__device__ T logicalWarpSum(T v) {
  if (LOGICAL_WARP_THREADS == 32) {
    for (int offset = 16; offset > 0; offset >>= 1)
      v += __shfl_down(v, offset);
  } else {
    for (int offset = LOGICAL_WARP_THREADS / 2; offset > 0; offset >>= 1)
      v += __shfl_down(v, offset, LOGICAL_WARP_THREADS);
  }
  return v;
}

template <class T>
__device__ T shuffleUp(T v) {
  int x = int(v);
  asm volatile("shfl.up.b32 %0, %0, 1, 0;" : "+r"(x));
  return T(x);
}

template <class T, int SEGMENT>
__global__ void sums(const T *in, T *total, T *segment, T *prev, unsigned *votes, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  T v = i < n ? in[i] : T(0);
  T all = warpSum(v);
  T part = logicalWarpSum<SEGMENT>(v);
  T before = shuffleUp(v);
  unsigned ballot = 0;
  if (threadIdx.x % 32 < SEGMENT)
    asm volatile("vote.ballot.b32 %0, 1;" : "=r"(ballot));
  if (i < n) {
    total[i] = all;
    segment[i] = part;
    prev[i] = before;
    votes[i] = ballot;
  }
}

#ifdef __NVCC__
template <class T, int SEGMENT> struct Typed {
  std::vector<T> in, total, segment, prev;
  std::vector<unsigned> votes;

  Typed(harness::Rng &rng, int n) : in(n), total(n), segment(n), prev(n), votes(n) {
    for (T &x : in)
      x = (T)rng.range(-1000, 1000);
    auto at = [&](int i) { return i < n ? in[i] : T(0); };
    unsigned low = SEGMENT == 32 ? 0xffffffffu : (1u << SEGMENT) - 1;
    for (int start = 0; start < n; start += 32) {
      T sum = 0;
      for (int i = start; i < start + 32; ++i)
        sum += at(i);
      for (int i = start; i < std::min(start + 32, n); ++i) {
        int lane = i - start;
        total[i] = sum;
        // __shfl_down within a segment: lane l adds lanes l + d while they
        // are in the segment, else its own value again.
        std::vector<T> s(32);
        for (int l = 0; l < 32; ++l)
          s[l] = at(start + l);
        for (int d = SEGMENT / 2; d > 0; d >>= 1) {
          std::vector<T> next(s);
          for (int l = 0; l < 32; ++l) {
            int src = l + d;
            next[l] = s[l] + ((src % SEGMENT) > (l % SEGMENT) && src / SEGMENT == l / SEGMENT
                                  ? s[src]
                                  : s[l]);
          }
          s = next;
        }
        segment[i] = s[lane];
        prev[i] = lane == 0 ? in[i] : at(i - 1);
        votes[i] = lane % 32 < SEGMENT ? low : 0;
      }
    }
  }
};

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize % 32 == 0, "the reductions read all 32 lanes");
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::Rng rng(s.seed);
  Typed<int, 32> i32(rng, s.n);
  Typed<float, 8> f32(rng, s.n);
  harness::DeviceArray<int> dInI(i32.in), dTotalI(s.n), dSegI(s.n), dPrevI(s.n);
  harness::DeviceArray<unsigned> dVotesI(s.n), dVotesF(s.n);
  harness::DeviceArray<float> dInF(f32.in), dTotalF(s.n), dSegF(s.n), dPrevF(s.n);
  return harness::run(s,
                      {harness::expect("total<int>", dTotalI, i32.total),
                       harness::expect("segment<int,32>", dSegI, i32.segment),
                       harness::expect("prev<int>", dPrevI, i32.prev),
                       harness::expect("votes<int,32>", dVotesI, i32.votes),
                       harness::expect("total<float>", dTotalF, f32.total),
                       harness::expect("segment<float,8>", dSegF, f32.segment),
                       harness::expect("prev<float>", dPrevF, f32.prev),
                       harness::expect("votes<float,8>", dVotesF, f32.votes)},
                      [&] {
                        sums<int, 32><<<s.numBlocks, s.blockSize>>>(
                            dInI.get(), dTotalI.get(), dSegI.get(), dPrevI.get(),
                            dVotesI.get(), s.n);
                        sums<float, 8><<<s.numBlocks, s.blockSize>>>(
                            dInF.get(), dTotalF.get(), dSegF.get(), dPrevF.get(),
                            dVotesF.get(), s.n);
                      });
}
#endif
