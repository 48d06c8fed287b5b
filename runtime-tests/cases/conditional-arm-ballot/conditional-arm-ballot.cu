// Legacy votes and a shuffle in the arms of a `?:` whose condition differs
// between the lanes of a warp (issue 43, item 4): the lanes that make each
// call are those that take its arm. warpfix takes a ballot of the condition
// (and of its negation, for the other arm) right before the statement.
//
// Each lane reads only what the lanes of its own arm agree on: a vote, or a
// shuffle from the lowest lane of the arm, found beforehand with a ballot
// that is already in the CUDA 9 form.
//
// Shapes: any block size; 48 and 100 give partial warps. Threads past n hold
// 0 and take part.
//
// @shapes 64x40:2560 48x50:2400 100x30:2900 128x20:2000 32x64:2048
// @sanitize 100x2:150
// @time 256x8192:2097152 grow=blocks
#include "../../harness.h"

__global__ void arms(const int *in, int *votes, int *picks, int n) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = gid < n ? in[gid] : 0;
  bool odd = (v & 1) != 0;
  unsigned oddLanes = __ballot_sync(0xffffffff, odd);
  int firstOdd = __ffs(oddLanes) - 1;
  int vote = odd ? __popc(__ballot(v & 2)) : 100 * __popc(__ballot(v & 4));
  int pick = odd ? __shfl(v, firstOdd) : (__any(v > 500) ? 1 : 2);
  if (gid < n) {
    votes[gid] = vote;
    picks[gid] = pick;
  }
}

struct Expected {
  std::vector<int> votes, picks;
};

static Expected reference(const std::vector<int> &in, const harness::Shape &s) {
  Expected e{std::vector<int>(s.n), std::vector<int>(s.n)};
  for (int b = 0; b < s.numBlocks; ++b)
    for (int w = 0; w < harness::warpsPerBlock(s.blockSize); ++w) {
      int first = b * s.blockSize + w * 32;
      int lanes = harness::lanesInWarp(s.blockSize, w);
      std::vector<int> v(lanes);
      for (int lane = 0; lane < lanes; ++lane)
        v[lane] = first + lane < s.n ? in[first + lane] : 0;
      int oddTwos = 0, evenFours = 0, firstOdd = -1;
      bool evenBig = false;
      for (int lane = 0; lane < lanes; ++lane) {
        if (v[lane] & 1) {
          oddTwos += (v[lane] & 2) != 0;
          if (firstOdd < 0)
            firstOdd = lane;
        } else {
          evenFours += (v[lane] & 4) != 0;
          evenBig |= v[lane] > 500;
        }
      }
      for (int lane = 0; lane < lanes; ++lane) {
        int gid = first + lane;
        if (gid >= s.n)
          continue;
        bool odd = v[lane] & 1;
        e.votes[gid] = odd ? oddTwos : 100 * evenFours;
        e.picks[gid] = odd ? v[firstOdd] : (evenBig ? 1 : 2);
      }
    }
  return e;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.n <= s.numBlocks * s.blockSize, "n must fit the grid");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, 0, 1000);
  Expected want = reference(in, s);
  harness::DeviceArray<int> dIn(in), dVotes(s.n), dPicks(s.n);
  return harness::run(s,
                      {harness::expect("votes", dVotes, want.votes),
                       harness::expect("picks", dPicks, want.picks)},
                      [&] {
                        arms<<<s.numBlocks, s.blockSize>>>(
                            dIn.get(), dVotes.get(), dPicks.get(), s.n);
                      });
}
