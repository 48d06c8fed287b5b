// Warp helpers in a header of the project, which two units call from only
// some lanes, and the header itself from others (issue 43, item 3): the sum
// of each group of eight lanes and a vote. The legacy primitives took whoever
// was active; warpfix, run over the whole folder, gives each helper a mask
// parameter, and every call passes the lanes that make it, in both units and
// in the header. This unit includes the header and calls nothing in it.
//
// Shapes: blocks of whole warps; n is k, the groups that sum (1 to 4).
//
// @shapes 64x40:1 128x20:2 96x30:3 32x64:4
// @sanitize 64x2:2
// @time 256x8192:3 grow=blocks
#include "harness.h"
#include "inc/group_ops.cuh"

void launchFirstGroups(int blocks, int threads, const int *in, int *sums,
                       int *halves, int k);
void launchSignVotes(int blocks, int threads, const int *in, unsigned *votes,
                     int *lastSums);

struct Expected {
  std::vector<int> sums, halves, lastSums;
  std::vector<unsigned> votes;
};

static int groupOf8(const std::vector<int> &in, int i) {
  int first = i - i % 8, total = 0;
  for (int j = first; j < first + 8; ++j)
    total += in[j];
  return total;
}

static Expected reference(const std::vector<int> &in, int k) {
  size_t n = in.size();
  Expected e{std::vector<int>(n), std::vector<int>(n), std::vector<int>(n),
             std::vector<unsigned>(n)};
  for (size_t i = 0; i < n; ++i) {
    int lane = i % 32;
    e.sums[i] = lane / 8 < k ? groupOf8(in, i) : in[i];
    e.halves[i] = lane < 16 ? groupOf8(in, i) : in[i];
    e.lastSums[i] = lane >= 24 ? groupOf8(in, i) : in[i];
    if (in[i] % 3 != 0) {
      size_t warp = i - lane;
      unsigned b = 0;
      for (int l = 0; l < 32; ++l)
        if (in[warp + l] % 3 != 0 && in[warp + l] > 0)
          b |= 1u << l;
      e.votes[i] = b;
    }
  }
  return e;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize % 32 == 0, "blocks must be whole warps");
  harness::require(s.n >= 1 && s.n <= 4, "k (n) must be 1 to 4");
  int threads = s.numBlocks * s.blockSize;
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, threads, -1000, 1000);
  Expected e = reference(in, s.n);
  harness::DeviceArray<int> dIn(in), dSums(threads), dHalves(threads),
      dLastSums(threads);
  harness::DeviceArray<unsigned> dVotes(threads);
  return harness::run(s,
                      {harness::expect("sums", dSums, e.sums),
                       harness::expect("halves", dHalves, e.halves),
                       harness::expect("lastSums", dLastSums, e.lastSums),
                       harness::expect("votes", dVotes, e.votes)},
                      [&] {
                        launchFirstGroups(s.numBlocks, s.blockSize, dIn.get(),
                                          dSums.get(), dHalves.get(), s.n);
                        launchSignVotes(s.numBlocks, s.blockSize, dIn.get(),
                                        dVotes.get(), dLastSums.get());
                      });
}
