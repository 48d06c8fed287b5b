// Soundness: the lane number reaches a branch through an object's state set
// in its initialisation. LaneSlot stores `threadIdx.x & 31` in a default
// member initializer, LaneTag in its constructor's body; each kernel sums the
// low 12 lanes of its warp with a legacy __shfl_down tree and takes a
// __ballot under `if (obj.lane < 12)`. Only lanes 0 to 11 reach those calls.
//
// warpfix once took the field for lane-independent and wrote the full mask,
// which names lanes 12 to 31, which never arrive.
// Now it follows threadIdx.x into both fields, and for each kernel hoists
// `__ballot_sync(0xffffffff, obj.lane < 12)` before the branch, where every
// lane of the warp still runs, and uses it as the mask of the branch's
// __shfl_down_sync and __ballot_sync. That mask names exactly the lanes that
// take part, in whole and in partial warps (a _sync primitive waits only for
// the lanes of its mask that have not exited, and the lanes a partial warp
// lacks never ran).
//
// What the legacy code computed (the calls ran over the lanes active in the
// branch): per warp, lane 0 gets the sum of lanes [0, min(12, lanes of the
// warp)), reading 0 for threads past n, and the ballot of `value > 0` over
// those lanes. A step adds another lane's value only if that lane is below 12
// and exists (`threadIdx.x + offset < blockDim.x`), so the shuffles' reads of
// lanes outside the branch, whose values are undefined, are never used.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 48x2:90
// @time 256x4096:1048576
#include "../../harness.h"

struct LaneSlot {
  int lane = threadIdx.x & 31; // default member initializer
  int value = 0;
};

struct LaneTag {
  int lane;
  int value;
  __device__ explicit LaneTag(int v) {
    lane = threadIdx.x & 31; // constructor body
    value = v;
  }
};

__global__ void lowLanesSlot(const int *in, int *sums, unsigned *votes, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  LaneSlot slot;
  slot.value = i < n ? in[i] : 0;
  if (slot.lane < 12) {
    int v = slot.value;
    for (int offset = 16; offset > 0; offset /= 2) {
      int other = __shfl_down(v, offset);
      if (slot.lane + offset < 12 && threadIdx.x + offset < blockDim.x)
        v += other;
    }
    unsigned positive = __ballot(slot.value > 0);
    if (slot.lane == 0) {
      int warp = blockIdx.x * ((blockDim.x + 31) / 32) + threadIdx.x / 32;
      sums[warp] = v;
      votes[warp] = positive;
    }
  }
}

__global__ void lowLanesTag(const int *in, int *sums, unsigned *votes, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  LaneTag tag(i < n ? in[i] : 0);
  if (tag.lane < 12) {
    int v = tag.value;
    for (int offset = 16; offset > 0; offset /= 2) {
      int other = __shfl_down(v, offset);
      if (tag.lane + offset < 12 && threadIdx.x + offset < blockDim.x)
        v += other;
    }
    unsigned positive = __ballot(tag.value > 0);
    if (tag.lane == 0) {
      int warp = blockIdx.x * ((blockDim.x + 31) / 32) + threadIdx.x / 32;
      sums[warp] = v;
      votes[warp] = positive;
    }
  }
}

struct Expected {
  std::vector<int> sums;
  std::vector<unsigned> votes;
};

static Expected reference(const std::vector<int> &in, const harness::Shape &s) {
  int warps = harness::warpsPerBlock(s.blockSize);
  Expected e{std::vector<int>(s.numBlocks * warps), std::vector<unsigned>(s.numBlocks * warps)};
  for (int b = 0; b < s.numBlocks; ++b)
    for (int w = 0; w < warps; ++w) {
      int sum = 0;
      unsigned vote = 0;
      int lanes = std::min(12, harness::lanesInWarp(s.blockSize, w));
      for (int lane = 0; lane < lanes; ++lane) {
        int i = b * s.blockSize + w * 32 + lane;
        int v = i < s.n ? in[i] : 0;
        sum += v;
        if (v > 0)
          vote |= 1u << lane;
      }
      e.sums[b * warps + w] = sum;
      e.votes[b * warps + w] = vote;
    }
  return e;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  Expected want = reference(in, s);
  int warps = s.numBlocks * harness::warpsPerBlock(s.blockSize);
  harness::DeviceArray<int> dIn(in), dSlotSums(warps), dTagSums(warps);
  harness::DeviceArray<unsigned> dSlotVotes(warps), dTagVotes(warps);
  return harness::run(s,
                      {harness::expect("slotSums", dSlotSums, want.sums),
                       harness::expect("slotVotes", dSlotVotes, want.votes),
                       harness::expect("tagSums", dTagSums, want.sums),
                       harness::expect("tagVotes", dTagVotes, want.votes)},
                      [&] {
                        lowLanesSlot<<<s.numBlocks, s.blockSize>>>(
                            dIn.get(), dSlotSums.get(), dSlotVotes.get(), s.n);
                        lowLanesTag<<<s.numBlocks, s.blockSize>>>(
                            dIn.get(), dTagSums.get(), dTagVotes.get(), s.n);
                      });
}
